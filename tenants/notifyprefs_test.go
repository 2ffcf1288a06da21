package tenants

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// TestNotificationRecipients: owners and admins who accepted their
// invite get mail about a topic unless they turned it off; viewers and
// pending invitees never do; invoices go to owners only; another
// tenant's members never appear.
func TestNotificationRecipients(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	b.signup(t, "other@example.com") // another tenant
	addAccepted := func(email string, role Role) Principal {
		t.Helper()
		if _, err := b.svc.InviteMember(ctx, owner, MemberInput{Email: email, Role: role}); err != nil {
			t.Fatal(err)
		}
		p, err := b.svc.AcceptInvite(ctx, b.mail.token(t, email, "accept-invite"), "a long enough password")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	admin := addAccepted("ada@example.com", RoleAdmin)
	addAccepted("vera@example.com", RoleViewer)
	if _, err := b.svc.InviteMember(ctx, owner, MemberInput{Email: "pending@example.com", Role: RoleAdmin}); err != nil {
		t.Fatal(err)
	}

	got, err := b.svc.NotificationPrefs(ctx, admin)
	if err != nil || got != DefaultNotificationPrefs() {
		t.Fatalf("default preferences: %+v, %v", got, err)
	}
	if _, err := b.svc.SetNotificationPrefs(ctx, admin, NotificationPrefs{EndpointHealth: false, Quota: true, Invoices: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.svc.NotificationPrefs(ctx, admin); got.EndpointHealth || !got.Quota {
		t.Errorf("stored preferences: %+v", got)
	}

	tests := []struct {
		topic NotificationTopic
		want  []string
	}{
		{TopicEndpointHealth, []string{"ann@example.com"}},
		{TopicQuota, []string{"ada@example.com", "ann@example.com"}},
		{TopicInvoices, []string{"ann@example.com"}},
	}
	for _, tt := range tests {
		got, err := b.svc.NotificationRecipients(ctx, owner.TenantID, tt.topic)
		slices.Sort(got) // the test clock gives every member one created_at
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, %v; want %v", tt.topic, got, err, tt.want)
		}
	}
	if _, err := b.svc.NotificationRecipients(ctx, owner.TenantID, "gossip"); err == nil {
		t.Error("unknown topic accepted")
	}
	if got, err := b.svc.NotificationRecipients(ctx, uuid.New(), TopicQuota); err != nil || len(got) != 0 {
		t.Errorf("unknown tenant: %v, %v", got, err)
	}
	staff := Principal{Kind: KindStaff, UserID: uuid.New()}
	if _, err := b.svc.NotificationPrefs(ctx, staff); ferry.ErrorCode(err) != ferry.EFORBIDDEN {
		t.Errorf("staff preferences: %v, want forbidden", err)
	}
}
