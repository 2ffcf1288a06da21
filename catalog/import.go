package catalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// MaxImportWebhooks bounds the webhooks of one imported document.
const MaxImportWebhooks = 100

// ImportResult says what an import did with each webhook.
type ImportResult struct {
	// Created are the new event types (with version 1).
	Created []string `json:"created" nullable:"false"`
	// Updated are existing types whose schema changed: they got a new version.
	Updated []string `json:"updated" nullable:"false"`
	// Skipped are the webhooks left alone, and why.
	Skipped []ImportSkip `json:"skipped" nullable:"false"`
}

// ImportSkip is a webhook an import left alone.
type ImportSkip struct {
	Name   string `json:"name"`   // the webhook's name in the document
	Reason string `json:"reason"` // why it was left alone, e.g. unchanged or no JSON schema
}

// componentsPrefix starts the only references an imported schema may
// hold; they become references into the version's $defs.
const componentsPrefix = "#/components/schemas/"

// ImportOpenAPI reads the webhooks section of an OpenAPI 3.1 document
// (JSON): each webhook's name is an event type, its operation's
// application/json request body schema that type's schema (with the
// components/schemas it refers to embedded as $defs), the media type's
// example and examples its examples, the operation's first tag its
// group and its summary (or description) its description. A new name
// is created; an existing type whose latest schema differs gets a new
// version; the rest are skipped with the reason. Validation modes are
// never changed. Errors: EINVALID (not an OpenAPI 3.1 document, no
// webhooks, too many), wrapped database errors.
func (s *Service) ImportOpenAPI(ctx context.Context, tenantID uuid.UUID, raw json.RawMessage) (ImportResult, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return ImportResult{}, ferry.Invalid("openapi", "the body must be an OpenAPI 3.1 document in JSON")
	}
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.1") {
		return ImportResult{}, ferry.Invalid("openapi", "openapi must be 3.1.x (webhooks are an OpenAPI 3.1 feature)")
	}
	hooks, _ := doc["webhooks"].(map[string]any)
	if len(hooks) == 0 {
		return ImportResult{}, ferry.Invalid("webhooks", "the document has no webhooks")
	}
	if len(hooks) > MaxImportWebhooks {
		return ImportResult{}, ferry.Invalid("webhooks", "at most %d webhooks per import", MaxImportWebhooks)
	}
	res := ImportResult{Created: []string{}, Updated: []string{}, Skipped: []ImportSkip{}}
	for _, name := range slices.Sorted(maps.Keys(hooks)) {
		if err := CheckName("name", name); err != nil {
			res.Skipped = append(res.Skipped, ImportSkip{Name: name, Reason: err.(*ferry.Error).Message})
			continue
		}
		in, err := webhookInput(doc, name, hooks[name])
		if err == nil {
			_, in.Schema, in.examples, err = checkVersion(VersionInput{Schema: in.Schema, Examples: in.Examples}, s.clock.Now)
		}
		if err != nil {
			res.Skipped = append(res.Skipped, ImportSkip{Name: name, Reason: reason(err)})
			continue
		}
		outcome, err := s.importOne(ctx, tenantID, in)
		var fe *ferry.Error
		switch {
		case errors.As(err, &fe):
			res.Skipped = append(res.Skipped, ImportSkip{Name: name, Reason: fe.Message})
		case err != nil:
			return res, err
		case outcome == "created":
			res.Created = append(res.Created, name)
		case outcome == "updated":
			res.Updated = append(res.Updated, name)
		default:
			res.Skipped = append(res.Skipped, ImportSkip{Name: name, Reason: outcome})
		}
	}
	if len(res.Created)+len(res.Updated) > 0 {
		s.changed(tenantID)
	}
	return res, nil
}

func reason(err error) string {
	var fe *ferry.Error
	if errors.As(err, &fe) {
		if fe.Field != "" && !strings.Contains(fe.Message, fe.Field) {
			return fe.Field + ": " + fe.Message
		}
		return fe.Message
	}
	return err.Error()
}

// importInput is one webhook turned into an event type.
type importInput struct {
	EventTypeInput
	examples [][]byte
}

// importOne stores one checked webhook: it creates the type, adds a
// version when the schema changed, or says why it did neither.
func (s *Service) importOne(ctx context.Context, tenantID uuid.UUID, in importInput) (outcome string, err error) {
	ver := &newVersion{schema: in.Schema, examples: in.examples}
	sum := sha256.Sum256(in.Schema)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.typeRow(tx, tenantID, in.Name, true)
		if ferry.ErrorCode(err) == ferry.ENOTFOUND {
			now := s.now()
			row := typeRow{ID: uuid.New(), TenantID: tenantID, Name: in.Name, GroupName: in.Group, Description: in.Description,
				Validation: string(ModeOff), CreatedAt: now, UpdatedAt: now}
			outcome = "created"
			return insertType(ctx, tx, &row, ver)
		}
		if err != nil {
			return err
		}
		var latest []byte
		if row.LatestVersion > 0 {
			if err := tx.Raw(`SELECT schema_sha256 FROM event_type_versions WHERE event_type_id = ? AND version = ?`,
				row.ID, row.LatestVersion).Row().Scan(&latest); err != nil {
				return fmt.Errorf("load latest schema: %w", err)
			}
		}
		if bytes.Equal(latest, sum[:]) {
			outcome = fmt.Sprintf("unchanged: version %d has this schema", row.LatestVersion)
			return nil
		}
		row.UpdatedAt = s.now()
		outcome = "updated"
		return insertVersion(ctx, tx, &row, ver)
	})
	return outcome, err
}

// webhookInput reads one webhook of doc. Errors: EINVALID saying what
// the webhook lacks or holds that cannot be imported.
func webhookInput(doc map[string]any, name string, item any) (importInput, error) {
	pathItem, err := resolve(doc, item, "#/components/pathItems/")
	if err != nil {
		return importInput{}, err
	}
	var op map[string]any
	for _, method := range []string{"post", "put", "patch", "delete", "get"} {
		if o, ok := pathItem[method].(map[string]any); ok && o["requestBody"] != nil {
			op = o
			break
		}
	}
	if op == nil {
		return importInput{}, ferry.Invalid("webhooks", "no operation with a requestBody")
	}
	body, err := resolve(doc, op["requestBody"], "#/components/requestBodies/")
	if err != nil {
		return importInput{}, err
	}
	content, _ := body["content"].(map[string]any)
	var media map[string]any
	for _, ct := range slices.Sorted(maps.Keys(content)) {
		base, _, _ := strings.Cut(strings.ToLower(ct), ";")
		if strings.TrimSpace(base) == "application/json" || strings.HasSuffix(strings.TrimSpace(base), "+json") {
			media, _ = content[ct].(map[string]any)
			break
		}
	}
	if media == nil || media["schema"] == nil {
		return importInput{}, ferry.Invalid("webhooks", "no application/json request body schema")
	}
	schema, err := embedComponents(doc, media["schema"])
	if err != nil {
		return importInput{}, err
	}
	in := importInput{EventTypeInput: EventTypeInput{Name: name, Validation: ModeOff}}
	if in.Schema, err = json.Marshal(schema); err != nil {
		return importInput{}, ferry.Invalid("webhooks", "schema: %v", err)
	}
	if ex, ok := media["example"]; ok {
		b, err := json.Marshal(ex)
		if err != nil {
			return importInput{}, ferry.Invalid("webhooks", "example: %v", err)
		}
		in.Examples = append(in.Examples, b)
	}
	examples, _ := media["examples"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(examples)) {
		ex, err := resolve(doc, examples[k], "#/components/examples/")
		if err != nil {
			return importInput{}, err
		}
		if v, ok := ex["value"]; ok {
			b, err := json.Marshal(v)
			if err != nil {
				return importInput{}, ferry.Invalid("webhooks", "example %s: %v", k, err)
			}
			in.Examples = append(in.Examples, b)
		}
	}
	if tags, _ := op["tags"].([]any); len(tags) > 0 {
		in.Group, _ = tags[0].(string)
	}
	in.Description, _ = op["summary"].(string)
	if in.Description == "" {
		in.Description, _ = op["description"].(string)
	}
	in.Group = clipRunes(in.Group, maxGroup)
	in.Description = clipRunes(in.Description, maxDescription)
	return in, nil
}

// resolve returns v as an object, following one $ref into the document
// when it starts with prefix.
func resolve(doc map[string]any, v any, prefix string) (map[string]any, error) {
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		if !strings.HasPrefix(ref, prefix) {
			return nil, ferry.Invalid("webhooks", "unsupported $ref %q (only %s…)", clip(ref), prefix)
		}
		target, err := pointer(doc, strings.TrimPrefix(ref, "#"))
		if err != nil {
			return nil, err
		}
		m, _ = target.(map[string]any)
	}
	if m == nil {
		return nil, ferry.Invalid("webhooks", "expected an object")
	}
	return m, nil
}

// pointer follows a JSON pointer ("/components/schemas/Name") in doc.
func pointer(doc any, ptr string) (any, error) {
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, ferry.Invalid("webhooks", "$ref #%s does not resolve", clip(ptr))
		}
		if cur, ok = m[tok]; !ok {
			return nil, ferry.Invalid("webhooks", "$ref #%s does not resolve", clip(ptr))
		}
	}
	return cur, nil
}

// embedComponents returns schema as a standalone draft 2020-12 schema:
// every $ref into #/components/schemas/ becomes a $ref into #/$defs/,
// and the components it reaches (transitively) are copied into $defs.
// Any other $ref cannot be imported. Errors: EINVALID.
func embedComponents(doc map[string]any, schema any) (any, error) {
	components, _ := pointerOrNil(doc, "/components/schemas").(map[string]any)
	defs := map[string]any{}
	var pending []string
	var rewrite func(v any) (any, error)
	rewrite = func(v any) (any, error) {
		switch v := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				if ref, ok := x.(string); ok && k == "$ref" {
					if !strings.HasPrefix(ref, componentsPrefix) {
						return nil, ferry.Invalid("webhooks", "unsupported $ref %q (only %s…)", clip(ref), componentsPrefix)
					}
					rest := strings.TrimPrefix(ref, componentsPrefix)
					name, _, _ := strings.Cut(rest, "/")
					name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
					if _, ok := components[name]; !ok {
						return nil, ferry.Invalid("webhooks", "$ref %q: no such schema", clip(ref))
					}
					if _, ok := defs[name]; !ok {
						defs[name] = nil // reserved; filled below
						pending = append(pending, name)
					}
					out[k] = "#/$defs/" + rest
					continue
				}
				y, err := rewrite(x)
				if err != nil {
					return nil, err
				}
				out[k] = y
			}
			return out, nil
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				y, err := rewrite(x)
				if err != nil {
					return nil, err
				}
				out[i] = y
			}
			return out, nil
		default:
			return v, nil
		}
	}
	root, err := rewrite(schema)
	if err != nil {
		return nil, err
	}
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		if defs[name], err = rewrite(components[name]); err != nil {
			return nil, err
		}
	}
	obj, ok := root.(map[string]any)
	if !ok {
		obj = map[string]any{"allOf": []any{root}}
	}
	obj["$schema"] = Dialect // an OpenAPI dialect names its own metaschema
	if len(defs) > 0 {
		own, _ := obj["$defs"].(map[string]any)
		for k, v := range own {
			if _, clash := defs[k]; clash {
				return nil, ferry.Invalid("webhooks", "$defs/%s clashes with components/schemas/%s", k, k)
			}
			defs[k] = v
		}
		obj["$defs"] = defs
	}
	return obj, nil
}

func pointerOrNil(doc any, ptr string) any {
	v, err := pointer(doc, ptr)
	if err != nil {
		return nil
	}
	return v
}

// clipRunes cuts s to at most n characters.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// MarshalJSON writes empty lists as [], never null.
func (r ImportResult) MarshalJSON() ([]byte, error) {
	type plain ImportResult
	if r.Created == nil {
		r.Created = []string{}
	}
	if r.Updated == nil {
		r.Updated = []string{}
	}
	if r.Skipped == nil {
		r.Skipped = []ImportSkip{}
	}
	return json.Marshal(plain(r))
}
