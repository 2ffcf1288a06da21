package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/seal"
)

// fakeSchemas answers Check with CheckFunc.
type fakeSchemas struct {
	CheckFunc func(ctx context.Context, tenantID uuid.UUID, eventType string, data json.RawMessage) (string, error)
}

func (f *fakeSchemas) Check(ctx context.Context, tenantID uuid.UUID, eventType string, data json.RawMessage) (string, error) {
	return f.CheckFunc(ctx, tenantID, eventType, data)
}

var _ SchemaChecker = (*fakeSchemas)(nil)

// TestIngestChecksSchemas: Config.Schemas sees each event (batched and
// with an idempotency key) before its transaction; its error refuses the
// event as it is, with nothing stored, and its warning comes back on the
// accepted event.
func TestIngestChecksSchemas(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	tenantID, _ := seedTenant(t, db, nil)
	c, _ := seal.New(bytes.Repeat([]byte{1}, 32))
	schemas := &fakeSchemas{CheckFunc: func(_ context.Context, tid uuid.UUID, typ string, data json.RawMessage) (string, error) {
		if tid != tenantID {
			t.Errorf("checked for tenant %s", tid)
		}
		switch typ {
		case "bad.type":
			return "", ferry.Invalid("data/amount", "got string, want integer")
		case "warn.type":
			return "data/amount: got string, want integer", nil
		}
		return "", nil
	}}
	s, err := NewService(db, c, &collectingRelay{}, nil, Config{Schemas: schemas}, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, key := range []string{"", "k1"} {
		_, _, err := s.Ingest(ctx, tenantID, EventInput{Type: "bad.type", Data: json.RawMessage(`{"amount":"x"}`), IdempotencyKey: key})
		var fe *ferry.Error
		if !errors.As(err, &fe) || fe.Code != ferry.EINVALID || fe.Field != "data/amount" {
			t.Fatalf("key %q: want EINVALID on data/amount, got %v", key, err)
		}
		ev, created, err := s.Ingest(ctx, tenantID, EventInput{Type: "warn.type", Data: json.RawMessage(`{"amount":"x"}`), IdempotencyKey: key + "w"})
		if err != nil || !created || ev.SchemaWarning != "data/amount: got string, want integer" {
			t.Fatalf("key %q: warn: %v %v %q", key, err, created, ev.SchemaWarning)
		}
		ev, _, err = s.Ingest(ctx, tenantID, EventInput{Type: "good.type", Data: json.RawMessage(`{"amount":1}`), IdempotencyKey: key + "g"})
		if err != nil || ev.SchemaWarning != "" {
			t.Fatalf("key %q: good: %v %q", key, err, ev.SchemaWarning)
		}
	}
	var bad int64
	if err := db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ? AND type = 'bad.type'`, tenantID).Scan(&bad).Error; err != nil || bad != 0 {
		t.Fatalf("refused events stored: %d %v", bad, err)
	}
}
