/**
 * Receive webhooks sent by Ferry: verify (Standard Webhooks), deduplicate
 * by webhook-id, and handle, with Express or plain Node http middleware,
 * or a Web-standard Request/Response handler (Next.js route handlers).
 * For edge runtimes with WebCrypto, import "@ferry-dev/webhooks/web";
 * for Fastify "@ferry-dev/webhooks/fastify", for Hono "@ferry-dev/webhooks/hono".
 */
export * from "./errors.js";
export {
  DEFAULT_FUTURE_TOLERANCE_MS,
  DEFAULT_TOLERANCE_MS,
  parseEnvelope,
  type Body,
  type Envelope,
  type HeadersLike,
  type VerifyOptions,
  type WebhookMessage,
} from "./common.js";
export { verify, verifySignature, Webhook } from "./verify.js";
export * from "./dedupe.js";
export * from "./postgres.js";
export * from "./redis.js";
export * from "./middleware.js";
export { fetchHandler } from "./fetch.js";
export * from "./portal.js";
