package billing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
)

func TestChangePlan(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanFree, b.clock.Now())
	// Used up the free quota this month.
	b.override(t, id, PlanFree, map[string]any{"events_per_month": 2})
	require.NoError(t, b.consume(id, 2))
	require.Equal(t, ferry.EQUOTA, ferry.ErrorCode(b.consume(id, 1)))

	tests := []struct {
		name, plan, wantCode string
	}{
		{"unknown plan", "platinum", ferry.EINVALID},
		{"empty plan", " ", ferry.EINVALID},
		{"enterprise is not self-serve", PlanEnterprise, ferry.EINVALID},
	}
	for _, tt := range tests {
		_, err := b.svc.ChangePlan(b.ctx, id, tt.plan, "owner@example.com")
		require.Equal(t, tt.wantCode, ferry.ErrorCode(err), tt.name)
	}

	ent, err := b.svc.ChangePlan(b.ctx, id, PlanPro, "owner@example.com")
	require.NoError(t, err)
	require.Equal(t, PlanPro, ent.Name)
	require.NoError(t, b.consume(id, 1), "the upgrade takes effect at once")

	// Same plan again is a no-op, not a second history row.
	_, err = b.svc.ChangePlan(b.ctx, id, PlanPro, "owner@example.com")
	require.NoError(t, err)
	var changes []struct {
		FromPlan, ToPlan, Actor string
		ChangedAt               time.Time
	}
	require.NoError(t, b.db.Raw(`SELECT from_plan, to_plan, actor, changed_at FROM plan_changes WHERE tenant_id = ?`, id).Scan(&changes).Error)
	require.Len(t, changes, 1)
	require.Equal(t, "free", changes[0].FromPlan)
	require.Equal(t, "pro", changes[0].ToPlan)
	require.Equal(t, "owner@example.com", changes[0].Actor)
	require.True(t, changes[0].ChangedAt.Equal(b.clock.Now()))

	// A downgrade must fit the smaller plan's endpoint limit.
	b.addEndpoints(t, id, 4)
	_, err = b.svc.ChangePlan(b.ctx, id, PlanFree, "owner@example.com")
	var fe *ferry.Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, ferry.EPLANLIMIT, fe.Code)
	require.Contains(t, fe.Message, "delete 1 first")
	require.NoError(t, b.db.Exec(`UPDATE endpoints SET deleted_at = now() WHERE tenant_id = ? AND id IN
		(SELECT id FROM endpoints WHERE tenant_id = ? LIMIT 1)`, id, id).Error)
	_, err = b.svc.ChangePlan(b.ctx, id, PlanFree, "owner@example.com")
	require.NoError(t, err)
	require.Equal(t, ferry.EQUOTA, ferry.ErrorCode(b.consume(id, 1)), "back on free, the month's usage is over the cap")

	// Operators assign enterprise, which tenants cannot pick themselves.
	ent, err = b.svc.AssignPlan(b.ctx, id, PlanEnterprise, "ops@ferry.dev")
	require.NoError(t, err)
	require.Equal(t, PlanEnterprise, ent.Name)
	require.NoError(t, b.consume(id, 1))
}

func TestChangePlanUnknownTenant(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, err := b.svc.ChangePlan(b.ctx, [16]byte{1}, PlanPro, "x")
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	_, err = b.svc.Overview(b.ctx, [16]byte{1})
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
}
