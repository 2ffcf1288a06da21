// portalSession: the request Ferry receives and both kinds of answer.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

import { FerryApiError, portalSession } from "../dist/esm/index.js";

test("portalSession posts the options and returns the url", async () => {
  let got;
  const srv = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got = { path: req.url, auth: req.headers.authorization, body: JSON.parse(body) };
      res.setHeader("content-type", "application/json");
      if (req.url.includes("/nobody/")) {
        res.writeHead(404).end(JSON.stringify({ error: { code: "not_found", message: "customer not found" } }));
        return;
      }
      res.writeHead(201).end(JSON.stringify({ session_id: "s1", url: "https://ferry.example/embed/s1#code=abc", expires_at: "2026-11-26T10:00:00Z" }));
    });
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${srv.address().port}/`;
  try {
    const s = await portalSession(base, "fry_live_x", "acme co", {
      capabilities: ["manage_endpoints"],
      ttlSeconds: 1800,
      externalUser: { id: "u_1", email: "u@acme.example" },
    });
    assert.equal(s.url, "https://ferry.example/embed/s1#code=abc");
    assert.equal(s.sessionId, "s1");
    assert.equal(s.expiresAt.toISOString(), "2026-11-26T10:00:00.000Z");
    assert.equal(got.path, "/api/v1/customers/acme%20co/portal-sessions");
    assert.equal(got.auth, "Bearer fry_live_x");
    assert.deepEqual(got.body, { capabilities: ["manage_endpoints"], ttl_seconds: 1800, external_user: { id: "u_1", email: "u@acme.example" } });
    await assert.rejects(portalSession(base, "fry_live_x", "nobody", { externalUser: { id: "u" } }), (e) => {
      assert.ok(e instanceof FerryApiError);
      assert.equal(e.status, 404);
      assert.equal(e.code, "not_found");
      return true;
    });
  } finally {
    srv.close();
  }
});
