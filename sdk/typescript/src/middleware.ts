// Request handling shared by the plain Node http handler and the Express
// middleware: verify, dedupe, call the user's handler, answer.
import type { IncomingMessage, ServerResponse } from "node:http";

import {
  parseEnvelope,
  secretKey,
  type Body,
  type Envelope,
  type HeadersLike,
  type VerifyOptions,
  type WebhookMessage,
} from "./common.js";
import { Deduper, StoreError, type Outcome } from "./dedupe.js";
import { WebhookVerificationError } from "./errors.js";
import { verifySignature } from "./verify.js";

/** Options shared by createProcessor, nodeHandler and expressMiddleware. */
export interface WebhookOptions<T = unknown> extends VerifyOptions {
  /** The endpoint's signing secret ("whsec_…"). */
  secret: string;
  /**
   * Receives each verified, new envelope. Resolve once the event is
   * processed or deliberately ignored (answer 200); throw to answer 500,
   * release the dedupe key and have Ferry retry.
   */
  handler?: (event: Envelope<T>) => unknown;
  /** For endpoints with the raw format, instead of handler: the original body. */
  rawHandler?: (message: WebhookMessage, body: Uint8Array) => unknown;
  /** Drops duplicates by webhook-id; absent: no dedupe. */
  deduper?: Deduper;
  /** The largest body read, in bytes (2 MiB). */
  maxBodyBytes?: number;
  /** Gets rejected and failed requests (console.warn/error when absent). */
  onError?: (err: unknown, webhookId: string) => void;
}

/** An answer: status and JSON body. */
export interface Reply {
  status: number;
  body: { status: string };
}

const encoder = new TextEncoder();

function rejection(err: WebhookVerificationError): Reply {
  switch (err.code) {
    case "invalid_secret":
      return { status: 500, body: { status: err.code } }; // the receiver's config: let Ferry retry
    case "invalid_envelope":
      return { status: 400, body: { status: err.code } };
    default:
      return { status: 401, body: { status: err.code } };
  }
}

/**
 * Returns process(headers, body), which answers: 200 processed or
 * duplicate; 401 missing headers, bad signature or timestamp outside the
 * window; 400 not an envelope; 409 being processed by another request;
 * 500 handler failed or secret malformed; 503 dedupe store down.
 */
export function createProcessor<T = unknown>(opts: WebhookOptions<T>): (headers: HeadersLike, body: Body) => Promise<Reply> {
  if (!opts.handler === !opts.rawHandler) throw new TypeError("set exactly one of handler and rawHandler");
  secretKey(opts.secret); // throws InvalidSecretError at start-up
  const onError = opts.onError ?? ((err: unknown, id: string) => console.warn(`ferry webhook ${id}:`, err));
  return async (headers, body) => {
    const raw = typeof body === "string" ? encoder.encode(body) : body;
    let id = "";
    let run: () => unknown;
    try {
      const m = verifySignature(opts.secret, headers, raw, opts);
      id = m.id;
      if (opts.rawHandler) {
        const h = opts.rawHandler;
        run = () => h(m, raw);
      } else {
        const e = parseEnvelope<T>(m.id, raw);
        const h = opts.handler!;
        run = () => h(e);
      }
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        onError(err, id);
        return rejection(err);
      }
      throw err;
    }
    let outcome: Outcome;
    try {
      if (opts.deduper) {
        outcome = await opts.deduper.run(id, run);
      } else {
        await run();
        outcome = "processed";
      }
    } catch (err) {
      onError(err, id);
      if (err instanceof StoreError) return { status: 503, body: { status: "store_unavailable" } };
      return { status: 500, body: { status: "handler_failed" } };
    }
    switch (outcome) {
      case "duplicate":
        return { status: 200, body: { status: "duplicate" } };
      case "in_progress":
        return { status: 409, body: { status: "in_progress" } };
      case "not_recorded":
        onError(new Error("processed but not recorded as done"), id);
        return { status: 200, body: { status: "processed" } };
      default:
        return { status: 200, body: { status: "processed" } };
    }
  };
}

function send(res: ServerResponse, r: Reply): void {
  res.statusCode = r.status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(r.body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A plain Node http request listener: `http.createServer(nodeHandler({secret, handler}))`. */
export function nodeHandler<T = unknown>(opts: WebhookOptions<T>): (req: IncomingMessage, res: ServerResponse) => void {
  const process = createProcessor(opts);
  const limit = opts.maxBodyBytes ?? 2 << 20;
  return (req, res) => {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      send(res, { status: 405, body: { status: "method_not_allowed" } });
      return;
    }
    readBody(req, limit)
      .then(async (body) => {
        if (body === null) return send(res, { status: 413, body: { status: "body_too_large" } });
        send(res, await process(req.headers, body));
      })
      .catch(() => {
        if (!res.headersSent) send(res, { status: 400, body: { status: "unreadable_body" } });
      });
  };
}

/** The parts of an Express request the middleware uses. */
type ExpressLikeRequest = IncomingMessage & { body?: unknown };

/**
 * Express middleware: `app.post("/webhooks", expressMiddleware({secret, handler}))`.
 * Mount it without a JSON body parser in front (or behind `express.raw()`):
 * the signature covers the raw bytes.
 */
export function expressMiddleware<T = unknown>(
  opts: WebhookOptions<T>,
): (req: ExpressLikeRequest, res: ServerResponse, next: (err?: unknown) => void) => void {
  const process = createProcessor(opts);
  const limit = opts.maxBodyBytes ?? 2 << 20;
  return (req, res, next) => {
    const parsed = req.body;
    const body: Promise<Uint8Array | null> =
      parsed instanceof Uint8Array
        ? Promise.resolve(parsed)
        : typeof parsed === "string"
          ? Promise.resolve(encoder.encode(parsed))
          : parsed !== undefined && req.readableEnded
            ? Promise.reject(new Error("the body was parsed before the webhook middleware: mount it before express.json(), or use express.raw()"))
            : readBody(req, limit);
    body
      .then(async (b) => {
        if (b === null) return send(res, { status: 413, body: { status: "body_too_large" } });
        send(res, await process(req.headers, b));
      })
      .catch(next);
  };
}
