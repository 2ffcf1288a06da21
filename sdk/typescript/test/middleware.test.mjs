// Plain Node http and Express: retry after a failure, duplicates, rejections.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { test } from "node:test";

import express from "express";

import { createProcessor, Deduper, expressMiddleware, InvalidSecretError, MemoryStore, nodeHandler } from "../dist/esm/index.js";
import { SECRET, signed } from "./helpers.mjs";

const quiet = () => {};

function failingOnce(seen) {
  return (e) => {
    seen.push(e);
    if (seen.length === 1) throw new Error("database down");
    assert.deepEqual(e.data, { n: 7 });
    assert.equal(e.type, "order.created");
  };
}

async function scenario(url) {
  const post = async (headers, body) => {
    const r = await fetch(url, { method: "POST", headers, body });
    return [r.status, await r.json()];
  };
  const { headers, body } = signed({ n: 7 }, { created: Date.now() / 1000 - 50 * 3600 }); // a late retry
  assert.deepEqual(await post(headers, body), [500, { status: "handler_failed" }]);
  assert.deepEqual(await post(headers, body), [200, { status: "processed" }]);
  assert.deepEqual(await post(headers, body), [200, { status: "duplicate" }]);
  assert.deepEqual(await post({ ...headers, "webhook-signature": "v1,AAAA" }, body), [401, { status: "invalid_signature" }]);
  const { "webhook-id": _, ...missing } = headers;
  assert.deepEqual(await post(missing, body), [401, { status: "missing_header" }]);
  const old = signed({}, { created: Date.now() / 1000 - 8 * 24 * 3600 });
  assert.deepEqual(await post(old.headers, old.body), [401, { status: "timestamp_out_of_window" }]);
}

async function listen(server) {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${server.address().port}/hook`;
}

test("plain Node http handler", async () => {
  const seen = [];
  const server = createServer(
    nodeHandler({ secret: SECRET, handler: failingOnce(seen), deduper: new Deduper(new MemoryStore()), onError: quiet }),
  );
  try {
    await scenario(await listen(server));
    assert.equal(seen.length, 2); // the failed attempt and the retry; the duplicate never reached it
  } finally {
    server.close();
  }
});

test("Express middleware", async () => {
  const seen = [];
  const app = express();
  app.post(
    "/hook",
    expressMiddleware({ secret: SECRET, handler: failingOnce(seen), deduper: new Deduper(new MemoryStore()), onError: quiet }),
  );
  const server = createServer(app);
  try {
    await scenario(await listen(server));
    assert.equal(seen.length, 2);
  } finally {
    server.close();
  }
});

test("Express middleware behind express.raw()", async () => {
  const seen = [];
  const app = express();
  app.post("/hook", express.raw({ type: "*/*" }), expressMiddleware({ secret: SECRET, handler: (e) => seen.push(e), onError: quiet }));
  const server = createServer(app);
  try {
    const { headers, body } = signed({ n: 1 });
    const r = await fetch(await listen(server), { method: "POST", headers, body });
    assert.equal(r.status, 200);
    assert.equal(seen.length, 1);
  } finally {
    server.close();
  }
});

test("a second delivery while the first is processed answers 409", async () => {
  let release;
  const gate = new Promise((r) => (release = r));
  let entered;
  const inside = new Promise((r) => (entered = r));
  const process = createProcessor({
    secret: SECRET,
    deduper: new Deduper(new MemoryStore()),
    handler: async () => {
      entered();
      await gate;
    },
  });
  const { headers, body } = signed({});
  const first = process(headers, body);
  await inside;
  assert.deepEqual(await process(headers, body), { status: 409, body: { status: "in_progress" } });
  release();
  assert.deepEqual(await first, { status: 200, body: { status: "processed" } });
});

test("raw format hands over the original body", async () => {
  const got = [];
  const process = createProcessor({ secret: SECRET, rawHandler: (m, b) => got.push([m.id, Buffer.from(b).toString()]) });
  const { headers, body } = signed({ x: 1 });
  assert.equal((await process(headers, body)).status, 200);
  assert.deepEqual(got, [[headers["webhook-id"], body]]);
});

test("a malformed secret fails at start-up", () => {
  assert.throws(() => createProcessor({ secret: "whsec_short", handler: () => {} }), InvalidSecretError);
});
