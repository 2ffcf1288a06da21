/** Bounds on the retries of one call; every field is optional. */
export interface RetryOptions {
  /** How many times one call is sent at most, the first included (default 4; 1 disables retries). */
  maxAttempts?: number;
  /** From the first attempt to the start of the last; a Retry-After beyond it is not waited for (default 30 000 ms). */
  maxElapsedMs?: number;
  /** First backoff when the answer gives no Retry-After; doubled per attempt up to maxDelayMs, drawn uniformly below (defaults 250 and 5 000 ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** What the retry loop needs from the world; tests pass their own. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal | null): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export const systemClock: RetryClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** Whether sending the request twice has the effect of sending it once. */
function repeatable(req: Request): boolean {
  return IDEMPOTENT.has(req.method) || req.headers.has("Idempotency-Key");
}

/** Reads Retry-After: delay-seconds or an HTTP date; undefined when absent or malformed. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
}

/**
 * Wraps fetch so that a 429 is sent again after its Retry-After (a
 * refused request wrote nothing), and a 503 or a network error is sent
 * again with jittered exponential backoff when the request is repeatable
 * (GET, PUT, DELETE, or a POST with an Idempotency-Key), within the bounds.
 */
export function retryingFetch(
  inner: (req: Request) => Promise<Response>,
  options: RetryOptions = {},
  clock: RetryClock = systemClock,
): (req: Request) => Promise<Response> {
  const maxAttempts = options.maxAttempts ?? 4;
  const maxElapsed = options.maxElapsedMs ?? 30_000;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 5_000;
  return async (req) => {
    const start = clock.now();
    for (let attempt = 1; ; attempt++) {
      const jittered = () => Math.floor(clock.random() * Math.min(base * 2 ** (attempt - 1), cap));
      const last = (wait: number) => attempt >= maxAttempts || clock.now() + wait - start > maxElapsed;
      let res: Response;
      try {
        // A clone per attempt: a body can be read once.
        res = await inner(req.clone());
      } catch (err) {
        if (req.signal?.aborted || !repeatable(req)) throw err;
        const wait = jittered();
        if (last(wait)) throw err;
        await clock.sleep(wait, req.signal);
        continue;
      }
      const retryable = res.status === 429 || (res.status === 503 && repeatable(req));
      if (!retryable) return res;
      const wait = retryAfterMs(res.headers.get("Retry-After"), clock.now()) ?? jittered();
      if (last(wait)) return res;
      await res.body?.cancel();
      await clock.sleep(wait, req.signal);
    }
  };
}
