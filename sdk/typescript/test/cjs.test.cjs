// The CommonJS build and the package's exports map, through require.
const assert = require("node:assert/strict");
const { test } = require("node:test");

test("require('@ferry-dev/webhooks') and '/web' resolve to the CJS build", async () => {
  const lib = require("@ferry-dev/webhooks");
  const web = require("@ferry-dev/webhooks/web");
  assert.equal(typeof lib.verify, "function");
  assert.equal(typeof lib.expressMiddleware, "function");
  assert.equal(typeof web.verify, "function");
  assert.ok(require.resolve("@ferry-dev/webhooks").includes("/dist/cjs/"));
  assert.throws(() => lib.verify("", {}, ""), lib.InvalidSecretError);
  assert.throws(() => new lib.Webhook(""), lib.InvalidSecretError);
  assert.equal(typeof lib.fetchHandler, "function");
  assert.equal(typeof require("@ferry-dev/webhooks/fastify").fastifyWebhooks, "function");
  assert.equal(typeof require("@ferry-dev/webhooks/hono").honoMiddleware, "function");
  assert.ok(require.resolve("@ferry-dev/webhooks/hono").includes("/dist/cjs/"));
  await assert.rejects(web.verify("", {}, ""), web.InvalidSecretError);
  const client = require("@ferry-dev/webhooks/client");
  assert.ok(require.resolve("@ferry-dev/webhooks/client").includes("/dist/cjs/"));
  assert.equal(typeof new client.Ferry("fry_test", { baseUrl: "http://127.0.0.1:1" }).events.create, "function");
});
