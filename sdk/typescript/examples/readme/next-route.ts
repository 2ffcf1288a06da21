// app/api/webhooks/route.ts (Next.js App Router)
import { fetchHandler } from "@ferry-dev/webhooks";

export const POST = fetchHandler({
  secret: process.env.FERRY_WEBHOOK_SECRET!, // whsec_…
  handler: async (event) => {
    console.log(event.id, event.type, event.data); // throw to answer 500: Ferry retries
  },
});
