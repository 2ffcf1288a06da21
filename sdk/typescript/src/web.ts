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

import { handleRequests } from "./requests.js";
import { makeProcessor, type WebhookOptions } from "./process.js";

export * from "./errors.js";
export * from "./dedupe.js";
export { DEFAULT_MAX_BODY_BYTES, type Reply, type WebhookOptions } from "./process.js";
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
  return verifyWithKey(await importKey(secretKey(secret)), headers, body, opts);
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

// CryptoKey is a DOM type; name it through the global crypto Node's types declare.
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

function importKey(raw: Uint8Array): Promise<HmacKey> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("@ferry-dev/webhooks/web needs WebCrypto (globalThis.crypto.subtle); use the main entry point");
  return subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}

async function verifyWithKey(key: HmacKey, headers: HeadersLike, body: Body, opts: VerifyOptions): Promise<WebhookMessage> {
  const s = signedContent(headers, body);
  let ok = false;
  for (const sig of s.signatures) {
    if (await globalThis.crypto.subtle.verify("HMAC", key, sig, s.content)) ok = true;
  }
  if (!ok) throw new InvalidSignatureError("no v1 signature matches");
  return { id: s.id, timestamp: checkWindow(s.timestamp, opts) };
}

/**
 * The Webhook class of the main entry point, with crypto.subtle:
 * `await new Webhook(secret).verify(payload, headers)`. The constructor
 * throws InvalidSecretError for a malformed secret; the key is imported
 * once, on first use.
 */
export class Webhook {
  readonly #raw: Uint8Array;
  readonly #opts: VerifyOptions;
  #key: Promise<HmacKey> | undefined;

  constructor(secret: string, opts: VerifyOptions = {}) {
    this.#raw = secretKey(secret);
    this.#opts = { ...opts };
  }

  /** Verifies payload (the raw body) against headers and resolves to the envelope; rejects with a WebhookVerificationError. */
  async verify<T = unknown>(payload: Body, headers: HeadersLike): Promise<Envelope<T>> {
    const m = await this.verifySignature(payload, headers);
    return parseEnvelope<T>(m.id, payload);
  }

  /** verify without parsing the body, for endpoints with the raw format. */
  async verifySignature(payload: Body, headers: HeadersLike): Promise<WebhookMessage> {
    this.#key ??= importKey(this.#raw);
    return verifyWithKey(await this.#key, headers, payload, this.#opts);
  }
}

/**
 * A handler for Web-standard Request/Response runtimes with WebCrypto:
 * Next.js route handlers (`export const POST = fetchHandler({secret, handler})`),
 * Hono, Bun, Deno, Cloudflare Workers. It answers as the Node adapters do.
 */
export function fetchHandler<T = unknown>(opts: WebhookOptions<T>): (req: Request) => Promise<Response> {
  return handleRequests(makeProcessor(opts, verifySignature), opts.maxBodyBytes);
}
