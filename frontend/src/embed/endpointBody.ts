// endpointBody.ts shapes the endpoint form's body for the portal routes:
// without manage_routing the filter and transformation are left out (not
// sent as "", which would clear what the tenant set), and a portal
// endpoint is always pushed over HTTP.
import type { EndpointInput } from '../types'

/** portalEndpointBody drops what the session may not set. */
export function portalEndpointBody(body: EndpointInput, routing: boolean): EndpointInput {
  const { filter, transformation, kind: _kind, ...rest } = body
  void _kind
  return routing ? { ...rest, filter, transformation } : rest
}
