-- +goose Up
-- billing's metering statement calls this when a plan refuses the events
-- it meters, in the form a group commit sends (billing.Pipeline): the
-- ingest's COMMIT travels in the same round trip, and finds the
-- transaction aborted instead of committing events the plan refused.
-- DETAIL carries the metering row, from which billing words the refusal.
-- +goose StatementBegin
CREATE FUNCTION billing_refuse(detail text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events refused by the plan' USING ERRCODE = 'FYREF', DETAIL = detail;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION billing_refuse(text);
