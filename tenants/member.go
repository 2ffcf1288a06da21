package tenants

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// MemberInput invites a user into a tenant.
type MemberInput struct {
	Email string `json:"email"` // the invitee's address; the invite link is mailed there
	Role  Role   `json:"role"`  // the member's role once they accept
}

// MemberPatch changes a member's role.
type MemberPatch struct {
	Role Role `json:"role"` // the new role
}

func validateRole(r Role) error {
	if !r.Valid() {
		return ferry.Invalid("role", "role must be owner, admin or viewer")
	}
	return nil
}

// userColumns are the columns of a User: never the password hash.
// (password_hash is read only to tell whether an invite is pending.)
var userColumns = []string{"id", "tenant_id", "email", "role", "created_at", "password_hash"}

// ListMembers returns the tenant's users, oldest first.
func (s *Service) ListMembers(ctx context.Context, tenantID uuid.UUID) ([]User, error) {
	var rows []userRow
	if err := s.db.WithContext(ctx).Select(userColumns).Scopes(forTenant(tenantID)).Order("created_at, id").
		Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list members: %w", err)
	}
	var elsewhere []elsewhereRow
	if err := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Find(&elsewhere).Error; err != nil {
		return nil, fmt.Errorf("list invites: %w", err)
	}
	users := make([]User, 0, len(rows)+len(elsewhere))
	for _, r := range rows {
		users = append(users, r.user())
	}
	for _, r := range elsewhere {
		users = append(users, r.user())
	}
	slices.SortStableFunc(users, func(a, b User) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID.String(), b.ID.String()))
	})
	return users, nil
}

// InviteMember creates a member without a password and mails them a
// link to set their own (AcceptInvite): the inviter never learns it.
// An address whose account belongs to another organisation is invited
// like any other (see inviteelsewhere.go): the answer reveals no account.
// Errors: EINVALID, ECONFLICT (already a member or invited here), EFORBIDDEN (the inviter has
// not verified their own address), ERATELIMIT (the tenant's invites for
// the hour are used up).
func (s *Service) InviteMember(ctx context.Context, inviter Principal, in MemberInput) (User, error) {
	email, err := normalizeEmail("email", in.Email)
	if err != nil {
		return User{}, err
	}
	if err := validateRole(in.Role); err != nil {
		return User{}, err
	}
	if err := s.mayInvite(ctx, inviter); err != nil {
		return User{}, err
	}
	t, err := s.Tenant(ctx, inviter.TenantID)
	if err != nil {
		return User{}, err
	}
	u := User{ID: uuid.New(), TenantID: t.ID, Email: email, Role: in.Role, CreatedAt: s.now().UTC(), Invited: true}
	var tok string
	var hasAccount bool
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		holder, exists, err := memberOf(tx, email)
		switch {
		case err != nil:
			return err
		case exists && holder == t.ID:
			return alreadyInvited()
		case exists:
			hasAccount = true
			return inviteElsewhere(tx, u)
		}
		err = tx.Create(&userRow{ID: u.ID, TenantID: t.ID, Email: u.Email, Role: u.Role, CreatedAt: u.CreatedAt}).Error
		if isUniqueViolation(err) {
			return alreadyInvited() // a concurrent invite or sign-up won; the caller retries
		}
		if err != nil {
			return fmt.Errorf("insert member: %w", err)
		}
		tok, err = newAccountToken(tx, u.CreatedAt, purposeInvite, KindUser, u.ID, s.cfg.InviteTokenTTL)
		return err
	})
	if err != nil {
		return User{}, err
	}
	if hasAccount {
		s.mailInvitedElsewhere(ctx, email, t.Name, inviter.Email)
		s.log.InfoContext(ctx, "member invited", "tenant_id", t.ID, "user_id", u.ID, "role", u.Role)
		return u, nil
	}
	link := s.link("accept-invite", tok)
	s.sendMail(ctx, "member_invite", func(ctx context.Context) error {
		return s.mail.MemberInvite(ctx, email, t.Name, inviter.Email, link)
	})
	s.log.InfoContext(ctx, "member invited", "tenant_id", t.ID, "user_id", u.ID, "role", u.Role)
	return u, nil
}

// ResendInvite mails a pending member a fresh invite link; earlier links
// stop working. Errors: ENOTFOUND (no such member in the tenant),
// ECONFLICT (the member has already accepted), and those of mayInvite.
func (s *Service) ResendInvite(ctx context.Context, inviter Principal, userID uuid.UUID) (User, error) {
	t, err := s.Tenant(ctx, inviter.TenantID)
	if err != nil {
		return User{}, err
	}
	var rows []userRow
	if err := s.db.WithContext(ctx).Select(userColumns).Scopes(forTenant(t.ID)).Where("id = ?", userID).
		Limit(1).Find(&rows).Error; err != nil {
		return User{}, fmt.Errorf("load member: %w", err)
	}
	if len(rows) == 0 {
		el, ok, err := elsewhereInvite(s.db.WithContext(ctx), t.ID, userID)
		if err != nil {
			return User{}, err
		}
		if !ok {
			return User{}, ferry.NotFound("member")
		}
		if err := s.mayInvite(ctx, inviter); err != nil {
			return User{}, err
		}
		s.mailInvitedElsewhere(ctx, el.Email, t.Name, inviter.Email)
		return el.user(), nil
	}
	u := rows[0].user()
	if !u.Invited {
		return User{}, &ferry.Error{Code: ferry.ECONFLICT, Message: "this member has already accepted the invitation"}
	}
	if err := s.mayInvite(ctx, inviter); err != nil {
		return User{}, err
	}
	tok, err := newAccountToken(s.db.WithContext(ctx), s.now().UTC(), purposeInvite, KindUser, u.ID, s.cfg.InviteTokenTTL)
	if err != nil {
		return User{}, err
	}
	link := s.link("accept-invite", tok)
	s.sendMail(ctx, "member_invite", func(ctx context.Context) error {
		return s.mail.MemberInvite(ctx, u.Email, t.Name, inviter.Email, link)
	})
	return u, nil
}

// UpdateMember changes a member's role. A tenant always keeps at least
// one owner. Errors: ENOTFOUND, EINVALID, ECONFLICT (last owner).
func (s *Service) UpdateMember(ctx context.Context, tenantID, userID uuid.UUID, patch MemberPatch) (User, error) {
	if err := validateRole(patch.Role); err != nil {
		return User{}, err
	}
	var u User
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		el, ok, err := elsewhereInvite(tx, tenantID, userID)
		if err != nil {
			return err
		}
		if ok {
			if err := tx.Model(&elsewhereRow{}).Where("id = ?", el.ID).Update("role", patch.Role).Error; err != nil {
				return fmt.Errorf("update invite: %w", err)
			}
			u = el.user()
			u.Role = patch.Role
			return nil
		}
		cur, err := lockMember(tx, tenantID, userID)
		if err != nil {
			return err
		}
		if cur.Role == RoleOwner && patch.Role != RoleOwner {
			if err := keepAnOwner(tx, tenantID); err != nil {
				return err
			}
		}
		if err := tx.Model(&userRow{}).Scopes(forTenant(tenantID)).Where("id = ?", userID).
			Update("role", patch.Role).Error; err != nil {
			return fmt.Errorf("update member: %w", err)
		}
		u = cur
		u.Role = patch.Role
		return nil
	})
	return u, err
}

// RemoveMember deletes a member. A tenant always keeps at least one
// owner. Errors: ENOTFOUND, ECONFLICT (last owner).
func (s *Service) RemoveMember(ctx context.Context, tenantID, userID uuid.UUID) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Scopes(forTenant(tenantID)).Where("id = ?", userID).Delete(&elsewhereRow{})
		if res.Error != nil {
			return fmt.Errorf("delete invite: %w", res.Error)
		}
		if res.RowsAffected > 0 {
			return nil
		}
		cur, err := lockMember(tx, tenantID, userID)
		if err != nil {
			return err
		}
		if cur.Role == RoleOwner {
			if err := keepAnOwner(tx, tenantID); err != nil {
				return err
			}
		}
		if err := tx.Scopes(forTenant(tenantID)).Where("id = ?", userID).Delete(&userRow{}).Error; err != nil {
			return fmt.Errorf("delete member: %w", err)
		}
		return nil
	})
}

// lockMember loads a member for update; the tenant's row is locked first
// so concurrent role changes of one tenant queue up and cannot together
// remove every owner.
func lockMember(tx *gorm.DB, tenantID, userID uuid.UUID) (User, error) {
	var locked []tenantRow
	if err := tx.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).Select("id").
		Where("id = ?", tenantID).Find(&locked).Error; err != nil {
		return User{}, fmt.Errorf("lock tenant: %w", err)
	}
	var rows []userRow
	if err := tx.Select(userColumns).Scopes(forTenant(tenantID)).Where("id = ?", userID).Limit(1).
		Find(&rows).Error; err != nil {
		return User{}, fmt.Errorf("load member: %w", err)
	}
	if len(rows) == 0 {
		return User{}, ferry.NotFound("member")
	}
	return rows[0].user(), nil
}

// keepAnOwner fails unless the tenant has an owner besides the one about
// to be demoted or removed.
func keepAnOwner(tx *gorm.DB, tenantID uuid.UUID) error {
	var owners int64
	if err := tx.Model(&userRow{}).Scopes(forTenant(tenantID)).Where("role = ?", RoleOwner).
		Count(&owners).Error; err != nil {
		return fmt.Errorf("count owners: %w", err)
	}
	if owners <= 1 {
		return &ferry.Error{Code: ferry.ECONFLICT, Message: "a tenant must keep at least one owner", Field: "role"}
	}
	return nil
}

// Refresh re-reads a session principal from the database, so a revoked
// session (logout, password change, staff disable), a removed member or
// a disabled staff account loses access at once, and a changed role or a
// pending forced password change or TOTP enrolment applies now
// (Principal.Restriction). API-key principals are returned as they are
// (AuthenticateAPIKey has just read them). Errors: EUNAUTHORIZED.
func (s *Service) Refresh(ctx context.Context, p Principal) (Principal, error) {
	db := s.db.WithContext(ctx)
	gone := ferry.Errorf(ferry.EUNAUTHORIZED, "session is no longer valid; sign in again")
	if p.Kind == KindUser || p.Kind == KindStaff {
		if p.SessionID != uuid.Nil { // Login refreshes before the session exists
			if err := s.checkSession(ctx, p); err != nil {
				return Principal{}, err
			}
		}
	}
	p.Restriction = ""
	switch p.Kind {
	case KindUser:
		var rows []userRow
		if err := db.Select("email", "role", "must_change_password").
			Scopes(forTenant(p.TenantID)).Where("id = ?", p.UserID).Limit(1).Find(&rows).Error; err != nil {
			return Principal{}, fmt.Errorf("load session user: %w", err)
		}
		if len(rows) == 0 {
			return Principal{}, gone
		}
		p.Email, p.Role = rows[0].Email, rows[0].Role
		if rows[0].MustChangePassword {
			p.Restriction = RestrictPasswordChange
		}
	case KindStaff:
		var rows []staffRow
		if err := db.Select("email", "must_change_password", "totp_enabled_at").
			Where("id = ? AND disabled_at IS NULL", p.UserID).Limit(1).Find(&rows).Error; err != nil {
			return Principal{}, fmt.Errorf("load session staff: %w", err)
		}
		if len(rows) == 0 {
			return Principal{}, gone
		}
		p.Email = rows[0].Email
		switch {
		case rows[0].MustChangePassword:
			p.Restriction = RestrictPasswordChange
		case s.cfg.RequireStaffTOTP && rows[0].TOTPEnabledAt == nil:
			p.Restriction = RestrictTOTPEnrolment
		}
	}
	return p, nil
}

// mayInvite checks that inviter may send an invite mail now. An invite
// is a mail from Ferry, carrying an organisation name the tenant chose,
// to any address: only a member who has proved their own address sends
// them, and a tenant sends at most InvitesPerHour (so a throwaway
// sign-up cannot use Ferry to mail strangers). Errors: EFORBIDDEN,
// ERATELIMIT.
func (s *Service) mayInvite(ctx context.Context, inviter Principal) error {
	var verified []bool
	if err := s.db.WithContext(ctx).Model(&userRow{}).Where("id = ? AND tenant_id = ?", inviter.UserID, inviter.TenantID).
		Limit(1).Pluck("email_verified_at IS NOT NULL", &verified).Error; err != nil {
		return fmt.Errorf("load inviter: %w", err)
	}
	if len(verified) == 0 || !verified[0] {
		return &ferry.Error{Code: ferry.EFORBIDDEN,
			Message: "verify your email address before inviting members (the link is in the mail we sent; ask for a new one on the account page)"}
	}
	return s.reserve(ctx, throttleLimit{key: keyInviteTenant + inviter.TenantID.String(), max: s.cfg.InvitesPerHour,
		window: time.Hour, message: "this organisation has sent as many invites as it may this hour; try again later"})
}
