import Fastify from "fastify";
import { fastifyWebhooks } from "@ferry-dev/webhooks/fastify";

const app = Fastify();
app.register(fastifyWebhooks, {
  path: "/webhooks", // the plugin reads this route's bodies raw
  secret: process.env.FERRY_WEBHOOK_SECRET!, // whsec_…
  handler: async (event) => console.log(event.id, event.type, event.data),
});
await app.listen({ port: 3000 });
