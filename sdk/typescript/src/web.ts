/**
 * Verification with WebCrypto (crypto.subtle), for edge runtimes and
 * other environments without Node's crypto module (needs a global
 * crypto.subtle: Node 20+, Deno, Bun, Cloudflare Workers, Vercel Edge). The functions
 * are async; everything else matches the main entry point.
 */
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

/** verifySignature of the main entry point, with crypto.subtle (timing-safe HMAC verify). */
export async function verifySignature(
  secret: string,
  headers: HeadersLike,
  body: Body,
  opts: VerifyOptions = {},
): Promise<WebhookMessage> {
  const raw = secretKey(secret);
  const s = signedContent(headers, body);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("@ferry-dev/webhooks/web needs WebCrypto (globalThis.crypto.subtle); on Node 18 use the main entry point");
  const key = await subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  let ok = false;
  for (const sig of s.signatures) {
    if (await subtle.verify("HMAC", key, sig, s.content)) ok = true;
  }
  if (!ok) throw new InvalidSignatureError("no v1 signature matches");
  return { id: s.id, timestamp: checkWindow(s.timestamp, opts) };
}

/** verify of the main entry point, with crypto.subtle. */
export async function verify<T = unknown>(
  secret: string,
  headers: HeadersLike,
  body: Body,
  opts: VerifyOptions = {},
): Promise<Envelope<T>> {
  const m = await verifySignature(secret, headers, body, opts);
  return parseEnvelope<T>(m.id, body);
}
