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
  return verifyWithKey(secretKey(secret), headers, body, opts);
}

function verifyWithKey(key: Uint8Array, headers: HeadersLike, body: Body, opts: VerifyOptions): WebhookMessage {
  const s = signedContent(headers, body);
  const want = createHmac("sha256", key).update(s.content).digest();
  let ok = false;
  // Every candidate is compared, matched or not, so timing does not tell
  // which of the rotated signatures matched.
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

/**
 * Verifies requests signed with one endpoint secret, in the shape of the
 * Standard Webhooks and Svix libraries, for code moving from them:
 * `new Webhook(secret).verify(payload, headers)`. The constructor decodes
 * the secret once and throws InvalidSecretError if it is malformed;
 * verify applies the same checks as the verify function and returns the
 * envelope. `opts` sets the window and the clock.
 */
export class Webhook {
  readonly #key: Uint8Array;
  readonly #opts: VerifyOptions;

  constructor(secret: string, opts: VerifyOptions = {}) {
    this.#key = secretKey(secret);
    this.#opts = { ...opts };
  }

  /** Verifies payload (the raw body) against headers and returns the envelope; throws a WebhookVerificationError. */
  verify<T = unknown>(payload: Body, headers: HeadersLike): Envelope<T> {
    const m = verifyWithKey(this.#key, headers, payload, this.#opts);
    return parseEnvelope<T>(m.id, payload);
  }

  /** verify without parsing the body, for endpoints with the raw format. */
  verifySignature(payload: Body, headers: HeadersLike): WebhookMessage {
    return verifyWithKey(this.#key, headers, payload, this.#opts);
  }
}
