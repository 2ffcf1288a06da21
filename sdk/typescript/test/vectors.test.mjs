// Every shared test vector, with the Node entry point and the WebCrypto one.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as node from "../dist/esm/index.js";
import * as web from "../dist/esm/web.js";
import { vectors } from "./helpers.mjs";

const CODES = {
  missing_header: "MissingHeaderError",
  invalid_signature: "InvalidSignatureError",
  invalid_secret: "InvalidSecretError",
  timestamp_out_of_window: "TimestampOutOfWindowError",
  invalid_envelope: "InvalidEnvelopeError",
};

test("default window matches the vectors", () => {
  assert.equal(node.DEFAULT_TOLERANCE_MS, vectors.tolerance_seconds * 1000);
  assert.equal(node.DEFAULT_FUTURE_TOLERANCE_MS, vectors.future_tolerance_seconds * 1000);
  assert.deepEqual(Object.keys(CODES).sort(), [...vectors.errors].sort());
});

for (const [name, lib] of [
  ["node", node],
  ["web", web],
]) {
  for (const v of vectors.vectors) {
    test(`${name}: ${v.name}`, async () => {
      const body = new Uint8Array(Buffer.from(v.body_base64, "base64"));
      const opts = { now: v.now * 1000 };
      const run = (fn, b = body, h = v.headers) => Promise.resolve().then(() => fn(v.secret, h, b, opts));
      if (v.expect === "valid" && v.format === "raw") {
        const m = await run(lib.verifySignature);
        assert.equal(m.id, v.headers["webhook-id"]);
        await assert.rejects(run(lib.verify), (e) => e instanceof lib.InvalidEnvelopeError);
      } else if (v.expect === "valid") {
        const e = await run(lib.verify);
        assert.deepEqual(e, v.envelope);
        // A string body and fetch-style Headers verify the same.
        assert.deepEqual(await run(lib.verify, v.body, new Headers(v.headers)), v.envelope);
      } else {
        const cls = lib[CODES[v.expect]];
        await assert.rejects(run(lib.verify), (e) => {
          assert.ok(e instanceof cls, `${e} is not a ${CODES[v.expect]}`);
          assert.ok(e instanceof lib.WebhookVerificationError);
          assert.equal(e.code, v.expect);
          return true;
        });
      }
    });
  }
}

// The Webhook class (both entry points) against the same vectors: the
// constructor rejects malformed secrets, verify does the rest.
for (const [name, lib] of [
  ["node", node],
  ["web", web],
]) {
  for (const v of vectors.vectors) {
    test(`${name} Webhook: ${v.name}`, async () => {
      const body = new Uint8Array(Buffer.from(v.body_base64, "base64"));
      const opts = { now: () => v.now * 1000 };
      if (v.expect === "invalid_secret") {
        assert.throws(() => new lib.Webhook(v.secret, opts), lib.InvalidSecretError);
        return;
      }
      const wh = new lib.Webhook(v.secret, opts);
      const verify = () => Promise.resolve().then(() => wh.verify(body, v.headers));
      if (v.expect === "valid" && v.format === "raw") {
        const m = await wh.verifySignature(body, v.headers);
        assert.equal(m.id, v.headers["webhook-id"]);
        await assert.rejects(verify(), lib.InvalidEnvelopeError);
      } else if (v.expect === "valid") {
        assert.deepEqual(await verify(), v.envelope);
        assert.deepEqual(await wh.verify(v.body, new Headers(v.headers)), v.envelope);
      } else {
        await assert.rejects(verify(), (e) => {
          assert.ok(e instanceof lib[CODES[v.expect]], `${e} is not a ${CODES[v.expect]}`);
          assert.equal(e.code, v.expect);
          return true;
        });
      }
    });
  }
}

test("Webhook keeps its own copy of the options", () => {
  const v = vectors.vectors.find((x) => x.expect === "valid" && x.format === "envelope");
  const opts = { now: v.now * 1000 };
  const wh = new node.Webhook(v.secret, opts);
  opts.now = 0; // a later change by the caller must not move the clock
  assert.equal(wh.verify(Buffer.from(v.body_base64, "base64"), v.headers).id, v.envelope.id);
});
