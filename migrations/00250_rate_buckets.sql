-- +goose Up
-- Token buckets shared by every API process (rate limits per tenant that
-- hold across replicas). Unlogged: a crash forgets them, which only
-- refills every bucket, and no update costs WAL.
CREATE UNLOGGED TABLE rate_buckets (
    key        text             PRIMARY KEY,
    tokens     double precision NOT NULL,
    updated_at timestamptz      NOT NULL
);

-- +goose Down
DROP TABLE rate_buckets;
