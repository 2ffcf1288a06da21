// Package customers keeps a tenant's own customers: the companies or
// people the tenant sends webhooks to, each under the tenant's id for it
// (uid). Endpoints and events may belong to a customer (delivery keeps
// the customer's id and uid with them); an event sent for a customer
// reaches only that customer's endpoints and the tenant's own. Deleting a
// customer disables its endpoints and keeps its history: the row stays,
// marked deleted, and an upsert of the same uid brings it back.
package customers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/page"
)

// Limits of a customer's fields (docs/contract.md#customers).
const (
	MaxUIDLen      = 256
	MaxNameLen     = 256
	MaxMetadataLen = 4096 // bytes of JSON
)

// uidPattern is what a uid may be: the tenant's own id for its customer,
// safe in a URL path segment.
var uidPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@\-]*$`)

// Customer is one of a tenant's customers.
type Customer struct {
	// UID is the tenant's id for the customer.
	UID       string            `json:"uid"`
	Name      string            `json:"name"`       // a display name; may be empty
	Metadata  map[string]string `json:"metadata"`   // string pairs of yours, kept as given
	CreatedAt time.Time         `json:"created_at"` // when the customer was created
	UpdatedAt time.Time         `json:"updated_at"` // when the customer last changed
	// ID is Ferry's id for the customer (not shown: the API names
	// customers by uid).
	ID uuid.UUID `json:"-"`
}

// Input is the body of PUT /customers/{uid} and POST /customers.
type Input struct {
	UID      string            `json:"uid"`      // your own id for the customer (1-255 characters); it names the customer in every route
	Name     string            `json:"name"`     // a display name
	Metadata map[string]string `json:"metadata"` // string pairs of yours, kept as given
}

// Patch is the body of PATCH /customers/{uid}: absent fields keep their
// value.
type Patch struct {
	Name     *string            `json:"name"`     // a new display name
	Metadata *map[string]string `json:"metadata"` // replaces the metadata as a whole
}

// Endpoints is what deleting a customer needs of delivery: its endpoints
// disabled, in the transaction that deletes it. app plugs delivery in.
type Endpoints interface {
	// DisableCustomerEndpoints disables the live endpoints of the
	// customer, read in tx, and returns how many it disabled.
	DisableCustomerEndpoints(ctx context.Context, tx dbtx.Tx, tenantID, customerID uuid.UUID) (int64, error)
}

// Service manages customers.
type Service struct {
	db        *gorm.DB
	endpoints Endpoints
	log       *slog.Logger
	now       func() time.Time
}

// New returns a Service; now may be nil.
func New(db *gorm.DB, endpoints Endpoints, log *slog.Logger, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, endpoints: endpoints, log: log, now: now}
}

// row is a row of customers.
type row struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	TenantID  uuid.UUID
	UID       string
	Name      string
	Metadata  pgval.JSON[map[string]string]
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt *time.Time
}

func (row) TableName() string { return "customers" }

func (r row) customer() Customer {
	md := r.Metadata.V
	if md == nil {
		md = map[string]string{}
	}
	return Customer{ID: r.ID, UID: r.UID, Name: r.Name, Metadata: md, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// CheckUID returns EINVALID naming field unless uid is a valid uid.
func CheckUID(field, uid string) error {
	if uid == "" {
		return ferry.Invalid(field, "%s is required", field)
	}
	if len(uid) > MaxUIDLen || !uidPattern.MatchString(uid) {
		return ferry.Invalid(field, "%s must be 1-%d characters of letters, digits and . _ : @ -, starting with a letter or digit",
			field, MaxUIDLen)
	}
	return nil
}

func checkName(name string) error {
	if len(name) > MaxNameLen || !utf8.ValidString(name) {
		return ferry.Invalid("name", "name must be at most %d bytes of valid UTF-8", MaxNameLen)
	}
	return nil
}

func checkMetadata(md map[string]string) error {
	b, err := json.Marshal(md)
	if err != nil || len(b) > MaxMetadataLen {
		return ferry.Invalid("metadata", "metadata must be string values of at most %d bytes of JSON in all", MaxMetadataLen)
	}
	return nil
}

// Upsert creates the customer uid, or updates its name and metadata (and
// brings it back if it was deleted; its endpoints stay disabled until
// enabled again). created reports a new customer. Errors: EINVALID.
func (s *Service) Upsert(ctx context.Context, tenantID uuid.UUID, in Input) (c Customer, created bool, err error) {
	in.UID, in.Name = strings.TrimSpace(in.UID), strings.TrimSpace(in.Name)
	if err := CheckUID("uid", in.UID); err != nil {
		return Customer{}, false, err
	}
	if err := checkName(in.Name); err != nil {
		return Customer{}, false, err
	}
	if err := checkMetadata(in.Metadata); err != nil {
		return Customer{}, false, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	r := row{ID: uuid.New(), TenantID: tenantID, UID: in.UID, Name: in.Name, Metadata: pgval.JSON[map[string]string]{V: in.Metadata},
		CreatedAt: now, UpdatedAt: now}
	if r.Metadata.V == nil {
		r.Metadata.V = map[string]string{}
	}
	var out row
	err = s.db.WithContext(ctx).Raw(`INSERT INTO customers (id, tenant_id, uid, name, metadata, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, uid) DO UPDATE SET name = EXCLUDED.name, metadata = EXCLUDED.metadata,
			updated_at = EXCLUDED.updated_at, deleted_at = NULL
		RETURNING id, tenant_id, uid, name, metadata, created_at, updated_at, deleted_at`,
		r.ID, r.TenantID, r.UID, r.Name, r.Metadata, r.CreatedAt, r.UpdatedAt).Scan(&out).Error
	if err != nil {
		return Customer{}, false, fmt.Errorf("upsert customer: %w", err)
	}
	return out.customer(), out.ID == r.ID, nil
}

// load returns the tenant's live customer uid. Errors: ENOTFOUND.
func (s *Service) load(db *gorm.DB, tenantID uuid.UUID, uid string, lock bool) (row, error) {
	var r row
	q := db.Where("tenant_id = ? AND uid = ? AND deleted_at IS NULL", tenantID, uid)
	if lock {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	err := q.Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row{}, ferry.NotFound("customer")
	}
	if err != nil {
		return row{}, fmt.Errorf("load customer: %w", err)
	}
	return r, nil
}

// Get returns the tenant's customer uid. Errors: ENOTFOUND.
func (s *Service) Get(ctx context.Context, tenantID uuid.UUID, uid string) (Customer, error) {
	r, err := s.load(s.db.WithContext(ctx), tenantID, uid, false)
	if err != nil {
		return Customer{}, err
	}
	return r.customer(), nil
}

// Resolve returns Ferry's id for the tenant's live customer uid.
// Errors: EINVALID naming field when there is no such customer.
func (s *Service) Resolve(ctx context.Context, tenantID uuid.UUID, field, uid string) (uuid.UUID, error) {
	id, _, err := s.Lookup(ctx, tenantID, uid)
	if ferry.ErrorCode(err) == ferry.ENOTFOUND {
		return uuid.Nil, ferry.Invalid(field, "no customer has this uid (create it with PUT /customers/{uid})")
	}
	return id, err
}

// Lookup returns Ferry's id and the name of the tenant's live customer
// uid. Errors: ENOTFOUND.
func (s *Service) Lookup(ctx context.Context, tenantID uuid.UUID, uid string) (uuid.UUID, string, error) {
	r, err := s.load(s.db.WithContext(ctx), tenantID, uid, false)
	if err != nil {
		return uuid.Nil, "", err
	}
	return r.ID, r.Name, nil
}

// List returns the tenant's live customers, newest first.
// Errors: EINVALID (cursor).
func (s *Service) List(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]Customer, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []row
	if err := s.db.WithContext(ctx).Raw(`SELECT id, tenant_id, uid, name, metadata, created_at, updated_at, deleted_at FROM customers
		WHERE tenant_id = ? AND deleted_at IS NULL AND (?::timestamptz IS NULL OR (created_at, id) < (?, ?))
		ORDER BY created_at DESC, id DESC LIMIT ?`, tenantID, cur.AtPtr(), cur.At, cur.ID, pg.Size()+1).Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list customers: %w", err)
	}
	out := make([]Customer, len(rows))
	for i, r := range rows {
		out[i] = r.customer()
	}
	out, next := page.Trim(out, pg.Size(), func(c Customer) page.Cursor { return page.Cursor{At: c.CreatedAt, ID: c.ID} })
	return out, next, nil
}

// Update changes the fields p sets. Errors: ENOTFOUND, EINVALID.
func (s *Service) Update(ctx context.Context, tenantID uuid.UUID, uid string, p Patch) (Customer, error) {
	var out Customer
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		r, err := s.load(tx, tenantID, uid, true)
		if err != nil {
			return err
		}
		if p.Name != nil {
			name := strings.TrimSpace(*p.Name)
			if err := checkName(name); err != nil {
				return err
			}
			r.Name = name
		}
		if p.Metadata != nil {
			if err := checkMetadata(*p.Metadata); err != nil {
				return err
			}
			r.Metadata.V = *p.Metadata
		}
		r.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
		if err := tx.Model(&row{}).Where("id = ?", r.ID).
			Updates(map[string]any{"name": r.Name, "metadata": r.Metadata, "updated_at": r.UpdatedAt}).Error; err != nil {
			return fmt.Errorf("update customer: %w", err)
		}
		out = r.customer()
		return nil
	})
	return out, err
}

// Delete marks the customer deleted and disables its endpoints, in one
// transaction; its events, deliveries and attempts stay for the
// retention period. Errors: ENOTFOUND.
func (s *Service) Delete(ctx context.Context, tenantID uuid.UUID, uid string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		r, err := s.load(tx, tenantID, uid, true)
		if err != nil {
			return err
		}
		if err := tx.Model(&row{}).Where("id = ?", r.ID).Update("deleted_at", s.now().UTC()).Error; err != nil {
			return fmt.Errorf("delete customer: %w", err)
		}
		n, err := s.endpoints.DisableCustomerEndpoints(ctx, dbtx.Wrap(tx), tenantID, r.ID)
		if err != nil {
			return err
		}
		s.log.InfoContext(ctx, "customer deleted", "tenant_id", tenantID, "customer", uid, "endpoints_disabled", n)
		return nil
	})
}
