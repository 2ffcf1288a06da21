// The Web-standard Request/Response handler with Node's crypto.
import { makeProcessor, type WebhookOptions } from "./process.js";
import { handleRequests } from "./requests.js";
import { verifySignature } from "./verify.js";

/**
 * A handler for Web-standard Request/Response, with Node's crypto:
 * Next.js route handlers on the Node runtime
 * (`export const POST = fetchHandler({secret, handler})`), Bun, Deno.
 * Answers as nodeHandler does. For edge runtimes import it from
 * "@ferry-dev/webhooks/web".
 */
export function fetchHandler<T = unknown>(opts: WebhookOptions<T>): (req: Request) => Promise<Response> {
  return handleRequests(makeProcessor(opts, verifySignature), opts.maxBodyBytes);
}
