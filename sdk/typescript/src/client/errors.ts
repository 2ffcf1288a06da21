import { retryAfterMs } from "./retry.js";

/** An answer from Ferry other than 2xx, in Ferry's error shape ({"error":{"code","message","field"}}). */
export class FerryError extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** Ferry's error code: invalid, not_found, rate_limited, quota_exceeded … (docs/api.md, Errors). */
    readonly code: string,
    message: string,
    /** The request field at fault, when one is. */
    readonly field?: string,
    /** The answer's X-Request-Id: quote it to support. */
    readonly requestId?: string,
    /** Retry-After of a 429 or 503, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(`ferry: ${status} ${code}${field ? ` (field ${field})` : ""}: ${message}${requestId ? ` [request ${requestId}]` : ""}`);
    this.name = "FerryError";
  }

  /** Reads an error answer; a body not in Ferry's shape (a proxy's page) still gives a FerryError, code http_<status>. */
  static from(response: Response, body: unknown): FerryError {
    const e = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | undefined)?.error;
    const requestId = response.headers.get("X-Request-Id") ?? undefined;
    const retryAfter = retryAfterMs(response.headers.get("Retry-After"), Date.now());
    if (e && typeof e.code === "string") {
      return new FerryError(response.status, e.code, String(e.message ?? ""), typeof e.field === "string" ? e.field : undefined, requestId, retryAfter);
    }
    return new FerryError(response.status, `http_${response.status}`, response.statusText, undefined, requestId, retryAfter);
  }
}
