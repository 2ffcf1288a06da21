package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// rule is what ingest applies to one event type of a tenant: its mode
// and the latest version, whose schema is cached by hash.
type rule struct {
	typeID  uuid.UUID
	mode    Mode
	version int
	sum     [sha256.Size]byte
}

// tenantRules are a tenant's validating event types by name (at most
// MaxEventTypes).
type tenantRules map[string]rule

// Check validates an event's data against the latest schema of its
// type in the tenant's catalog, before ingest's transaction. It returns
// nothing for a type that is not in the catalog or whose validation is
// off, and for data that matches. Data that does not match is refused
// in reject mode (EINVALID on the failing path: "data/amount") and in
// warn mode is accepted: Check records the warning (sampled) and
// returns it. Errors: EINVALID, wrapped database errors.
func (s *Service) Check(ctx context.Context, tenantID uuid.UUID, eventType string, data json.RawMessage) (string, error) {
	rules, err := s.tenantRules(ctx, tenantID)
	if err != nil {
		return "", err
	}
	r, ok := rules[eventType]
	if !ok {
		return "", nil
	}
	cs, err := s.compiled(ctx, tenantID, r)
	if err != nil || cs == nil {
		return "", err
	}
	v, err := parseJSON(data)
	if err != nil {
		return "", ferry.Invalid("data", "data must be valid JSON")
	}
	fail := cs.validate(v, s.clock.Now)
	if fail == nil {
		return "", nil
	}
	msg := fmt.Sprintf("%s (schema of %s version %d)", fail.Message, eventType, r.version)
	if r.mode == ModeReject {
		return "", ferry.Invalid(fail.Field(), "%s", msg)
	}
	s.recordWarning(ctx, tenantID, eventType, r, fail.Field(), msg)
	return fail.Field() + ": " + msg, nil
}

// tenantRules returns the tenant's validating types, cached for
// Config.RulesTTL.
func (s *Service) tenantRules(ctx context.Context, tenantID uuid.UUID) (tenantRules, error) {
	now := s.clock.Now()
	if rules, ok := s.rules.Get(tenantID, now); ok {
		return rules, nil
	}
	var rows []struct {
		ID           uuid.UUID
		Name         string
		Validation   string
		Version      int
		SchemaSha256 []byte
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT t.id, t.name, t.validation, v.version, v.schema_sha256
		FROM event_types t JOIN event_type_versions v ON v.event_type_id = t.id AND v.version = t.latest_version
		WHERE t.tenant_id = ? AND t.validation <> 'off'`, tenantID).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("load validation rules: %w", err)
	}
	rules := make(tenantRules, len(rows))
	for _, r := range rows {
		var sum [sha256.Size]byte
		copy(sum[:], r.SchemaSha256)
		rules[r.Name] = rule{typeID: r.ID, mode: Mode(r.Validation), version: r.Version, sum: sum}
	}
	s.rules.Put(tenantID, rules, now)
	return rules, nil
}

// compiled returns r's compiled schema from the cache, or loads and
// compiles it. A stored schema that no longer compiles is logged and
// not validated against (nil).
func (s *Service) compiled(ctx context.Context, tenantID uuid.UUID, r rule) (*compiled, error) {
	key := schemaKey{tenant: tenantID, sum: r.sum}
	if cs, ok := s.schemas.get(key); ok {
		return cs, nil
	}
	var schema string
	res := s.db.WithContext(ctx).Raw(`SELECT schema FROM event_type_versions WHERE event_type_id = ? AND tenant_id = ? AND version = ?`,
		r.typeID, tenantID, r.version).Scan(&schema)
	if res.Error != nil {
		return nil, fmt.Errorf("load schema: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil, nil // deleted meanwhile
	}
	cs, err := compileSchema("schema", []byte(schema))
	if err != nil {
		s.log.WarnContext(ctx, "stored schema does not compile; not validating", "tenant_id", tenantID, "event_type_id", r.typeID,
			"version", r.version, "err", err)
		return nil, nil
	}
	return s.schemas.put(key, cs), nil
}

// recordWarning stores a warn-mode warning among the type's recent ones,
// at most one per type every warnEvery and one per tenant every
// warnTenantEvery in this process, so that a flood of bad events costs
// no flood of writes. A failure to store is logged, never the event's.
func (s *Service) recordWarning(ctx context.Context, tenantID uuid.UUID, name string, r rule, field, msg string) {
	now := s.clock.Now()
	key := warnKey{tenant: tenantID, name: name}
	if _, ok := s.warned.Get(key, now); ok {
		return
	}
	if _, ok := s.warnedTenant.Get(tenantID, now); ok {
		return
	}
	s.warned.Put(key, struct{}{}, now)
	s.warnedTenant.Put(tenantID, struct{}{}, now)
	err := s.db.WithContext(ctx).Exec(`WITH added AS (
			INSERT INTO event_type_warnings (event_type_id, tenant_id, version, field, message, created_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id)
		DELETE FROM event_type_warnings WHERE event_type_id = ? AND id IN (
			SELECT id FROM event_type_warnings WHERE event_type_id = ? ORDER BY id DESC OFFSET ?)`,
		r.typeID, tenantID, r.version, field, msg, s.now(), r.typeID, r.typeID, recentWarnings-1).Error
	if err != nil {
		s.log.WarnContext(ctx, "record schema warning", "tenant_id", tenantID, "event_type", name, "err", err)
	}
}
