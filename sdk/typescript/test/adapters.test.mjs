// The Web Request/Response handler (Next.js route handlers), Fastify and
// Hono, each run for real: a failed first attempt, the retry, a replay,
// and rejections.
import assert from "node:assert/strict";
import { test } from "node:test";

import Fastify from "fastify";
import { Hono } from "hono";

import * as node from "@ferry-dev/webhooks";
import { fastifyWebhooks } from "@ferry-dev/webhooks/fastify";
import { honoMiddleware } from "@ferry-dev/webhooks/hono";
import * as web from "@ferry-dev/webhooks/web";
import { SECRET, signed } from "./helpers.mjs";

const quiet = () => {};

function failingOnce(seen) {
  return (e) => {
    seen.push(e);
    if (seen.length === 1) throw new Error("database down");
    assert.deepEqual(e.data, { n: 7 });
  };
}

/** post(headers, body) → [status, json] against the adapter under test. */
async function scenario(post) {
  const { headers, body } = signed({ n: 7 }, { created: Date.now() / 1000 - 50 * 3600 });
  assert.deepEqual(await post(headers, body), [500, { status: "handler_failed" }]);
  assert.deepEqual(await post(headers, body), [200, { status: "processed" }]);
  assert.deepEqual(await post(headers, body), [200, { status: "duplicate" }]);
  assert.deepEqual(await post({ ...headers, "webhook-signature": "v1,AAAA" }, body), [401, { status: "invalid_signature" }]);
  const { "webhook-id": _, ...missing } = headers;
  assert.deepEqual(await post(missing, body), [401, { status: "missing_header" }]);
  const notEnvelope = signed({});
  assert.deepEqual(
    await post({ ...notEnvelope.headers, "webhook-id": "x" }, notEnvelope.body),
    [401, { status: "invalid_signature" }],
  );
}

const opts = (seen) => ({ secret: SECRET, handler: failingOnce(seen), deduper: new node.Deduper(new node.MemoryStore()), onError: quiet });

for (const [name, lib] of [
  ["main entry (node:crypto)", node],
  ["web entry (WebCrypto)", web],
]) {
  test(`fetchHandler, ${name}, as a Next.js route handler with Node's Request`, async () => {
    const seen = [];
    const POST = lib.fetchHandler(opts(seen));
    await scenario(async (headers, body) => {
      const res = await POST(new Request("http://localhost/api/webhooks", { method: "POST", headers, body }));
      assert.equal(res.headers.get("content-type"), "application/json");
      return [res.status, await res.json()];
    });
    assert.equal(seen.length, 2);
    const get = await POST(new Request("http://localhost/api/webhooks"));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    const small = lib.fetchHandler({ secret: SECRET, handler: () => {}, maxBodyBytes: 10, onError: quiet });
    const big = signed({ pad: "x".repeat(100) });
    assert.equal((await small(new Request("http://localhost/", { method: "POST", headers: big.headers, body: big.body }))).status, 413);
  });
}

test("Fastify plugin over HTTP; the app's other routes keep their JSON parser", async () => {
  const seen = [];
  const app = Fastify();
  app.post("/json", async (req) => ({ echoed: req.body }));
  app.register(fastifyWebhooks, { path: "/webhooks", ...opts(seen) });
  const base = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    await scenario(async (headers, body) => {
      const res = await fetch(`${base}/webhooks`, { method: "POST", headers, body });
      return [res.status, await res.json()];
    });
    assert.equal(seen.length, 2);
    const json = await fetch(`${base}/json`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    assert.deepEqual(await json.json(), { echoed: { a: 1 } });
    // A body Fastify would parse as text still arrives as the signed bytes.
    const text = signed({ n: 7 });
    const res = await fetch(`${base}/webhooks`, {
      method: "POST",
      headers: { ...text.headers, "content-type": "text/plain" },
      body: text.body,
    });
    assert.equal(res.status, 200);
  } finally {
    await app.close();
  }
});

test("Hono middleware through app.request (the app's fetch)", async () => {
  const seen = [];
  const app = new Hono();
  app.post("/webhooks", honoMiddleware(opts(seen)));
  await scenario(async (headers, body) => {
    const res = await app.request("/webhooks", { method: "POST", headers, body });
    return [res.status, await res.json()];
  });
  assert.equal(seen.length, 2);
});
