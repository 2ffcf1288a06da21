/**
 * Receive webhooks sent by Ferry: verify (Standard Webhooks), deduplicate
 * by webhook-id, and handle, with Express or plain Node http middleware.
 * For edge runtimes with WebCrypto, import "@ferry-dev/webhooks/web".
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
export { verify, verifySignature } from "./verify.js";
export * from "./dedupe.js";
export * from "./postgres.js";
export * from "./redis.js";
export * from "./middleware.js";
export * from "./portal.js";
