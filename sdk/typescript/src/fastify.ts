/**
 * A Fastify plugin that receives Ferry webhooks on one route:
 *
 *     app.register(fastifyWebhooks, { path: "/webhooks", secret, handler });
 *
 * Inside the plugin's own scope (Fastify encapsulates plugins) every body
 * is read as a raw Buffer, since the signature covers the exact bytes;
 * the rest of the app keeps its JSON parser.
 */
import type { FastifyPluginAsync } from "fastify";

import { createProcessor } from "./middleware.js";
import { DEFAULT_MAX_BODY_BYTES, type WebhookOptions } from "./process.js";

/** Options of fastifyWebhooks: the adapters' options and the route's path. */
export interface FastifyWebhookOptions<T = unknown> extends WebhookOptions<T> {
  /** The route (default "/webhooks"), below the plugin's prefix. */
  path?: string;
}

export const fastifyWebhooks: FastifyPluginAsync<FastifyWebhookOptions> = async (app, opts) => {
  const { path = "/webhooks", ...options } = opts;
  const process = createProcessor(options);
  const bodyLimit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_req, body, done) => done(null, body));
  app.post(path, { bodyLimit }, async (req, reply) => {
    // A request without a body (no Content-Type) skips the parser.
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const r = await process(req.headers, body);
    return reply.code(r.status).type("application/json").send(r.body);
  });
};
