// A webhook receiver that verifies every request with the official
// libraries, unchanged: `standardwebhooks` and `svix` from npm, with their
// default timestamp tolerance (5 minutes). Driven by
// tests/strict_mode_test.go; NODE_PATH points at their install
// (scripts/verifiers.sh).
//
//   POST /_secret/NAME   body: the endpoint's signing secret (whsec_…)
//   POST /hook/NAME      a delivery: verified, recorded; the first request
//                        of each webhook-id answers 503 (so Ferry retries),
//                        later ones 204 when both libraries accept, else 401
//   GET  /_results       what each request got from each library
"use strict";
const http = require("node:http");
const { Webhook: StandardWebhook } = require("standardwebhooks");
const { Webhook: SvixWebhook } = require("svix");

const secrets = new Map();
const seen = new Set();
const results = [];

function check(verify) {
  try {
    verify();
    return "ok";
  } catch (err) {
    return String(err && err.message ? err.message : err);
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const [, kind, name] = req.url.split("/");
    if (req.method === "POST" && kind === "_secret") {
      secrets.set(name, body);
      res.writeHead(204).end();
      return;
    }
    if (req.method === "GET" && kind === "_results") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(results));
      return;
    }
    if (req.method !== "POST" || kind !== "hook" || !secrets.has(name)) {
      res.writeHead(404).end();
      return;
    }
    const secret = secrets.get(name);
    const id = req.headers["webhook-id"];
    const result = {
      name,
      id,
      timestamp: req.headers["webhook-timestamp"],
      standardwebhooks: check(() => new StandardWebhook(secret).verify(body, req.headers)),
      svix: check(() => new SvixWebhook(secret).verify(body, req.headers)),
    };
    results.push(result);
    const first = !seen.has(name + "/" + id);
    seen.add(name + "/" + id);
    if (first) {
      res.writeHead(503).end("first attempt refused on purpose");
    } else if (result.standardwebhooks === "ok" && result.svix === "ok") {
      res.writeHead(204).end();
    } else {
      res.writeHead(401).end(result.standardwebhooks + " / " + result.svix);
    }
  });
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write("listening " + server.address().port + "\n");
});
