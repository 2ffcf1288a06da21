package tenants

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// An invite to an address whose account belongs to another organisation
// cannot be accepted (an account belongs to one organisation). Answering
// the inviter "this address has an account" would tell any owner who
// uses Ferry, so such an invite is kept as a pending invite of its own
// (invites_to_existing_accounts): listed, re-sent, changed and removed
// like any other, while the address's holder is mailed what happened.

// elsewhereRow is a row of invites_to_existing_accounts.
type elsewhereRow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	TenantID  uuid.UUID
	Email     string
	Role      Role
	CreatedAt time.Time
}

func (elsewhereRow) TableName() string { return "invites_to_existing_accounts" }

func (r elsewhereRow) user() User {
	return User{ID: r.ID, TenantID: r.TenantID, Email: r.Email, Role: r.Role, CreatedAt: r.CreatedAt, Invited: true}
}

// memberOf returns the tenant of the account holding email, if any.
func memberOf(tx *gorm.DB, email string) (uuid.UUID, bool, error) {
	var ids []uuid.UUID
	if err := tx.Model(&userRow{}).Where("lower(email) = ?", email).Limit(1).Pluck("tenant_id", &ids).Error; err != nil {
		return uuid.Nil, false, fmt.Errorf("look up account: %w", err)
	}
	if len(ids) == 0 {
		return uuid.Nil, false, nil
	}
	return ids[0], true, nil
}

// inviteElsewhere records an invite to an address that has an account in
// another organisation, in tx. Errors: ECONFLICT (invited already).
func inviteElsewhere(tx *gorm.DB, u User) error {
	err := tx.Create(&elsewhereRow{ID: u.ID, TenantID: u.TenantID, Email: u.Email, Role: u.Role, CreatedAt: u.CreatedAt}).Error
	if isUniqueViolation(err) {
		return alreadyInvited()
	}
	if err != nil {
		return fmt.Errorf("insert invite: %w", err)
	}
	return nil
}

// alreadyInvited is the answer to inviting an address the tenant has
// invited (or has as a member) already: its own list shows it.
func alreadyInvited() error {
	return &ferry.Error{Code: ferry.ECONFLICT, Message: "this address is already a member or invited", Field: "email"}
}

// elsewhereInvite loads one of the tenant's invites to an existing
// account (ok false when id is none).
func elsewhereInvite(tx *gorm.DB, tenantID, id uuid.UUID) (elsewhereRow, bool, error) {
	var rows []elsewhereRow
	if err := tx.Scopes(forTenant(tenantID)).Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return elsewhereRow{}, false, fmt.Errorf("load invite: %w", err)
	}
	if len(rows) == 0 {
		return elsewhereRow{}, false, nil
	}
	return rows[0], true, nil
}

// mailInvitedElsewhere tells an account holder that organization invited
// their address, which cannot join it.
func (s *Service) mailInvitedElsewhere(ctx context.Context, to, organization, inviter string) {
	s.sendMail(ctx, "invite_existing_account", func(ctx context.Context) error {
		return s.mail.InvitedWithAccount(ctx, to, organization, inviter)
	})
}
