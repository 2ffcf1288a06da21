package catalog

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/ttlcache"
	"github.com/ferry-dev/ferry/page"
)

// Config tunes the Service; zero values take the defaults.
type Config struct {
	// RulesTTL is how long a process uses a tenant's validation rules
	// before reading them again (default 5 s): a change made through
	// another replica takes effect there within it; through this one, at
	// once.
	RulesTTL time.Duration
	// CacheBytes and TenantCacheBytes bound the compiled schemas kept
	// (defaults DefaultCacheBytes, DefaultTenantCacheBytes).
	CacheBytes, TenantCacheBytes int64
}

// Per-process bounds of the small caches.
const (
	// maxRuleTenants bounds the tenants whose rules are cached; each
	// tenant's entry holds at most MaxEventTypes rules.
	maxRuleTenants = 10_000
	// warnEvery is how often one event type's warning is recorded at
	// most, and warnTenantEvery one tenant's (per process).
	warnEvery       = time.Second
	warnTenantEvery = 100 * time.Millisecond
	maxWarnKeys     = 10_000
)

// Service is the event-type catalog.
type Service struct {
	db    *gorm.DB
	cfg   Config
	log   *slog.Logger
	clock clock.Clock

	rules   *ttlcache.Cache[uuid.UUID, tenantRules]
	schemas *schemaCache
	// warned and warnedTenant sample warnings before they are written.
	warned       *ttlcache.Cache[warnKey, struct{}]
	warnedTenant *ttlcache.Cache[uuid.UUID, struct{}]
}

type warnKey struct {
	tenant uuid.UUID
	name   string
}

// New returns a Service. clk may be nil (the system clock).
func New(db *gorm.DB, cfg Config, log *slog.Logger, clk clock.Clock) (*Service, error) {
	if db == nil || log == nil {
		return nil, errors.New("catalog.New: db and log are required")
	}
	cfg.RulesTTL = cmp.Or(cfg.RulesTTL, 5*time.Second)
	cfg.CacheBytes = cmp.Or(cfg.CacheBytes, DefaultCacheBytes)
	cfg.TenantCacheBytes = cmp.Or(cfg.TenantCacheBytes, DefaultTenantCacheBytes)
	if cfg.RulesTTL < 0 || cfg.CacheBytes < 0 || cfg.TenantCacheBytes < 0 {
		return nil, errors.New("catalog.New: negative config value")
	}
	return &Service{db: db, cfg: cfg, log: log, clock: clock.Or(clk),
		rules:        ttlcache.New[uuid.UUID, tenantRules](cfg.RulesTTL, maxRuleTenants),
		schemas:      newSchemaCache(cfg.CacheBytes, cfg.TenantCacheBytes),
		warned:       ttlcache.New[warnKey, struct{}](warnEvery, maxWarnKeys),
		warnedTenant: ttlcache.New[uuid.UUID, struct{}](warnTenantEvery, maxWarnKeys),
	}, nil
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// changed drops the tenant's cached rules after a write in this process.
func (s *Service) changed(tenantID uuid.UUID) { s.rules.Forget(tenantID, nil) }

// CreateEventType adds an event type to the tenant's catalog, with
// version 1 when in has a schema. Errors: EINVALID, ECONFLICT (the name
// exists), wrapped database errors.
func (s *Service) CreateEventType(ctx context.Context, tenantID uuid.UUID, in EventTypeInput) (EventType, error) {
	if err := in.validate(); err != nil {
		return EventType{}, err
	}
	var ver *newVersion
	if len(in.Schema) > 0 {
		_, schema, examples, err := checkVersion(VersionInput{Schema: in.Schema, Examples: in.Examples}, s.clock.Now)
		if err != nil {
			return EventType{}, err
		}
		ver = &newVersion{schema: schema, examples: examples}
	}
	now := s.now()
	row := typeRow{ID: uuid.New(), TenantID: tenantID, Name: in.Name, GroupName: in.Group, Description: in.Description,
		Validation: string(in.Validation), CreatedAt: now, UpdatedAt: now}
	if in.Deprecated {
		row.DeprecatedAt = &now
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return insertType(ctx, tx, &row, ver)
	})
	if err != nil {
		return EventType{}, err
	}
	s.changed(tenantID)
	return s.EventType(ctx, tenantID, in.Name)
}

// newVersion is a checked version about to be stored.
type newVersion struct {
	schema   []byte
	examples [][]byte
}

// insertType stores row (and its version 1) in tx, within the tenant's
// bound on types. Errors: EINVALID (the bound), ECONFLICT.
func insertType(ctx context.Context, tx *gorm.DB, row *typeRow, ver *newVersion) error {
	if err := lockCatalog(tx, row.TenantID); err != nil {
		return err
	}
	var n int64
	if err := tx.Table("event_types").Where("tenant_id = ?", row.TenantID).Count(&n).Error; err != nil {
		return fmt.Errorf("count event types: %w", err)
	}
	if n >= MaxEventTypes {
		return ferry.Invalid("name", "a catalog holds at most %d event types", MaxEventTypes)
	}
	res := tx.Exec(`INSERT INTO event_types (id, tenant_id, name, group_name, description, validation, deprecated_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, name) DO NOTHING`,
		row.ID, row.TenantID, row.Name, row.GroupName, row.Description, row.Validation, row.DeprecatedAt, row.CreatedAt, row.UpdatedAt)
	if res.Error != nil {
		return fmt.Errorf("insert event type: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.Errorf(ferry.ECONFLICT, "event type %s exists", row.Name)
	}
	if ver != nil {
		return insertVersion(ctx, tx, row, ver)
	}
	return nil
}

// lockCatalog serialises the transactions that add to one tenant's
// catalog, so that its bound holds.
func lockCatalog(tx *gorm.DB, tenantID uuid.UUID) error {
	if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended(?, 0))`, "catalog:"+tenantID.String()).Error; err != nil {
		return fmt.Errorf("lock catalog: %w", err)
	}
	return nil
}

// insertVersion stores ver as row's next version and moves its latest
// version on. Errors: EINVALID (MaxVersions).
func insertVersion(ctx context.Context, tx *gorm.DB, row *typeRow, ver *newVersion) error {
	if row.LatestVersion >= MaxVersions {
		return ferry.Invalid("schema", "an event type has at most %d versions", MaxVersions)
	}
	examples, err := json.Marshal(rawList(ver.examples))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(ver.schema)
	next := row.LatestVersion + 1
	if err := tx.Exec(`INSERT INTO event_type_versions (event_type_id, tenant_id, version, schema, schema_sha256, examples, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, row.ID, row.TenantID, next, string(ver.schema), sum[:], string(examples), row.UpdatedAt).Error; err != nil {
		return fmt.Errorf("insert event type version: %w", err)
	}
	if err := tx.Exec(`UPDATE event_types SET latest_version = ?, updated_at = ? WHERE id = ?`, next, row.UpdatedAt, row.ID).Error; err != nil {
		return fmt.Errorf("update event type: %w", err)
	}
	row.LatestVersion = next
	return nil
}

func rawList(items [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, b := range items {
		out[i] = b
	}
	return out
}

// ListEventTypes returns a page of the tenant's event types (without
// versions), newest first, and the next cursor. Errors: EINVALID
// (cursor).
func (s *Service) ListEventTypes(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]EventType, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []typeRow
	if err := s.db.WithContext(ctx).Where("tenant_id = ?", tenantID).
		Where("(?::timestamptz IS NULL OR (created_at, id) < (?, ?))", cur.AtPtr(), cur.At, cur.ID).
		Order("created_at DESC, id DESC").Limit(pg.Size() + 1).Find(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list event types: %w", err)
	}
	rows, next := page.Trim(rows, pg.Size(), func(r typeRow) page.Cursor { return page.Cursor{At: r.CreatedAt, ID: r.ID} })
	out := make([]EventType, len(rows))
	for i, r := range rows {
		out[i] = r.eventType()
	}
	return out, next, nil
}

// EventType returns one event type with its versions (newest first) and
// recent warnings. Errors: ENOTFOUND, wrapped database errors.
func (s *Service) EventType(ctx context.Context, tenantID uuid.UUID, name string) (EventType, error) {
	row, err := s.typeRow(s.db.WithContext(ctx), tenantID, name, false)
	if err != nil {
		return EventType{}, err
	}
	et := row.eventType()
	var vers []versionRow
	if err := s.db.WithContext(ctx).Where("event_type_id = ? AND tenant_id = ?", row.ID, tenantID).
		Order("version DESC").Find(&vers).Error; err != nil {
		return EventType{}, fmt.Errorf("load event type versions: %w", err)
	}
	et.Versions = make([]Version, 0, len(vers))
	for _, v := range vers {
		ver, err := v.version()
		if err != nil {
			return EventType{}, err
		}
		et.Versions = append(et.Versions, ver)
	}
	var warns []warningRow
	if err := s.db.WithContext(ctx).Where("event_type_id = ? AND tenant_id = ?", row.ID, tenantID).
		Order("id DESC").Limit(recentWarnings).Find(&warns).Error; err != nil {
		return EventType{}, fmt.Errorf("load event type warnings: %w", err)
	}
	for _, w := range warns {
		et.RecentWarnings = append(et.RecentWarnings, Warning{Version: w.Version, Field: w.Field, Message: w.Message, At: w.CreatedAt})
	}
	return et, nil
}

// typeRow loads the tenant's event type name, locked for update when
// lock is set. Errors: ENOTFOUND.
func (s *Service) typeRow(db *gorm.DB, tenantID uuid.UUID, name string, lock bool) (typeRow, error) {
	q := db.Where("tenant_id = ? AND name = ?", tenantID, name)
	if lock {
		q = q.Clauses(forUpdate)
	}
	var row typeRow
	res := q.Limit(1).Find(&row)
	if res.Error != nil {
		return typeRow{}, fmt.Errorf("load event type: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return typeRow{}, ferry.NotFound("event type")
	}
	return row, nil
}

// UpdateEventType applies patch. Errors: ENOTFOUND, EINVALID (among
// them: warn or reject on a type with no version).
func (s *Service) UpdateEventType(ctx context.Context, tenantID uuid.UUID, name string, patch EventTypePatch) (EventType, error) {
	if err := patch.validate(); err != nil {
		return EventType{}, err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.typeRow(tx, tenantID, name, true)
		if err != nil {
			return err
		}
		now := s.now()
		set := map[string]any{"updated_at": now}
		if patch.Group != nil {
			set["group_name"] = *patch.Group
		}
		if patch.Description != nil {
			set["description"] = *patch.Description
		}
		if patch.Validation != nil {
			if *patch.Validation != ModeOff && row.LatestVersion == 0 {
				return ferry.Invalid("validation", "validation %s needs a version with a schema", *patch.Validation)
			}
			set["validation"] = string(*patch.Validation)
		}
		if patch.Deprecated != nil {
			switch {
			case *patch.Deprecated && row.DeprecatedAt == nil:
				set["deprecated_at"] = now
			case !*patch.Deprecated:
				set["deprecated_at"] = nil
			}
		}
		if err := tx.Table("event_types").Where("id = ?", row.ID).Updates(set).Error; err != nil {
			return fmt.Errorf("update event type: %w", err)
		}
		return nil
	})
	if err != nil {
		return EventType{}, err
	}
	s.changed(tenantID)
	return s.EventType(ctx, tenantID, name)
}

// DeleteEventType removes an event type with its versions: its events
// are no longer validated. Errors: ENOTFOUND.
func (s *Service) DeleteEventType(ctx context.Context, tenantID uuid.UUID, name string) error {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM event_types WHERE tenant_id = ? AND name = ?`, tenantID, name)
	if res.Error != nil {
		return fmt.Errorf("delete event type: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("event type")
	}
	s.changed(tenantID)
	return nil
}

// AddVersion adds a version to an event type: ingest validates against
// it from now on. Errors: ENOTFOUND, EINVALID.
func (s *Service) AddVersion(ctx context.Context, tenantID uuid.UUID, name string, in VersionInput) (Version, error) {
	_, schema, examples, err := checkVersion(in, s.clock.Now)
	if err != nil {
		return Version{}, err
	}
	var ver Version
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.typeRow(tx, tenantID, name, true)
		if err != nil {
			return err
		}
		row.UpdatedAt = s.now()
		if err := insertVersion(ctx, tx, &row, &newVersion{schema: schema, examples: examples}); err != nil {
			return err
		}
		ver = Version{Version: row.LatestVersion, Schema: schema, Examples: rawList(examples), CreatedAt: row.UpdatedAt}
		return nil
	})
	if err != nil {
		return Version{}, err
	}
	s.changed(tenantID)
	return ver, nil
}
