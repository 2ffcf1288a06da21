// types.ts mirrors the JSON shapes of Ferry's API (PRODUCT §3 and §4).

export interface Tenant {
  id: string
  name: string
  plan: string
  created_at: string
}

export interface Me {
  kind: string
  user_id: string
  email: string
  role: 'owner' | 'admin' | 'viewer' | 'staff'
  tenant?: Tenant
}

export interface ApiKey {
  id: string
  name: string
  prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  key?: string
}

export interface Endpoint {
  id: string
  url: string
  description: string
  event_types: string[] | null
  enabled: boolean
  disabled_reason?: string
  timeout_seconds: number
  rate_limit_per_second: number | null
  max_in_flight: number
  headers: Record<string, string> | null
  failing_since: string | null
  created_at: string
  updated_at: string
  secret?: string
}

export interface SecretInfo {
  secret: string
  previous: { secret: string; expires_at: string }[] | null
}

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'dropped' | 'exhausted'

export interface Delivery {
  id: string
  event_id: string
  endpoint_id: string
  status: DeliveryStatus
  attempt_count: number
  first_attempt_at: string | null
  last_attempt_at: string | null
  next_attempt_at: string | null
  created_at: string
  updated_at: string
}

export interface FerryEvent {
  id: string
  type: string
  data: unknown
  idempotency_key?: string | null
  created_at: string
}

export interface EventDetail extends FerryEvent {
  deliveries: Delivery[]
}

export type Outcome = 'success' | 'retry' | 'dropped' | 'exhausted' | string

export interface Attempt {
  id: string
  delivery_id: string
  event_id: string
  endpoint_id: string
  attempt_number: number
  trigger: string
  actor?: string
  started_at: string
  duration_ms: number
  request_headers: Record<string, string[]> | null
  response_status: number | null
  response_headers: Record<string, string[]> | null
  response_body: string
  /** Some response header values were left out (8 KiB are kept). */
  response_headers_truncated?: boolean
  /** response_body is not the whole body (the first 4 KiB are kept). */
  response_body_truncated?: boolean
  error_class?: string
  error_message?: string
  outcome: Outcome
  next_attempt_at: string | null
}

/** A bulk replay job; counters are read leniently since they are optional. */
export interface ReplayJob {
  id: string
  state?: string
  status?: string
  total?: number
  done?: number
  replayed?: number
  processed?: number
  error?: string
  reason?: string
  actor?: string
  created_at?: string
  finished_at?: string | null
}

export interface Member {
  id: string
  email: string
  role: 'owner' | 'admin' | 'viewer'
  created_at: string
  password?: string
  temporary_password?: string
}

export interface TenantSummary extends Tenant {
  members?: number
  owner_email?: string
}

export interface AuditEntry {
  id: string
  staff_id?: string
  actor_email?: string
  tenant_id?: string | null
  action: string
  reason?: string
  detail?: unknown
  created_at: string
}

export interface Plan {
  name: string
  display_name: string
  events_per_month: number
  max_endpoints: number
  retention_days: number
  events_per_second: number
  hard_cap: boolean
  base_fee_minor: number
  overage_unit_events: number
  overage_price_minor: number
  currency: string
  self_serve: boolean
  custom?: boolean
}

export interface BillingOverview {
  tenant_id: string
  plan: Plan
  usage: { period: string; period_start: string; period_end: string; events: number; attempts: number }
  endpoints: number
  overage_events: number
  estimated_overage_minor: number
  quota_exhausted: boolean
  plans: Plan[]
  /** false when no payment provider is configured: paid plans answer 402 */
  payments_configured?: boolean
  /** the payment method the provider accepted, if any */
  payment_method?: { label: string } | null
  /** an invoice is unpaid 14 days after issue: new events get 402 */
  payment_overdue?: boolean
}

export interface InvoiceLine {
  kind: string
  plan: string
  description: string
  quantity: number
  unit_price_minor: number
  amount_minor: number
}

export interface Invoice {
  id: string
  period: string
  currency: string
  total_minor: number
  events: number
  attempts: number
  status: string
  payment_error?: string
  created_at: string
  paid_at?: string | null
  lines: InvoiceLine[] | null
}
