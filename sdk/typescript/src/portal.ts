/**
 * Mint customer portal sessions from the tenant's backend (Ferry's
 * docs/customer-portal.md): POST /api/v1/customers/{uid}/portal-sessions
 * with the tenant's API key. Open the returned url once, within two
 * minutes, usually in an iframe mounted by Ferry's /embed.js.
 */

/** What a portal session may do and for whom. */
export interface PortalSessionOptions {
  /** Beyond "view": manage_endpoints, view_secret, rotate_secret, replay, send_test, manage_routing. */
  capabilities?: string[];
  /** Only these of the customer's endpoints are shown. */
  endpointIds?: string[];
  readOnly?: boolean;
  /** Seconds the session lives: 60 – 86400 (default 3600). */
  ttlSeconds?: number;
  /** The customer's user; every action is audited with it. */
  externalUser: { id: string; email?: string };
}

/** A minted session. */
export interface PortalSession {
  sessionId: string;
  url: string;
  expiresAt: Date;
}

/** An error answer of Ferry's API. */
export class FerryApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(`ferry: ${status} ${code}${field ? ` (${field})` : ""}: ${message}`);
    this.name = "FerryApiError";
  }
}

/** Mints portal sessions; baseUrl is Ferry's public URL. */
export async function portalSession(
  baseUrl: string,
  apiKey: string,
  customerUid: string,
  options: PortalSessionOptions,
  fetchImpl: typeof fetch = fetch,
): Promise<PortalSession> {
  const url = `${baseUrl.replace(/\/+$/, "")}/api/v1/customers/${encodeURIComponent(customerUid)}/portal-sessions`;
  const res = await fetchImpl(url, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      capabilities: options.capabilities,
      endpoint_ids: options.endpointIds,
      read_only: options.readOnly,
      ttl_seconds: options.ttlSeconds,
      external_user: options.externalUser,
    }),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: reported below
  }
  if (res.status !== 201) {
    const e = (body.error ?? {}) as { code?: string; message?: string; field?: string };
    throw new FerryApiError(res.status, e.code ?? "unknown", e.message ?? text.slice(0, 200), e.field);
  }
  return {
    sessionId: String(body.session_id),
    url: String(body.url),
    expiresAt: new Date(String(body.expires_at)),
  };
}
