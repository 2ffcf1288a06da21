// Web-standard Request/Response handling, shared by the Node and
// WebCrypto entry points (no Node APIs).
import { DEFAULT_MAX_BODY_BYTES, type Processor, type Reply } from "./process.js";

function respond(r: Reply, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(r.body), {
    status: r.status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Wraps process as a (Request) => Promise<Response> handler. */
export function handleRequests(process: Processor, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method !== "POST") {
      return respond({ status: 405, body: { status: "method_not_allowed" } }, { allow: "POST" });
    }
    // Content-Length first, so an oversized body is refused unread; the
    // length read is checked too, as chunked requests have none.
    if (Number(req.headers.get("content-length") ?? 0) > maxBodyBytes) {
      return respond({ status: 413, body: { status: "body_too_large" } });
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await req.arrayBuffer());
    } catch {
      return respond({ status: 400, body: { status: "unreadable_body" } });
    }
    if (body.length > maxBodyBytes) return respond({ status: 413, body: { status: "body_too_large" } });
    return respond(await process(req.headers, body));
  };
}

