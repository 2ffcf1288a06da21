// Dedupe by webhook-id: the store interface, an in-memory store and Deduper.
import { DEFAULT_TOLERANCE_MS } from "./common.js";

const DAY_MS = 24 * 3600 * 1000;

/** How long processed ids are kept: longer than the verification window. */
export const DEFAULT_TTL_MS = DEFAULT_TOLERANCE_MS + DAY_MS;
/** The shortest TTL Deduper accepts: Ferry retries for 72 h, keys outlive that. */
export const MIN_TTL_MS = 4 * DAY_MS;
/** How long a claim holds while the handler runs; frees itself if the process dies. */
export const DEFAULT_LEASE_MS = 2 * 60 * 1000;

/** The state of a key found by Store.claim. */
export type Claim = "claimed" | "in_progress" | "done";

/** What Deduper.run did. */
export type Outcome = "processed" | "duplicate" | "in_progress" | "not_recorded";

/** Keeps dedupe keys; claim must be atomic across every process sharing the store. */
export interface Store {
  /** Records key as in progress for leaseMs unless held or done, and says which. */
  claim(key: string, leaseMs: number): Promise<Claim>;
  /** Marks key done and keeps it for ttlMs. */
  complete(key: string, ttlMs: number): Promise<void>;
  /** Removes an in-progress claim (never a completed key). */
  release(key: string): Promise<void>;
}

/** The store could not be asked before running the handler. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
  }
}

/** A Store in this process's memory, with expiry. For one process, or tests. */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, { done: boolean; expires: number }>();
  private ops = 0;
  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, leaseMs: number): Promise<Claim> {
    const now = this.now();
    this.sweep(now);
    const e = this.entries.get(key);
    if (e && now < e.expires) return e.done ? "done" : "in_progress";
    this.entries.set(key, { done: false, expires: now + leaseMs });
    return "claimed";
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { done: true, expires: this.now() + ttlMs });
  }

  async release(key: string): Promise<void> {
    const e = this.entries.get(key);
    if (e && !e.done) this.entries.delete(key);
  }

  /** The number of keys held, expired or not. */
  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    if (++this.ops % 1024 !== 0) return;
    for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
  }
}

/** Options of Deduper. */
export interface DedupeOptions {
  /** How long processed ids are kept (DEFAULT_TTL_MS; at least MIN_TTL_MS). */
  ttlMs?: number;
  /** How long a claim holds while the handler runs (DEFAULT_LEASE_MS). */
  leaseMs?: number;
  /** Put before webhook-id to make the key ("ferry:"). */
  prefix?: string;
}

/**
 * Runs a handler at most once per webhook-id. When the handler throws, the
 * claim is released so Ferry's retry runs it again; when it succeeds, the
 * id is kept for the TTL.
 */
export class Deduper {
  readonly ttlMs: number;
  readonly leaseMs: number;
  readonly prefix: string;

  constructor(
    readonly store: Store,
    opts: DedupeOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.prefix = opts.prefix ?? "ferry:";
    if (this.ttlMs < MIN_TTL_MS) throw new RangeError(`dedupe TTL ${this.ttlMs} ms is below the minimum ${MIN_TTL_MS} ms`);
    if (this.leaseMs <= 0 || this.leaseMs > this.ttlMs) throw new RangeError("dedupe lease must be positive and below the TTL");
  }

  /**
   * Runs fn unless webhookId was processed or is being processed. Rethrows
   * fn's error after releasing the claim; throws StoreError when the store
   * cannot be asked.
   */
  async run(webhookId: string, fn: () => unknown): Promise<Outcome> {
    const key = this.prefix + webhookId;
    let c: Claim;
    try {
      c = await this.store.claim(key, this.leaseMs);
    } catch (e) {
      throw new StoreError(`claim ${key}: ${(e as Error).message}`, { cause: e });
    }
    if (c === "done") return "duplicate";
    if (c === "in_progress") return "in_progress";
    try {
      await fn();
    } catch (e) {
      await this.store.release(key);
      throw e;
    }
    try {
      await this.store.complete(key, this.ttlMs);
    } catch {
      return "not_recorded";
    }
    return "processed";
  }
}
