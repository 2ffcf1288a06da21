// app/api/webhooks/route.ts, written as with the Standard Webhooks or Svix libraries
import { Webhook, WebhookVerificationError } from "@ferry-dev/webhooks";

const wh = new Webhook(process.env.FERRY_WEBHOOK_SECRET!);

export async function POST(req: Request): Promise<Response> {
  try {
    const event = wh.verify(new Uint8Array(await req.arrayBuffer()), req.headers);
    console.log(event.id, event.type, event.data);
    return Response.json({ status: "processed" });
  } catch (err) {
    if (err instanceof WebhookVerificationError) return Response.json({ status: err.code }, { status: 401 });
    throw err;
  }
}
