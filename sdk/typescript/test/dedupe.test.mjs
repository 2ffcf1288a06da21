// The store contract (memory, PostgreSQL, Redis) and Deduper.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";
import { createClient } from "redis";

import { Deduper, MemoryStore, MIN_TTL_MS, PostgresStore, RedisStore, StoreError } from "../dist/esm/index.js";
import { service } from "./helpers.mjs";

const MIN = 60_000;

async function contract(newStore, wait) {
  await test("claim, in progress, complete, done", async () => {
    const s = await newStore();
    assert.equal(await s.claim("k1", MIN), "claimed");
    assert.equal(await s.claim("k1", MIN), "in_progress");
    assert.equal(await s.claim("k2", MIN), "claimed");
    await s.complete("k1", MIN_TTL_MS);
    assert.equal(await s.claim("k1", MIN), "done");
    await s.release("k1"); // never frees a completed key
    assert.equal(await s.claim("k1", MIN), "done");
  });
  await test("release frees the key for the retry", async () => {
    const s = await newStore();
    assert.equal(await s.claim("r", MIN), "claimed");
    await s.release("r");
    assert.equal(await s.claim("r", MIN), "claimed");
  });
  await test("an expired lease is taken over", async () => {
    const s = await newStore();
    assert.equal(await s.claim("l", 1000), "claimed");
    await wait(1500);
    assert.equal(await s.claim("l", MIN), "claimed");
  });
  await test("one winner among concurrent claims", async () => {
    const s = await newStore();
    const got = await Promise.all(Array.from({ length: 8 }, () => s.claim("c", MIN)));
    assert.equal(got.filter((c) => c === "claimed").length, 1);
  });
}

describe("MemoryStore", async () => {
  let now = 1_000_000;
  await contract(
    async () => new MemoryStore(() => now),
    async (ms) => {
      now += ms;
    },
  );
  test("expires and sweeps keys", async () => {
    let t = 0;
    const s = new MemoryStore(() => t);
    await s.claim("old", MIN);
    await s.complete("old", MIN_TTL_MS);
    t += MIN_TTL_MS - 1000;
    assert.equal(await s.claim("old", MIN), "done");
    t += 2000;
    assert.equal(await s.claim("old", MIN), "claimed");
    for (let i = 0; i < 2048; i++) await s.claim(`k${i}`, 1000);
    t += 3_600_000;
    for (let i = 0; i < 1024; i++) await s.claim(`n${i}`, 1000);
    assert.ok(s.size <= 1100, `${s.size} keys held`);
  });
});

describe("PostgresStore", async () => {
  const url = service("FERRY_TEST_DATABASE_URL");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const schema = "sdk_ts_" + randomUUID().replaceAll("-", "").slice(0, 12);
  await pool.query(`CREATE SCHEMA ${schema}`);
  after(async () => {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  });
  let n = 0;
  await contract(async () => {
    const s = new PostgresStore(pool, `${schema}.dedupe${n++}`);
    await s.createTable();
    return s;
  }, sleep);
  test("purge deletes expired keys only", async () => {
    const s = new PostgresStore(pool, `${schema}.purge`);
    await s.createTable();
    await s.claim("short", 1);
    await s.claim("long", MIN);
    await sleep(20);
    assert.equal(await s.purge(), 1);
    assert.equal(await s.claim("long", MIN), "in_progress");
  });
  test("rejects a bad table name", () => {
    assert.throws(() => new PostgresStore(pool, "x; DROP TABLE y"), RangeError);
  });
});

describe("RedisStore", async () => {
  const client = createClient({ url: service("FERRY_TEST_REDIS_URL") });
  client.on("error", () => {});
  await client.connect();
  const prefix = `sdk-ts-test:${randomUUID()}:`;
  after(async () => {
    for await (const keys of client.scanIterator({ MATCH: prefix + "*" })) {
      if (keys.length) await client.del(keys);
    }
    await client.quit();
  });
  const store = new RedisStore((args) => client.sendCommand(args));
  let n = 0;
  await contract(async () => {
    const p = `${prefix}${n++}:`;
    return {
      claim: (k, l) => store.claim(p + k, l),
      complete: (k, t) => store.complete(p + k, t),
      release: (k) => store.release(p + k),
    };
  }, sleep);
  test("keys carry Redis's own expiry", async () => {
    await store.claim(prefix + "ttl", MIN);
    await store.complete(prefix + "ttl", MIN_TTL_MS);
    const ttl = await client.ttl(prefix + "ttl");
    assert.ok(ttl > MIN_TTL_MS / 1000 - 60 && ttl <= MIN_TTL_MS / 1000, `ttl ${ttl}`);
  });
});

describe("Deduper", () => {
  test("releases on failure, remembers success", async () => {
    const d = new Deduper(new MemoryStore());
    const calls = [];
    await assert.rejects(
      d.run("e1", () => {
        calls.push(1);
        throw new Error("database down");
      }),
      /database down/,
    );
    assert.equal(await d.run("e1", () => calls.push(2)), "processed");
    assert.equal(await d.run("e1", () => calls.push(3)), "duplicate");
    assert.deepEqual(calls, [1, 2]);
  });
  test("rejects a TTL below four days", () => {
    assert.throws(() => new Deduper(new MemoryStore(), { ttlMs: 24 * 3600 * 1000 }), RangeError);
  });
  test("a failing store is a StoreError and the handler does not run", async () => {
    const down = { claim: async () => Promise.reject(new Error("refused")), complete: async () => {}, release: async () => {} };
    let ran = false;
    await assert.rejects(
      new Deduper(down).run("x", () => {
        ran = true;
      }),
      StoreError,
    );
    assert.equal(ran, false);
  });
});
