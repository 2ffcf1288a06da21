// Shared test helpers: the vectors, service URLs, and signed requests.
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

export const vectors = JSON.parse(readFileSync(new URL("../../testvectors.json", import.meta.url), "utf8"));

export const SECRET = "whsec_" + Buffer.alloc(32, 5).toString("base64");

/** The service URL in env, or fail (never skip) saying how to start it. */
export function service(env) {
  const v = process.env[env];
  if (!v) {
    assert.fail(
      `${env} is not set: this test needs the service. From the repository root run \`make sdk-test\`, ` +
        "or start PostgreSQL with `make services` and Redis with `bash scripts/sdk.sh redis`, then export the URLs " +
        "(scripts/env.sh, `bash scripts/sdk.sh env`).",
    );
  }
  return v;
}

/** Headers and body of a delivery as Ferry sends it. */
export function signed(data = {}, { created = Date.now() / 1000, id = randomUUID(), secret = SECRET } = {}) {
  const stamp = new Date(Math.floor(created) * 1000).toISOString();
  const body = JSON.stringify({ id, type: "order.created", created_at: stamp, data });
  const ts = String(Math.floor(created));
  const key = Buffer.from(secret.slice(6), "base64");
  const sig = createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64");
  return {
    headers: { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": "v1," + sig, "content-type": "application/json" },
    body,
  };
}
