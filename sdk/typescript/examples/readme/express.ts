import express from "express";
import { Deduper, MemoryStore, expressMiddleware } from "@ferry-dev/webhooks";

const app = express();
app.post(
  "/webhooks", // before any express.json(): the signature covers the raw body
  expressMiddleware({
    secret: process.env.FERRY_WEBHOOK_SECRET!, // whsec_…
    deduper: new Deduper(new MemoryStore()),
    handler: async (event) => console.log(event.id, event.type, event.data),
  }),
);
app.listen(3000);
