/**
 * Ferry's sender SDK: a tenant's backend sends events and manages
 * endpoints, replays, customers, portal sessions, event types and sources.
 *
 * A small layer over openapi-fetch with types openapi-typescript generates
 * from Ferry's OpenAPI document (./schema.ts; scripts/sendersdk.sh). The
 * layer adds retries (429 after Retry-After; 503 and network errors when
 * repeatable), an Idempotency-Key on every creating POST (random unless
 * given, the same across retries), async iteration over next_cursor, and
 * FerryError for error answers. `ferry.api` is the typed openapi-fetch
 * client for every other operation, behind the same retries.
 */
import createClient, { type Client } from "openapi-fetch";
import { randomUUID } from "node:crypto";
import type { components, operations, paths } from "./schema.js";
import { FerryError } from "./errors.js";
import { retryingFetch, type RetryClock, type RetryOptions } from "./retry.js";

export { FerryError } from "./errors.js";
export { retryingFetch, retryAfterMs, type RetryOptions, type RetryClock } from "./retry.js";
export type { components, operations, paths } from "./schema.js";

type S = components["schemas"];
export type EventInput = S["EventInput"];
export type EventAccepted = S["EventAccepted"];
export type Event = S["EventDetail"];
export type Attempt = S["Attempt"];
export type ReplayEventInput = S["ReplayEventInput"];
export type ReplayResult = S["ReplayResult"];
export type EndpointInput = S["EndpointInput"];
export type EndpointPatch = S["EndpointPatch"];
export type Endpoint = S["Endpoint"];
export type EndpointCreated = S["EndpointCreated"];
export type SecretInfo = S["SecretInfo"];
export type BulkReplayInput = S["BulkReplayInput"];
export type ReplayJob = S["ReplayJob"];
/** A customer, with the health of its endpoints (every customer route answers this). */
export type Customer = S["CustomerView"];
/** @deprecated The same as Customer, which every customer route now answers. */
export type CustomerView = Customer;
export type CustomerInput = S["CustomerInput"];
export type CustomerPatch = S["CustomerPatch"];
export type PortalSessionInput = S["PortalSessionInput"];
export type PortalSession = S["PortalSessionMinted"];
export type EventTypeInput = S["EventTypeInput"];
export type EventTypePatch = S["EventTypePatch"];
export type EventType = S["EventType"];
export type SourceInput = S["SourceInput"];
export type SourcePatch = S["SourcePatch"];
export type Source = S["Source"];

type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
export type EventsListQuery = Query<"events.list">;
export type EndpointsListQuery = Query<"endpoints.list">;
export type ReplaysListQuery = Query<"replays.list">;
export type CustomersListQuery = Query<"customers.list">;
export type EventTypesListQuery = Query<"event_types.list">;
export type SourcesListQuery = Query<"sources.list">;

export interface FerryOptions {
  /** Ferry's public URL, e.g. https://ferry.example.com; the API is under /api/v1. */
  baseUrl: string;
  /** Sends each attempt (default: globalThis.fetch). */
  fetch?: (req: Request) => Promise<Response>;
  retry?: RetryOptions;
  /** For tests: the retry loop's time and randomness. */
  clock?: RetryClock;
}

/** One page of a list, newest first; nextCursor is null on the last. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Options of a creating call. */
export interface CreateOptions {
  /** Sent as Idempotency-Key instead of a random one: your own key makes the call safe to repeat across processes. */
  idempotencyKey?: string;
}

type Result = { data?: unknown; error?: unknown; response: Response };

/** The data of a 2xx answer, or a FerryError. */
async function ok<R extends Result>(call: Promise<R>): Promise<NonNullable<R["data"]>> {
  const { data, error, response } = await call;
  if (!response.ok) throw FerryError.from(response, error);
  return data as NonNullable<R["data"]>;
}

async function done(call: Promise<Result>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw FerryError.from(response, error);
}

function key(opts?: CreateOptions): { "Idempotency-Key": string } {
  return { "Idempotency-Key": opts?.idempotencyKey ?? `fry-sdk-${randomUUID()}` };
}

/** Follows next_cursor from page to page. */
async function* pages<T, Q extends { cursor?: string }>(query: Q, list: (q: Q) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor = query.cursor;
  for (;;) {
    const page = await list({ ...query, cursor });
    yield* page.data;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

const page = <T>(body: { data: T[]; next_cursor?: string | null }): Page<T> => ({ data: body.data, nextCursor: body.next_cursor ?? null });

/** Calls Ferry's API as one tenant. */
export class Ferry {
  /** The generated client for every operation, behind the same retries and credentials. */
  readonly api: Client<paths>;
  readonly events: Events;
  readonly endpoints: Endpoints;
  readonly replays: Replays;
  readonly customers: Customers;
  readonly eventTypes: EventTypes;
  readonly sources: Sources;

  constructor(apiKey: string, options: FerryOptions) {
    if (!apiKey) throw new TypeError("ferry: an API key is required");
    const inner = options.fetch ?? ((req: Request) => globalThis.fetch(req));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, "") + "/api/v1",
      headers: { Authorization: `Bearer ${apiKey}` },
      fetch: retryingFetch(inner, options.retry, options.clock),
    });
    this.events = new Events(this.api);
    this.endpoints = new Endpoints(this.api);
    this.replays = new Replays(this.api);
    this.customers = new Customers(this.api);
    this.eventTypes = new EventTypes(this.api);
    this.sources = new Sources(this.api);
  }
}

export class Events {
  constructor(private readonly api: Client<paths>) {}
  /** Sends an event; 202 once it is stored durably. Retries reuse one Idempotency-Key, so they make one event. */
  create(input: EventInput, opts?: CreateOptions): Promise<EventAccepted> {
    return ok(this.api.POST("/events", { body: input, params: { header: key(opts) } }));
  }
  get(id: string): Promise<Event> {
    return ok(this.api.GET("/events/{id}", { params: { path: { id } } }));
  }
  async list(query: EventsListQuery = {}): Promise<Page<Event>> {
    return page(await ok(this.api.GET("/events", { params: { query } })));
  }
  /** Every event matching query, page after page. */
  all(query: EventsListQuery = {}): AsyncGenerator<Event, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
  /** Every delivery attempt of the event, across its endpoints. */
  async attempts(id: string): Promise<Attempt[]> {
    return (await ok(this.api.GET("/events/{id}/attempts", { params: { path: { id } } }))).data;
  }
  replay(id: string, input: ReplayEventInput = {}, opts?: CreateOptions): Promise<ReplayResult> {
    return ok(this.api.POST("/events/{id}/replay", { body: input, params: { path: { id }, header: key(opts) } }));
  }
}

export class Endpoints {
  constructor(private readonly api: Client<paths>) {}
  /** Adds an endpoint; the answer carries its signing secret (whsec_…). */
  create(input: EndpointInput, opts?: CreateOptions): Promise<EndpointCreated> {
    return ok(this.api.POST("/endpoints", { body: input, params: { header: key(opts) } }));
  }
  get(id: string): Promise<Endpoint> {
    return ok(this.api.GET("/endpoints/{id}", { params: { path: { id } } }));
  }
  async list(query: EndpointsListQuery = {}): Promise<Page<Endpoint>> {
    return page(await ok(this.api.GET("/endpoints", { params: { query } })));
  }
  all(query: EndpointsListQuery = {}): AsyncGenerator<Endpoint, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
  update(id: string, patch: EndpointPatch): Promise<Endpoint> {
    return ok(this.api.PATCH("/endpoints/{id}", { body: patch, params: { path: { id } } }));
  }
  delete(id: string): Promise<void> {
    return done(this.api.DELETE("/endpoints/{id}", { params: { path: { id } } }));
  }
  /** A new signing secret; the previous one keeps signing alongside it for a while. */
  rotateSecret(id: string): Promise<SecretInfo> {
    return ok(this.api.POST("/endpoints/{id}/secret/rotate", { params: { path: { id } } }));
  }
  secret(id: string): Promise<SecretInfo> {
    return ok(this.api.GET("/endpoints/{id}/secret", { params: { path: { id } } }));
  }
}

export class Replays {
  constructor(private readonly api: Client<paths>) {}
  /** Starts a bulk replay job (429 replay_limit when three are open). */
  create(input: BulkReplayInput = {}, opts?: CreateOptions): Promise<ReplayJob> {
    return ok(this.api.POST("/replays", { body: input, params: { header: key(opts) } }));
  }
  get(id: string): Promise<ReplayJob> {
    return ok(this.api.GET("/replays/{id}", { params: { path: { id } } }));
  }
  cancel(id: string): Promise<ReplayJob> {
    return ok(this.api.POST("/replays/{id}/cancel", { params: { path: { id } } }));
  }
  async list(query: ReplaysListQuery = {}): Promise<Page<ReplayJob>> {
    return page(await ok(this.api.GET("/replays", { params: { query } })));
  }
  all(query: ReplaysListQuery = {}): AsyncGenerator<ReplayJob, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
}

export class Customers {
  constructor(private readonly api: Client<paths>) {}
  /** Creates the customer uid or updates it (PUT: safe to retry without a key). */
  upsert(uid: string, input: CustomerInput = {}): Promise<Customer> {
    return ok(this.api.PUT("/customers/{uid}", { body: input, params: { path: { uid } } }));
  }
  get(uid: string): Promise<Customer> {
    return ok(this.api.GET("/customers/{uid}", { params: { path: { uid } } }));
  }
  update(uid: string, patch: CustomerPatch): Promise<Customer> {
    return ok(this.api.PATCH("/customers/{uid}", { body: patch, params: { path: { uid } } }));
  }
  delete(uid: string): Promise<void> {
    return done(this.api.DELETE("/customers/{uid}", { params: { path: { uid } } }));
  }
  async list(query: CustomersListQuery = {}): Promise<Page<Customer>> {
    return page(await ok(this.api.GET("/customers", { params: { query } })));
  }
  all(query: CustomersListQuery = {}): AsyncGenerator<Customer, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
  /** Mints a customer portal session: open its url once, within two minutes. */
  portalSession(uid: string, input: PortalSessionInput, opts?: CreateOptions): Promise<PortalSession> {
    return ok(this.api.POST("/customers/{uid}/portal-sessions", { body: input, params: { path: { uid }, header: key(opts) } }));
  }
}

export class EventTypes {
  constructor(private readonly api: Client<paths>) {}
  create(input: EventTypeInput, opts?: CreateOptions): Promise<EventType> {
    return ok(this.api.POST("/event-types", { body: input, params: { header: key(opts) } }));
  }
  get(name: string): Promise<EventType> {
    return ok(this.api.GET("/event-types/{name}", { params: { path: { name } } }));
  }
  update(name: string, patch: EventTypePatch): Promise<EventType> {
    return ok(this.api.PATCH("/event-types/{name}", { body: patch, params: { path: { name } } }));
  }
  delete(name: string): Promise<void> {
    return done(this.api.DELETE("/event-types/{name}", { params: { path: { name } } }));
  }
  async list(query: EventTypesListQuery = {}): Promise<Page<EventType>> {
    return page(await ok(this.api.GET("/event-types", { params: { query } })));
  }
  all(query: EventTypesListQuery = {}): AsyncGenerator<EventType, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
}

export class Sources {
  constructor(private readonly api: Client<paths>) {}
  /** Adds an inbound source; the answer carries its ingest URL. */
  create(input: SourceInput, opts?: CreateOptions): Promise<Source> {
    return ok(this.api.POST("/sources", { body: input, params: { header: key(opts) } }));
  }
  get(id: string): Promise<Source> {
    return ok(this.api.GET("/sources/{id}", { params: { path: { id } } }));
  }
  update(id: string, patch: SourcePatch): Promise<Source> {
    return ok(this.api.PATCH("/sources/{id}", { body: patch, params: { path: { id } } }));
  }
  delete(id: string): Promise<void> {
    return done(this.api.DELETE("/sources/{id}", { params: { path: { id } } }));
  }
  async list(query: SourcesListQuery = {}): Promise<Page<Source>> {
    return page(await ok(this.api.GET("/sources", { params: { query } })));
  }
  all(query: SourcesListQuery = {}): AsyncGenerator<Source, void, undefined> {
    return pages(query, (q) => this.list(q));
  }
}
