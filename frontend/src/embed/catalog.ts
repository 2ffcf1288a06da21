// catalog.ts is the tenant's event-type catalog as the embedded portal
// reads it: GET /api/v1/portal/event-types (not deprecated types) and
// /event-types/{name} (versions, schemas, examples), with the session's
// bearer token, for the type picker and the test event's type.
import { catalogOf, type EventTypeCatalog } from '../TypePicker'
import type { PortalClient } from './client'

/** portalCatalog reads the catalog through the portal client. */
export function portalCatalog(client: PortalClient): EventTypeCatalog {
  return catalogOf((path) => client.get(path))
}

/** TEST_TYPE is the built-in test event every endpoint can be sent. */
export const TEST_TYPE = 'ferry.test'

/** testEventBody is the body of POST /portal/endpoints/{id}/test: none for ferry.test, else the type whose first example is sent. */
export function testEventBody(type: string): { event_type?: string } {
  return !type || type === TEST_TYPE ? {} : { event_type: type }
}
