package tenants

import (
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// GORM models of the tenants tables (migrations/00001_schema.sql). They
// match the schema column for column; migrations stay goose SQL.

// tenantRow is a row of tenants. Plan names a billing plan; tenants
// stores the assignment and billing decides it (see plan.go).
type tenantRow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	Name      string
	Plan      string `gorm:"default:free"`
	CreatedAt time.Time
}

func (tenantRow) TableName() string { return "tenants" }

func (r tenantRow) tenant() Tenant {
	return Tenant{ID: r.ID, Name: r.Name, Plan: r.Plan, CreatedAt: r.CreatedAt}
}

// userRow is a row of users: a member of one tenant.
type userRow struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	TenantID           uuid.UUID
	Email              string
	PasswordHash       string // '' while an invite is pending
	Role               Role
	CreatedAt          time.Time
	MustChangePassword bool
	EmailVerifiedAt    *time.Time
}

func (userRow) TableName() string { return "users" }

func (r userRow) user() User {
	return User{ID: r.ID, TenantID: r.TenantID, Email: r.Email, Role: r.Role, CreatedAt: r.CreatedAt,
		Invited: r.PasswordHash == ""}
}

// staffRow is a row of staff.
type staffRow struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	Email              string
	PasswordHash       string
	CreatedAt          time.Time
	MustChangePassword bool
	DisabledAt         *time.Time
	// TOTPSealed is the base32 authenticator key sealed with the master
	// key (nil before enrolment); TOTPSecret holds a key enrolled before
	// sealing existed, in clear, until a sign-in seals it. TOTPEnabledAt
	// is set once a code from the key was confirmed, and TOTPLastStep is
	// the newest time step used, so a code works once.
	TOTPSealed    []byte     `gorm:"column:totp_secret_sealed"`
	TOTPSecret    string     `gorm:"column:totp_secret"`
	TOTPEnabledAt *time.Time `gorm:"column:totp_enabled_at"`
	TOTPLastStep  int64      `gorm:"column:totp_last_step"`
}

func (staffRow) TableName() string { return "staff" }

// returningStaff makes an update fill the staff rows it changed.
func returningStaff() clause.Returning {
	return clause.Returning{Columns: []clause.Column{{Name: "id"}, {Name: "email"}, {Name: "created_at"}}}
}

// apiKeyRow is a row of api_keys; KeyHash is the key's SHA-256.
type apiKeyRow struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	TenantID   uuid.UUID
	Name       string
	Prefix     string
	KeyHash    []byte
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

func (apiKeyRow) TableName() string { return "api_keys" }

func (r apiKeyRow) apiKey() APIKey {
	return APIKey{ID: r.ID, Name: r.Name, Prefix: r.Prefix, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt, RevokedAt: r.RevokedAt}
}

// auditRow is a row of audit_log; Detail is JSON text (jsonb).
type auditRow struct {
	ID         int64 `gorm:"primaryKey"`
	StaffID    *uuid.UUID
	ActorEmail string
	TenantID   *uuid.UUID
	Action     string
	Reason     string
	Detail     string `gorm:"type:jsonb"`
	CreatedAt  time.Time
}

func (auditRow) TableName() string { return "audit_log" }

// forTenant narrows a query on a tenant-owned table to one tenant.
func forTenant(id uuid.UUID) func(*gorm.DB) *gorm.DB {
	return func(db *gorm.DB) *gorm.DB { return db.Where("tenant_id = ?", id) }
}
