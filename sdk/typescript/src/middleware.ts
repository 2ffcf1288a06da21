// The Node http handler and the Express middleware.
import type { IncomingMessage, ServerResponse } from "node:http";

import { DEFAULT_MAX_BODY_BYTES, makeProcessor, type Processor, type Reply, type WebhookOptions } from "./process.js";
import { verifySignature } from "./verify.js";

const encoder = new TextEncoder();

export { DEFAULT_MAX_BODY_BYTES, type Processor, type Reply, type WebhookOptions } from "./process.js";

/**
 * Returns process(headers, body), which answers: 200 processed or
 * duplicate; 401 missing headers, bad signature or timestamp outside the
 * window; 400 not an envelope; 409 being processed by another request;
 * 500 handler failed or secret malformed; 503 dedupe store down. Throws
 * InvalidSecretError at once when the secret is malformed.
 */
export function createProcessor<T = unknown>(opts: WebhookOptions<T>): Processor {
  return makeProcessor(opts, verifySignature);
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
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
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
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
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
