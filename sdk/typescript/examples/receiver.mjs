// A plain Node http webhook receiver built on @ferry-dev/webhooks (used by
// Ferry's end-to-end test). Build first: npm ci && npm run build.
//
//   FERRY_WEBHOOK_SECRET=whsec_... node examples/receiver.mjs
//
// Listens on 127.0.0.1:$RECEIVER_PORT (0: any free port), prints
// "listening http://..." and then "processed <id> <type>" per processed
// event. With RECEIVER_FAIL_FIRST=1 the first event's handler fails once.
import { createServer } from "node:http";

import { Deduper, MemoryStore, nodeHandler } from "@ferry-dev/webhooks";

let failed = false;
const server = createServer(
  nodeHandler({
    secret: process.env.FERRY_WEBHOOK_SECRET ?? "",
    deduper: new Deduper(new MemoryStore()),
    handler: async (event) => {
      if (process.env.RECEIVER_FAIL_FIRST === "1" && !failed) {
        failed = true;
        throw new Error("simulated failure on the first delivery");
      }
      console.log(`processed ${event.id} ${event.type}`);
    },
    onError: (err, id) => console.error(`webhook ${id}: ${err}`),
  }),
);
server.listen(Number(process.env.RECEIVER_PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
