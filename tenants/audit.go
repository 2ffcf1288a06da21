package tenants

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
	StaffID    uuid.UUID       `json:"staff_id"`    // the staff member who acted
	ActorEmail string          `json:"actor_email"` // the staff member's email
	TenantID   *uuid.UUID      `json:"tenant_id"`   // the tenant acted on; null for actions across tenants (a search)
	Action     string          `json:"action"`      // what was done or viewed, e.g. replay or tenant.view
	Reason     string          `json:"reason"`      // the reason the staff member gave (replays, restriction lifts); empty for views
	Detail     json.RawMessage `json:"detail"`
	CreatedAt  time.Time       `json:"created_at"` // when it happened

	// TenantName is the tenant's name now ("" without a tenant, or when
	// the tenant was since deleted).
	TenantName string `json:"tenant_name"`
	// Write is true for actions that changed something (AuditWriteActions).
	Write bool `json:"write"`
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

	AuditLiftRestriction  = "billing.lift_restriction"
	AuditEndpointAttempts = "endpoint.attempts"
	AuditPreviewReplay    = "replay.preview"
)

// AuditWriteActions are the staff actions that change something, as
// opposed to those that only read a tenant's data. The audit log lists
// them apart (AuditFilter.Kind) so the few that matter are not buried
// under the many views; an action added here is a write from then on,
// including its earlier entries.
func AuditWriteActions() []string {
	return []string{AuditReplay, AuditLiftRestriction}
}

// IsAuditWrite reports whether action is one of AuditWriteActions.
func IsAuditWrite(action string) bool {
	return slices.Contains(AuditWriteActions(), action)
}

// Kinds of audit entries AuditFilter.Kind selects.
const (
	AuditKindAll   = ""
	AuditKindWrite = "write"
	AuditKindRead  = "read"
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

// AuditFilter narrows ListAudit; zero fields match everything.
type AuditFilter struct {
	TenantID *uuid.UUID
	// Actor matches part of the staff member's email, case-insensitive.
	Actor string
	// Action matches one action exactly.
	Action string
	// Kind is AuditKindWrite, AuditKindRead or AuditKindAll.
	Kind string
	// Since and Until bound created_at: Since <= created_at < Until.
	Since, Until *time.Time
	Limit        int
	Cursor       string
}

func (f AuditFilter) validate() error {
	switch f.Kind {
	case AuditKindAll, AuditKindWrite, AuditKindRead:
	default:
		return ferry.Invalid("kind", "kind must be write or read (or empty for both)")
	}
	if !utf8.ValidString(f.Actor) || len(f.Actor) > maxEmailLen {
		return ferry.Invalid("actor", "actor must be at most %d bytes of valid UTF-8", maxEmailLen)
	}
	if !utf8.ValidString(f.Action) || len(f.Action) > 100 {
		return ferry.Invalid("action", "action must be at most 100 bytes of valid UTF-8")
	}
	if f.Since != nil && f.Until != nil && !f.Since.Before(*f.Until) {
		return ferry.Invalid("until", "until must be after since")
	}
	return nil
}

// ListAudit returns the audit entries f selects, newest first, with each
// tenant's current name, and the next page's cursor. Errors: EINVALID
// (bad filter or cursor).
func (s *Service) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, string, error) {
	if err := f.validate(); err != nil {
		return nil, "", err
	}
	limit := page.Request{Limit: f.Limit}.Size()
	cur, err := page.DecodeSeq(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	q := s.db.WithContext(ctx).Table("audit_log AS a").
		Select("a.id, a.staff_id, a.actor_email, a.tenant_id, coalesce(t.name, '') AS tenant_name, a.action, a.reason, a.detail, a.created_at").
		Joins("LEFT JOIN tenants t ON t.id = a.tenant_id").
		Order("a.id DESC").Limit(limit + 1)
	if f.TenantID != nil {
		q = q.Where("a.tenant_id = ?", *f.TenantID)
	}
	if a := strings.TrimSpace(f.Actor); a != "" {
		// Escape LIKE wildcards so the text is matched literally.
		pattern := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(a)) + "%"
		q = q.Where("lower(a.actor_email) LIKE ?", pattern)
	}
	if f.Action != "" {
		q = q.Where("a.action = ?", f.Action)
	}
	switch f.Kind {
	case AuditKindWrite:
		q = q.Where("a.action IN ?", AuditWriteActions())
	case AuditKindRead:
		q = q.Where("a.action NOT IN ?", AuditWriteActions())
	}
	if f.Since != nil {
		q = q.Where("a.created_at >= ?", *f.Since)
	}
	if f.Until != nil {
		q = q.Where("a.created_at < ?", *f.Until)
	}
	if cur.Seq > 0 {
		q = q.Where("a.id < ?", cur.Seq)
	}
	var rows []auditListRow
	if err := q.Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list audit log: %w", err)
	}
	rows, next := page.Trim(rows, limit, func(r auditListRow) page.Cursor { return page.Cursor{Seq: r.ID} })
	out := make([]AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = AuditEntry{ID: r.ID, ActorEmail: r.ActorEmail, TenantID: r.TenantID, TenantName: r.TenantName,
			Action: r.Action, Write: IsAuditWrite(r.Action), Reason: r.Reason, Detail: json.RawMessage(r.Detail), CreatedAt: r.CreatedAt}
		if r.StaffID != nil {
			out[i].StaffID = *r.StaffID
		}
	}
	return out, next, nil
}

// auditListRow is an audit_log row with its tenant's name.
type auditListRow struct {
	ID         int64
	StaffID    *uuid.UUID
	ActorEmail string
	TenantID   *uuid.UUID
	TenantName string
	Action     string
	Reason     string
	Detail     string
	CreatedAt  time.Time
}
