// Request handling shared by every adapter (Node http, Express, Fastify,
// fetch-style Request/Response, Hono): verify, dedupe, call the user's
// handler, choose the answer. No Node APIs, so the WebCrypto entry point
// and edge runtimes can use it.
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

/** verifySignature of one entry point: synchronous (Node) or async (WebCrypto). */
export type SignatureVerifier = (
  secret: string,
  headers: HeadersLike,
  body: Body,
  opts: VerifyOptions,
) => WebhookMessage | Promise<WebhookMessage>;

/** Verifies, dedupes and handles one request given its headers and raw body. */
export type Processor = (headers: HeadersLike, body: Body) => Promise<Reply>;

/** The largest body adapters read by default, in bytes (2 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 2 << 20;

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
 * Returns process(headers, body) checking signatures with verifySignature
 * (Node's crypto or WebCrypto, by entry point). It answers: 200 processed or
 * duplicate; 401 missing headers, bad signature or timestamp outside the
 * window; 400 not an envelope; 409 being processed by another request;
 * 500 handler failed or secret malformed; 503 dedupe store down.
 */
export function makeProcessor<T = unknown>(opts: WebhookOptions<T>, verifySignature: SignatureVerifier): Processor {
  if (!opts.handler === !opts.rawHandler) throw new TypeError("set exactly one of handler and rawHandler");
  secretKey(opts.secret); // throws InvalidSecretError at start-up
  const onError = opts.onError ?? ((err: unknown, id: string) => console.warn(`ferry webhook ${id}:`, err));
  return async (headers, body) => {
    const raw = typeof body === "string" ? encoder.encode(body) : body;
    let id = "";
    let run: () => unknown;
    try {
      const m = await verifySignature(opts.secret, headers, raw, opts);
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

