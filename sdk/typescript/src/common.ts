// Runtime-independent parts of verification: header lookup, secret
// decoding, the timestamp window and envelope parsing. No Node APIs, so
// the WebCrypto entry point can use it in edge runtimes.
import {
  InvalidEnvelopeError,
  InvalidSecretError,
  InvalidSignatureError,
  MissingHeaderError,
  TimestampOutOfWindowError,
} from "./errors.js";

/**
 * How old webhook-timestamp may be, in milliseconds. Ferry's timestamp is
 * the event's created_at, identical on every retry and replay: retries run
 * for 72 hours and replays come later still, so the window is the 72 h
 * retry window plus four days for replays, not the usual 5 minutes.
 */
export const DEFAULT_TOLERANCE_MS = 7 * 24 * 3600 * 1000;
/** How far in the future webhook-timestamp may be (clock skew), in ms. */
export const DEFAULT_FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The JSON body Ferry posts for an event. */
export interface Envelope<T = unknown> {
  /** The event id (a lower-case UUID), equal to webhook-id. */
  id: string;
  /** The event type, e.g. "invoice.paid". */
  type: string;
  /** When Ferry accepted the event: ISO 8601 UTC with milliseconds. Order by it. */
  created_at: string;
  /** The event's payload. */
  data: T;
}

/** What a verified request says about itself, whatever its body format. */
export interface WebhookMessage {
  /** webhook-id: the event id, the same on every attempt and replay. */
  id: string;
  /** webhook-timestamp: the event's created_at, in unix seconds. */
  timestamp: number;
}

/** Request headers: Node's IncomingHttpHeaders, a plain object, or fetch Headers. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

/** A request body exactly as received. */
export type Body = string | Uint8Array;

/** Options of verify and verifySignature. */
export interface VerifyOptions {
  /** How old webhook-timestamp may be, in ms (DEFAULT_TOLERANCE_MS). */
  toleranceMs?: number;
  /** How far ahead it may be, in ms (DEFAULT_FUTURE_TOLERANCE_MS). */
  futureToleranceMs?: number;
  /** The current time, or a clock returning it (Date.now() when absent). */
  now?: Date | number | (() => Date | number);
}

export function header(headers: HeadersLike, name: string): string {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? "";
  }
  const rec = headers as Record<string, string | string[] | undefined>;
  let v = rec[name];
  if (v === undefined) {
    for (const k of Object.keys(rec)) {
      if (k.toLowerCase() === name) {
        v = rec[k];
        break;
      }
    }
  }
  if (Array.isArray(v)) v = v[0];
  return v ?? "";
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeBase64(s: string): Uint8Array | null {
  if (s.length % 4 !== 0 || !B64.test(s)) return null;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function secretKey(secret: string): Uint8Array {
  if (typeof secret !== "string" || secret === "") throw new InvalidSecretError("signing secret is empty");
  const key = decodeBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  if (key === null) throw new InvalidSecretError("signing secret is not base64 after whsec_");
  if (key.length < 24 || key.length > 64) {
    throw new InvalidSecretError(`signing secret holds ${key.length} bytes, want 24 to 64`);
  }
  return key;
}

const encoder = new TextEncoder();

export function bodyBytes(body: Body): Uint8Array {
  return typeof body === "string" ? encoder.encode(body) : body;
}

/** The checked headers and the exact bytes that were signed. */
export interface Signed {
  id: string;
  timestamp: string;
  signatures: Uint8Array[];
  content: Uint8Array;
}

/** Reads the headers and the v1 signatures; throws MissingHeaderError or InvalidSignatureError. */
export function signedContent(headers: HeadersLike, body: Body): Signed {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const sigHeader = header(headers, "webhook-signature");
  const missing = [
    ["webhook-id", id],
    ["webhook-timestamp", timestamp],
    ["webhook-signature", sigHeader],
  ]
    .filter(([, v]) => v === "")
    .map(([n]) => n);
  if (missing.length > 0) throw new MissingHeaderError(`missing ${missing.join(", ")}`);
  if (!/^[0-9]+$/.test(timestamp)) {
    throw new InvalidSignatureError(`webhook-timestamp ${JSON.stringify(timestamp)} is not unix seconds`);
  }
  const signatures: Uint8Array[] = [];
  for (const sig of sigHeader.split(/\s+/)) {
    if (!sig.startsWith("v1,")) continue;
    const b = decodeBase64(sig.slice(3));
    if (b !== null) signatures.push(b);
  }
  const raw = bodyBytes(body);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + raw.length);
  content.set(prefix, 0);
  content.set(raw, prefix.length);
  return { id, timestamp, signatures, content };
}

/** Throws TimestampOutOfWindowError unless timestamp lies in the window. */
export function checkWindow(timestamp: string, opts: VerifyOptions = {}): number {
  const sent = Number(timestamp);
  const clock = typeof opts.now === "function" ? opts.now() : opts.now;
  const now = clock === undefined ? Date.now() : typeof clock === "number" ? clock : clock.getTime();
  const ageMs = now - sent * 1000;
  if (ageMs > (opts.toleranceMs ?? DEFAULT_TOLERANCE_MS)) {
    throw new TimestampOutOfWindowError(`timestamp ${sent} is ${Math.round(ageMs / 1000)} s old`);
  }
  if (-ageMs > (opts.futureToleranceMs ?? DEFAULT_FUTURE_TOLERANCE_MS)) {
    throw new TimestampOutOfWindowError(`timestamp ${sent} is ${Math.round(-ageMs / 1000)} s in the future`);
  }
  return sent;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Parses body as the envelope of event id; throws InvalidEnvelopeError. */
export function parseEnvelope<T = unknown>(id: string, body: Body): Envelope<T> {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof body === "string" ? body : decoder.decode(body));
  } catch (e) {
    throw new InvalidEnvelopeError(`body is not JSON: ${(e as Error).message}`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new InvalidEnvelopeError("body is not a JSON object");
  }
  const o = doc as Record<string, unknown>;
  if (!("id" in o) || !("type" in o) || !("created_at" in o) || !("data" in o)) {
    throw new InvalidEnvelopeError("id, type, created_at or data missing");
  }
  if (o.id !== id) throw new InvalidEnvelopeError(`envelope id ${JSON.stringify(o.id)} is not webhook-id ${id}`);
  if (typeof o.type !== "string") throw new InvalidEnvelopeError("type is not a string");
  if (typeof o.created_at !== "string" || Number.isNaN(Date.parse(o.created_at))) {
    throw new InvalidEnvelopeError("created_at is not a timestamp");
  }
  return { id: o.id, type: o.type, created_at: o.created_at, data: o.data as T };
}
