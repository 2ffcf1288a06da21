package tenants

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

// AuditEntry is one support-staff action: who, what, on which tenant,
// when, and why.
type AuditEntry struct {
	ID         int64           `json:"id,string"`
	StaffID    uuid.UUID       `json:"staff_id"`
	ActorEmail string          `json:"actor_email"`
	TenantID   *uuid.UUID      `json:"tenant_id"`
	Action     string          `json:"action"`
	Reason     string          `json:"reason"`
	Detail     json.RawMessage `json:"detail"`
	CreatedAt  time.Time       `json:"created_at"`
}

// Staff audit actions.
const (
	AuditSearchTenants = "tenants.search"
	AuditViewTenant    = "tenant.view"
	AuditListEvents    = "events.list"
	AuditViewEvent     = "event.view"
	AuditReplay        = "replay"
	AuditViewReplay    = "replay.view"
	AuditViewBilling   = "billing.view"
)

// MaxAuditReason bounds a staff member's stated reason.
const MaxAuditReason = 1000

// ValidateReason checks a staff member's reason for an action that needs
// one. Errors: EINVALID.
func ValidateReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "", ferry.Invalid("reason", "reason is required for staff actions")
	}
	if !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > MaxAuditReason {
		return "", ferry.Invalid("reason", "reason must be at most %d characters of valid UTF-8", MaxAuditReason)
	}
	return reason, nil
}

// Audit records a staff action. It is written before the action runs, so
// no action happens unaudited; detail is any JSON-encodable value.
func (s *Service) Audit(ctx context.Context, staff Principal, tenantID *uuid.UUID, action, reason string, detail any) error {
	if !staff.IsStaff() {
		return fmt.Errorf("audit %s: principal is not staff", action)
	}
	b := []byte("{}")
	if detail != nil {
		var err error
		if b, err = json.Marshal(detail); err != nil {
			return fmt.Errorf("encode audit detail: %w", err)
		}
	}
	staffID := staff.UserID
	err := s.db.WithContext(ctx).Create(&auditRow{StaffID: &staffID, ActorEmail: staff.Email, TenantID: tenantID,
		Action: action, Reason: reason, Detail: string(b), CreatedAt: s.now().UTC()}).Error
	if err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
}

// AuditFilter narrows ListAudit.
type AuditFilter struct {
	TenantID *uuid.UUID
	Limit    int
	Cursor   string
}

// ListAudit returns audit entries, newest first, and the next page's
// cursor. Errors: EINVALID (bad cursor).
func (s *Service) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, string, error) {
	limit := page.Request{Limit: f.Limit}.Size()
	cur, err := page.DecodeSeq(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	q := s.db.WithContext(ctx).Order("id DESC").Limit(limit + 1)
	if f.TenantID != nil {
		q = q.Scopes(forTenant(*f.TenantID))
	}
	if cur.Seq > 0 {
		q = q.Where("id < ?", cur.Seq)
	}
	var rows []auditRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list audit log: %w", err)
	}
	rows, next := page.Trim(rows, limit, func(r auditRow) page.Cursor { return page.Cursor{Seq: r.ID} })
	out := make([]AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = AuditEntry{ID: r.ID, ActorEmail: r.ActorEmail, TenantID: r.TenantID, Action: r.Action,
			Reason: r.Reason, Detail: json.RawMessage(r.Detail), CreatedAt: r.CreatedAt}
		if r.StaffID != nil {
			out[i].StaffID = *r.StaffID
		}
	}
	return out, next, nil
}
