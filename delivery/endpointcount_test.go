package delivery_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
)

// TestCountEndpoints checks what billing reads of delivery's endpoints:
// live ones only, per tenant.
func TestCountEndpoints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliverytest.DB(t)
	now := time.Now().UTC()
	a, b := deliverytest.Seed(t, db, now), deliverytest.Seed(t, db, now)
	if err := db.Exec(`UPDATE endpoints SET deleted_at = now() WHERE id = ?`, b.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tenant uuid.UUID
		want   int64
	}{{a.TenantID, 1}, {b.TenantID, 0}, {uuid.New(), 0}} {
		got, err := delivery.EndpointCounter{}.CountEndpoints(ctx, dbtx.Wrap(db), c.tenant)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("live endpoints of %s: %d, want %d", c.tenant, got, c.want)
		}
	}
}
