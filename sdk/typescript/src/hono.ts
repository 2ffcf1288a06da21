/**
 * Hono middleware: `app.post("/webhooks", honoMiddleware({secret, handler}))`.
 * It verifies with WebCrypto, so it runs wherever Hono does (Node 20+,
 * Bun, Deno, Cloudflare Workers), reads the raw body from `c.req.raw`,
 * and answers itself as the other adapters do: mount it as the route's
 * last handler.
 */
import type { MiddlewareHandler } from "hono";

import { type WebhookOptions } from "./process.js";
import { fetchHandler } from "./web.js";

export function honoMiddleware<T = unknown>(opts: WebhookOptions<T>): MiddlewareHandler {
  const handle = fetchHandler(opts);
  return (c) => handle(c.req.raw);
}
