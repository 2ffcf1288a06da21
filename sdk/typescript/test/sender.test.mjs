// The sender client against a fake Ferry: retries, idempotency keys,
// pagination and errors.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

import { Ferry, FerryError, retryAfterMs } from "../dist/esm/client/index.js";

const accepted = { id: "0190f1d2-8d3e-7c6a-9b1e-2f4a5c6d7e8f", type: "invoice.paid", created_at: "2026-01-02T03:04:05.000Z" };

/** A fake Ferry answering with each handler in turn (the last repeats); a clock whose sleeps are recorded, not slept. */
async function setup(t, handlers, retry = {}) {
  const got = [];
  const srv = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ method: req.method, url: req.url, headers: req.headers, body });
      handlers[Math.min(got.length - 1, handlers.length - 1)](req, res);
    });
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  t.after(() => srv.close());
  let now = 0;
  const slept = [];
  const clock = { now: () => now, random: () => 0.5, sleep: async (ms) => { slept.push(ms); now += ms; } };
  const ferry = new Ferry("fry_test", { baseUrl: `http://127.0.0.1:${srv.address().port}`, retry, clock });
  return { ferry, got, slept };
}

const answer = (status, body, headers = {}) => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(typeof body === "string" ? body : JSON.stringify(body));
};
const hangUp = (req) => req.socket.destroy();
const limited = answer(429, { error: { code: "rate_limited", message: "slow down" } }, { "retry-after": "2", "x-request-id": "req-1" });

test("a create is retried after Retry-After and a network error, with one Idempotency-Key", async (t) => {
  const { ferry, got, slept } = await setup(t, [limited, hangUp, answer(202, accepted)]);
  const ev = await ferry.events.create({ type: "invoice.paid", data: { n: 1 } });
  assert.equal(ev.id, accepted.id);
  assert.equal(got.length, 3);
  const key = got[0].headers["idempotency-key"];
  assert.match(key, /^fry-sdk-/);
  for (const r of got) {
    assert.equal(r.headers["idempotency-key"], key);
    assert.equal(r.headers.authorization, "Bearer fry_test");
    assert.deepEqual(JSON.parse(r.body), { type: "invoice.paid", data: { n: 1 } });
  }
  // Retry-After, then half (random 0.5) of attempt 2's 500 ms ceiling.
  assert.deepEqual(slept, [2000, 250]);

  const own = await setup(t, [answer(202, accepted)]);
  await own.ferry.events.create({ type: "a", data: 1 }, { idempotencyKey: "order-42" });
  assert.equal(own.got[0].headers["idempotency-key"], "order-42");
});

test("retries are bounded by attempts and total time", async (t) => {
  for (const [retry, handler, want] of [
    [{ maxAttempts: 3 }, limited, 3],
    [{ maxElapsedMs: 1500 }, limited, 1],
    [{}, answer(429, { error: { code: "quota_exceeded", message: "month" } }, { "retry-after": "3600" }), 1],
  ]) {
    const { ferry, got } = await setup(t, [handler], retry);
    await assert.rejects(ferry.endpoints.list(), (err) => err instanceof FerryError && err.status === 429 && err.retryAfterMs > 0);
    assert.equal(got.length, want, JSON.stringify(retry));
  }
});

test("503 and network errors are retried only when the request is repeatable", async (t) => {
  const unavailable = answer(503, { error: { code: "unavailable", message: "database unreachable" } });
  const preview = answer(200, { matched: 3, until: "2026-01-02T03:04:05Z" });
  let s = await setup(t, [unavailable, preview]);
  const { response } = await s.ferry.api.POST("/replays/preview", { body: {} });
  assert.equal(response.status, 503);
  assert.equal(s.got.length, 1);

  s = await setup(t, [hangUp, preview]);
  await assert.rejects(s.ferry.api.POST("/replays/preview", { body: {} }));
  assert.equal(s.got.length, 1);

  s = await setup(t, [unavailable, hangUp, answer(200, { data: [], next_cursor: null })]);
  assert.deepEqual(await s.ferry.events.list(), { data: [], nextCursor: null });
  assert.equal(s.got.length, 3);
});

test("errors carry Ferry's code, message, field and request id", async (t) => {
  let s = await setup(t, [answer(422, { error: { code: "invalid", message: "type is required", field: "type" } }, { "x-request-id": "req-abc" })]);
  const err = await s.ferry.events.create({ type: "", data: 1 }).catch((e) => e);
  assert.ok(err instanceof FerryError);
  assert.deepEqual({ status: err.status, code: err.code, message: err.message, field: err.field, requestId: err.requestId },
    { status: 422, code: "invalid", message: "ferry: 422 invalid (field type): type is required [request req-abc]", field: "type", requestId: "req-abc" });
  assert.equal(s.got.length, 1);

  s = await setup(t, [(_req, res) => res.writeHead(502, { "content-type": "text/html" }).end("<html>bad gateway</html>")]);
  const bad = await s.ferry.events.get(accepted.id).catch((e) => e);
  assert.ok(bad instanceof FerryError && bad.status === 502 && bad.code === "http_502", String(bad));
});

test("all() follows next_cursor", async (t) => {
  const ev = (id) => ({ ...accepted, id, data: {}, deliveries: [] });
  const { ferry, got } = await setup(t, [answer(200, { data: [ev("1"), ev("2")], next_cursor: "c1" }), answer(200, { data: [ev("3")], next_cursor: null })]);
  const ids = [];
  for await (const e of ferry.events.all({ limit: 2 })) ids.push(e.id);
  assert.deepEqual(ids, ["1", "2", "3"]);
  assert.equal(new URL(got[0].url, "http://x").searchParams.get("cursor"), null);
  assert.equal(new URL(got[1].url, "http://x").searchParams.get("cursor"), "c1");
  assert.equal(new URL(got[1].url, "http://x").searchParams.get("limit"), "2");
});

test("Retry-After is seconds or an HTTP date", () => {
  const now = Date.parse("2026-01-02T03:04:05Z");
  assert.equal(retryAfterMs("7", now), 7000);
  assert.equal(retryAfterMs(new Date(now + 90_000).toUTCString(), now), 90_000);
  assert.equal(retryAfterMs(new Date(now - 60_000).toUTCString(), now), 0);
  assert.equal(retryAfterMs(null, now), undefined);
  assert.equal(retryAfterMs("soon", now), undefined);
});
