// A dedupe Store in Redis: SET NX EX per key, expired by Redis itself.
import type { Claim, Store } from "./dedupe.js";

/**
 * Sends one Redis command and returns its reply, for any client:
 * node-redis `(args) => client.sendCommand(args)`, ioredis
 * `([cmd, ...rest]) => client.call(cmd, ...rest)`.
 */
export type RedisCommand = (args: string[]) => Promise<unknown>;

const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0';

function seconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/** Dedupe keys in Redis. */
export class RedisStore implements Store {
  constructor(private readonly command: RedisCommand) {}

  async claim(key: string, leaseMs: number): Promise<Claim> {
    for (let i = 0; i < 3; i++) {
      const set = await this.command(["SET", key, "processing", "NX", "EX", seconds(leaseMs)]);
      if (set !== null && set !== undefined) return "claimed";
      const state = await this.command(["GET", key]);
      if (state === null || state === undefined) continue; // expired or released in between
      return String(state) === "done" ? "done" : "in_progress";
    }
    throw new Error(`claim ${key}: key kept changing`);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    await this.command(["SET", key, "done", "EX", seconds(ttlMs)]);
  }

  async release(key: string): Promise<void> {
    await this.command(["EVAL", RELEASE, "1", key, "processing"]);
  }
}
