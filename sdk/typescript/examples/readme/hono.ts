import { Hono } from "hono";
import { honoMiddleware } from "@ferry-dev/webhooks/hono";

const app = new Hono();
app.post(
  "/webhooks",
  honoMiddleware({
    secret: process.env.FERRY_WEBHOOK_SECRET!, // whsec_…
    handler: async (event) => console.log(event.id, event.type, event.data),
  }),
);
export default app;
