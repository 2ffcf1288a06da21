package customers_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tests/testenv"
)

func TestCheckUID(t *testing.T) {
	t.Parallel()
	for uid, ok := range map[string]bool{
		"acme": true, "cus_123": true, "a.b:c@d-e": true, "0": true,
		"": false, "-lead": false, "has space": false, "slash/no": false, "ünïcode": false, strings.Repeat("a", 257): false,
	} {
		err := customers.CheckUID("uid", uid)
		if (err == nil) != ok {
			t.Errorf("CheckUID(%q) = %v, want ok %v", uid, err, ok)
		}
		if err != nil && ferry.ErrorCode(err) != ferry.EINVALID {
			t.Errorf("CheckUID(%q): code %s, want invalid", uid, ferry.ErrorCode(err))
		}
	}
}

// disabler records the customers whose endpoints it was told to disable.
type disabler struct{ customers []uuid.UUID }

func (d *disabler) DisableCustomerEndpoints(_ context.Context, _ dbtx.Tx, _, customerID uuid.UUID) (int64, error) {
	d.customers = append(d.customers, customerID)
	return 1, nil
}

// TestCustomerLifecycle: upsert by uid creates then updates, per tenant;
// delete hides the customer, disables its endpoints and keeps its id for
// an upsert that brings it back; resolve refuses unknown and deleted uids.
func TestCustomerLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(ctx, sqlDB))
	a, b := uuid.New(), uuid.New()
	for _, id := range []uuid.UUID{a, b} {
		require.NoError(t, db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 't')`, id).Error)
	}
	var d disabler
	svc := customers.New(db, &d, slog.New(slog.DiscardHandler), nil)

	c, created, err := svc.Upsert(ctx, a, customers.Input{UID: "acme", Name: "Acme", Metadata: map[string]string{"tier": "gold"}})
	require.NoError(t, err)
	require.True(t, created)
	again, created, err := svc.Upsert(ctx, a, customers.Input{UID: "acme", Name: "Acme Inc"})
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, c.ID, again.ID)
	require.Equal(t, "Acme Inc", again.Name)
	_, created, err = svc.Upsert(ctx, b, customers.Input{UID: "acme"})
	require.NoError(t, err)
	require.True(t, created, "uids are per tenant")

	name := "Acme Corp"
	got, err := svc.Update(ctx, a, "acme", customers.Patch{Name: &name})
	require.NoError(t, err)
	require.Equal(t, name, got.Name)
	list, next, err := svc.List(ctx, a, page.Request{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Empty(t, next)

	id, err := svc.Resolve(ctx, a, "customer", "acme")
	require.NoError(t, err)
	require.Equal(t, c.ID, id)
	_, err = svc.Resolve(ctx, a, "customer", "globex")
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))

	require.NoError(t, svc.Delete(ctx, a, "acme"))
	require.Equal(t, []uuid.UUID{c.ID}, d.customers)
	_, err = svc.Get(ctx, a, "acme")
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	_, err = svc.Resolve(ctx, a, "customer", "acme")
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(svc.Delete(ctx, a, "acme")))

	back, created, err := svc.Upsert(ctx, a, customers.Input{UID: "acme", Name: "Acme returns"})
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, c.ID, back.ID, "the uid keeps naming the same customer")

	_, _, err = svc.Upsert(ctx, a, customers.Input{UID: "x", Metadata: map[string]string{"big": strings.Repeat("x", customers.MaxMetadataLen)}})
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))
}
