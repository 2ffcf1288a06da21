import { Ferry, FerryError } from "@ferry-dev/webhooks/client";

const ferry = new Ferry(process.env.FERRY_API_KEY!, { baseUrl: "https://ferry.example.com" });

try {
  const ev = await ferry.events.create({ type: "invoice.paid", data: { amount: 4200 } });
  for await (const e of ferry.events.all({ type: "invoice.paid" })) console.log(e.id, e.id === ev.id);
} catch (err) {
  if (err instanceof FerryError) console.error(err.code, err.field, err.requestId);
  else throw err;
}
