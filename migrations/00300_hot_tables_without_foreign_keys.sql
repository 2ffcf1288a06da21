-- +goose Up
-- The rows written for every event and every inbound request no longer
-- carry foreign keys to the rows they name: captures to their tenant and
-- source, dedupe claims to their source, events to their tenant,
-- deliveries to their event and endpoint, raw bodies to their event.
--
-- Each check took a FOR KEY SHARE lock on the parent row, written to
-- the WAL. The parents are few and hot (one tenant, source or endpoint
-- is named by every request of a flood), and several committers insert
-- their children at once, so the lock is shared between transactions (a
-- multixact). At 1,000 inbound requests/s, alternated three times,
-- PostgreSQL used 0.58 of a core without the keys against 0.62 with
-- them (docs/benchmarks.md, 2026-11-27 10:21).
--
-- What the keys guarded still holds without them. Every id comes from
-- a row Ferry has read (the tenant of the API key, the source of the
-- ingest token, the endpoint routed to) or inserted in the same
-- transaction (the event beside its deliveries), and Ferry never
-- deletes those rows: tenants and events stay, sources and endpoints
-- are deleted softly (deleted_at), so the keys' ON DELETE CASCADE never
-- ran. Removing a tenant's data by hand is described in
-- docs/operations.md (Retention).
ALTER TABLE source_requests DROP CONSTRAINT source_requests_tenant_id_fkey;
ALTER TABLE source_requests DROP CONSTRAINT source_requests_source_id_fkey;
ALTER TABLE source_dedupe DROP CONSTRAINT source_dedupe_source_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_tenant_id_fkey;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_event_id_fkey;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_endpoint_id_fkey;
ALTER TABLE event_raw_bodies DROP CONSTRAINT event_raw_bodies_event_id_fkey;

-- +goose Down
-- NOT VALID: rows written without the keys are not checked again.
ALTER TABLE event_raw_bodies ADD CONSTRAINT event_raw_bodies_event_id_fkey
    FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_endpoint_id_fkey
    FOREIGN KEY (endpoint_id) REFERENCES endpoints(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_event_id_fkey
    FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE events ADD CONSTRAINT events_tenant_id_fkey
    FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE source_dedupe ADD CONSTRAINT source_dedupe_source_id_fkey
    FOREIGN KEY (source_id) REFERENCES sources(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_source_id_fkey
    FOREIGN KEY (source_id) REFERENCES sources(id) ON DELETE CASCADE NOT VALID;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_tenant_id_fkey
    FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE NOT VALID;
