package delivery

import (
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GORM models of endpoints and endpoint_secrets
// (migrations/00001_schema.sql): endpointRow (endpoint.go) and
// endpointSecretRow. Migrations stay goose SQL.

// TableName maps endpointRow to endpoints.
func (endpointRow) TableName() string { return "endpoints" }

// endpointSecretRow is a row of endpoint_secrets: an AES-GCM ciphertext;
// ExpiresAt is set when a rotation retires it.
type endpointSecretRow struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	EndpointID uuid.UUID
	TenantID   uuid.UUID
	Ciphertext []byte
	CreatedAt  time.Time
	ExpiresAt  *time.Time
}

func (endpointSecretRow) TableName() string { return "endpoint_secrets" }

// forTenant narrows a query on a tenant-owned table to one tenant.
func forTenant(id uuid.UUID) func(*gorm.DB) *gorm.DB {
	return func(db *gorm.DB) *gorm.DB { return db.Where("tenant_id = ?", id) }
}
