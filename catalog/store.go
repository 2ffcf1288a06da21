package catalog

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// typeRow is a row of event_types.
type typeRow struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	TenantID      uuid.UUID
	Name          string
	GroupName     string
	Description   string
	Validation    string
	DeprecatedAt  *time.Time
	LatestVersion int
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func (typeRow) TableName() string { return "event_types" }

func (r typeRow) eventType() EventType {
	return EventType{Name: r.Name, Group: r.GroupName, Description: r.Description, Validation: Mode(r.Validation),
		Deprecated: r.DeprecatedAt != nil, DeprecatedAt: r.DeprecatedAt, LatestVersion: r.LatestVersion,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// versionRow is a row of event_type_versions.
type versionRow struct {
	EventTypeID  uuid.UUID
	TenantID     uuid.UUID
	Version      int
	Schema       string
	SchemaSha256 []byte `gorm:"column:schema_sha256"`
	Examples     string
	CreatedAt    time.Time
}

func (versionRow) TableName() string { return "event_type_versions" }

func (r versionRow) version() (Version, error) {
	v := Version{Version: r.Version, Schema: json.RawMessage(r.Schema), CreatedAt: r.CreatedAt}
	if err := json.Unmarshal([]byte(r.Examples), &v.Examples); err != nil {
		return Version{}, fmt.Errorf("event type version examples: %w", err)
	}
	if v.Examples == nil {
		v.Examples = []json.RawMessage{}
	}
	return v, nil
}

// warningRow is a row of event_type_warnings.
type warningRow struct {
	ID          int64
	EventTypeID uuid.UUID
	TenantID    uuid.UUID
	Version     int
	Field       string
	Message     string
	CreatedAt   time.Time
}

func (warningRow) TableName() string { return "event_type_warnings" }

// forUpdate locks the rows a query reads until the transaction ends.
var forUpdate = clause.Locking{Strength: "UPDATE"}
