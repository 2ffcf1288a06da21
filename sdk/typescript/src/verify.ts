// Verification with Node's crypto module.
import { createHmac, timingSafeEqual } from "node:crypto";

import { InvalidSignatureError } from "./errors.js";
import {
  checkWindow,
  parseEnvelope,
  secretKey,
  signedContent,
  type Body,
  type Envelope,
  type HeadersLike,
  type VerifyOptions,
  type WebhookMessage,
} from "./common.js";

/**
 * Verifies a request without parsing its body (endpoints with the raw
 * format). Throws InvalidSecretError, MissingHeaderError,
 * InvalidSignatureError or TimestampOutOfWindowError.
 */
export function verifySignature(secret: string, headers: HeadersLike, body: Body, opts: VerifyOptions = {}): WebhookMessage {
  const key = secretKey(secret);
  const s = signedContent(headers, body);
  const want = createHmac("sha256", key).update(s.content).digest();
  let ok = false;
  for (const got of s.signatures) {
    if (got.length === want.length && timingSafeEqual(got, want)) ok = true;
  }
  if (!ok) throw new InvalidSignatureError("no v1 signature matches");
  return { id: s.id, timestamp: checkWindow(s.timestamp, opts) };
}

/**
 * Verifies a Ferry webhook and returns its envelope. `secret` is the
 * endpoint's "whsec_…" secret, `headers` the request's headers, `body` the
 * raw body exactly as received (a string or bytes, before any JSON
 * parsing). Throws a WebhookVerificationError subclass.
 */
export function verify<T = unknown>(secret: string, headers: HeadersLike, body: Body, opts: VerifyOptions = {}): Envelope<T> {
  const m = verifySignature(secret, headers, body, opts);
  return parseEnvelope<T>(m.id, body);
}
