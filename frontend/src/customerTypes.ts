// customerTypes.ts names the API schemas of customers, the tenant's
// controls of the customer portal and the event-type catalog, like
// types.ts does for the rest: aliases of api.gen.ts only (generated from
// openapi.json; never written by hand).
import type { Schemas } from './apiSchemas'

/** A customer, with the health of its endpoints, as every customer route answers it. */
export type Customer = Schemas['CustomerView']
export type EndpointHealth = Schemas['EndpointHealth']
export type CustomerInput = Schemas['CustomerInput']

export type PortalSession = Schemas['PortalSession']
export type PortalSessionInput = Schemas['PortalSessionInput']
export type PortalSessionMinted = Schemas['PortalSessionMinted']
export type PortalAuditEntry = Schemas['PortalAuditEntry']
export type PortalSettings = Schemas['PortalSettings']
export type PortalSettingsInput = Schemas['PortalSettingsInput']
export type PortalTheme = Schemas['PortalTheme']
export type Revoked = Schemas['Revoked']

export type EventType = Schemas['EventType']
export type EventTypeInput = Schemas['EventTypeInput']
export type EventTypePatch = Schemas['EventTypePatch']
export type EventTypeVersion = Schemas['EventTypeVersion']
export type EventTypeWarning = Schemas['EventTypeWarning']
export type EventTypeImportResult = Schemas['EventTypeImportResult']
export type ValidationMode = EventType['validation']
