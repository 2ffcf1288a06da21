// types.ts names the JSON shapes of Ferry's API for the portal. Every one
// is an alias of a schema in api.gen.ts, which openapi-typescript generates
// from openapi.json, the document the Go server reflects from the types its
// handlers decode and encode (`bash scripts/frontend.sh api` regenerates
// both; never edit them by hand). When the API changes, tsc points at the
// portal code that no longer fits.
import type { Schemas } from './apiSchemas'

export type Tenant = Schemas['Tenant']
export type Me = Schemas['Me']
export type LoginInput = Schemas['LoginInput']
export type SignupInput = Schemas['SignupInput']
export type SignupAccepted = Schemas['SignupAccepted']
export type Role = Schemas['Member']['role']
export type NotificationPrefs = Schemas['NotificationPrefs']

export type ApiKey = Schemas['APIKey']
export type ApiKeyCreated = Schemas['APIKeyCreated']
export type ApiKeyInput = Schemas['APIKeyInput']

export type Endpoint = Schemas['Endpoint']
export type EndpointCreated = Schemas['EndpointCreated']
export type EndpointInput = Schemas['EndpointInput']
export type EndpointPatch = Schemas['EndpointPatch']
export type SecretInfo = Schemas['SecretInfo']
export type EndpointKind = Schemas['Endpoint']['kind']
export type QueueStats = Schemas['QueueStats']
export type ConsumerToken = Schemas['ConsumerToken']
export type ConsumerTokenCreated = Schemas['ConsumerTokenCreated']
export type ConsumerTokenInput = Schemas['ConsumerTokenInput']
export type RoutingTestInput = Schemas['RoutingTestInput']
export type RoutingTestResult = Schemas['RoutingTestResult']

export type DeliveryStatus = Schemas['Delivery']['status']
export type Delivery = Schemas['Delivery']
export type FerryEvent = Schemas['Event']
export type EventInput = Schemas['EventInput']
export type EventAccepted = Schemas['EventAccepted']
export type EventDetail = Schemas['EventDetail']
export type StaffEventDetail = Schemas['StaffEventDetail']
export type StaffEventLookup = Schemas['StaffEventLookup']

export type Outcome = Schemas['Attempt']['outcome']
export type Attempt = Schemas['Attempt']

export type ReplayResult = Schemas['ReplayResult']
export type ReplayEventInput = Schemas['ReplayEventInput']
export type ReplayJob = Schemas['ReplayJob']
export type ReplayState = ReplayJob['state']
export type BulkReplayInput = Schemas['BulkReplayInput']
export type StaffReplayInput = Schemas['StaffReplayInput']

export type Member = Schemas['Member']
export type MemberInput = Schemas['MemberInput']
export type MemberPatch = Schemas['MemberPatch']

export type TenantSummary = Schemas['TenantSummary']
export type StaffTenant = Schemas['StaffTenant']
export type AuditEntry = Schemas['AuditEntry']

export type Plan = Schemas['Plan']
export type Entitlements = Schemas['Entitlements']
export type BillingOverview = Schemas['BillingOverview']
export type PlanInput = Schemas['PlanInput']
export type Invoice = Schemas['Invoice']
export type InvoiceLine = Schemas['InvoiceLine']
export type StaffBilling = Schemas['StaffBilling']

export type Stats = Schemas['Stats']
export type TenantStats = Schemas['TenantStats']
export type EndpointStatsLine = Schemas['EndpointStatsLine']

export type ApiError = Schemas['Error']
export type ReplayPreview = Schemas['ReplayPreview']
export type StaffTenantHealth = Schemas['StaffTenantHealth']
export type EndpointRef = Schemas['EndpointRef']

export type Source = Schemas['Source']
export type SourceInput = Schemas['SourceInput']
export type SourcePatch = Schemas['SourcePatch']
export type SourceScheme = Schemas['Source']['verification']['type']
export type SourceRequest = Schemas['SourceRequest']
export type SourceRequestStatus = SourceRequest['status']
export type SourceRequestDetail = Schemas['SourceRequestDetail']
export type SourceReplayResult = Schemas['SourceReplayResult']
