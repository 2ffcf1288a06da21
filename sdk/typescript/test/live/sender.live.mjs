// The sender client against a running Ferry (FERRY_URL, FERRY_API_KEY,
// FERRY_RECEIVER_URL); tests/sdk_senders_test.go runs it against an
// in-process Ferry with a low API rate limit.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";

import { Ferry, FerryError } from "../../dist/esm/client/index.js";

const { FERRY_URL, FERRY_API_KEY, FERRY_RECEIVER_URL } = process.env;

test("the sender client against a live Ferry", async () => {
  assert.ok(FERRY_URL && FERRY_API_KEY && FERRY_RECEIVER_URL, "FERRY_URL, FERRY_API_KEY and FERRY_RECEIVER_URL are required");
  let limited = 0;
  const loseFirst = new Set();
  // Counts 429s; for a marked key, lets the first POST /events reach
  // Ferry but loses its answer, as a network would.
  const fetch = async (req) => {
    const res = await globalThis.fetch(req);
    if (res.status === 429) limited++;
    const key = req.headers.get("Idempotency-Key");
    if (req.method === "POST" && new URL(req.url).pathname.endsWith("/events") && loseFirst.delete(key)) {
      await res.arrayBuffer();
      throw new TypeError("fetch failed (simulated after Ferry answered)");
    }
    return res;
  };
  const ferry = new Ferry(FERRY_API_KEY, { baseUrl: FERRY_URL, fetch });
  const run = randomBytes(6).toString("hex");

  const ep = await ferry.endpoints.create({ url: `${FERRY_RECEIVER_URL}/node`, description: "node sender SDK" });
  assert.match(ep.secret, /^whsec_/);
  assert.equal((await ferry.endpoints.get(ep.id)).url, `${FERRY_RECEIVER_URL}/node`);

  // A customer with an endpoint of its own: the customer shows its endpoints' health.
  await ferry.customers.upsert(`node-${run}`, { name: "Node Corp" });
  await ferry.endpoints.create({ url: `${FERRY_RECEIVER_URL}/node-customer`, customer: `node-${run}` });
  assert.deepEqual((await ferry.customers.get(`node-${run}`)).endpoints, { total: 1, failing: 0, disabled: 0 });
  const listed = (await ferry.customers.list()).data.find((c) => c.uid === `node-${run}`);
  assert.deepEqual(listed?.endpoints, { total: 1, failing: 0, disabled: 0 });
  const updated = await ferry.customers.update(`node-${run}`, { name: "Node Corp Ltd" });
  assert.deepEqual(updated.endpoints, { total: 1, failing: 0, disabled: 0 });

  const type = `node.${run}.paid`;
  loseFirst.add(`node-${run}`);
  const ev = await ferry.events.create({ type, data: { amount: 4200 } }, { idempotencyKey: `node-${run}` });
  assert.equal(loseFirst.size, 0, "the answer was not lost: the retry path was not taken");
  const sent = await ferry.events.list({ type });
  assert.deepEqual(sent.data.map((e) => e.id), [ev.id], "a retried create made more than one event");

  let attempts = [];
  for (const deadline = Date.now() + 60_000; attempts.length === 0; ) {
    attempts = await ferry.events.attempts(ev.id);
    assert.ok(Date.now() < deadline, "no attempt logged within 60 s");
    if (attempts.length === 0) await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(attempts[0].endpoint_id, ep.id);

  const many = `node.${run}.many`;
  const want = new Set();
  for (let i = 0; i < 5; i++) want.add((await ferry.events.create({ type: many, data: { i } })).id);
  const seen = new Set();
  for await (const e of ferry.events.all({ type: many, limit: 2 })) seen.add(e.id);
  assert.deepEqual([...seen].sort(), [...want].sort());

  const err = await ferry.events.create({ type: "", data: {} }).catch((e) => e);
  assert.ok(err instanceof FerryError, String(err));
  assert.equal(err.status, 422);
  assert.equal(err.code, "invalid");
  assert.equal(err.field, "type");
  assert.ok(err.requestId);

  const burst = await Promise.allSettled(Array.from({ length: 40 }, () => ferry.endpoints.list()));
  assert.deepEqual(burst.filter((r) => r.status === "rejected").map((r) => String(r.reason)), []);
  assert.ok(limited > 0, "the burst saw no 429: the rate limit was not reached, nothing was retried");
});
