package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/ferry-dev/ferry"
)

// Schema and example bounds (docs/contract.md#limits).
const (
	// MaxSchemaBytes bounds one version's JSON Schema.
	MaxSchemaBytes = 64 << 10
	// MaxExampleBytes bounds one example payload.
	MaxExampleBytes = 16 << 10
	// MaxExamples bounds the examples of one version.
	MaxExamples = 10
	// MaxValidationSteps bounds the work of validating one payload: each
	// schema evaluated on a value costs one step plus the value's size
	// (members, items, or eighths of its bytes). A payload that needs
	// more fails validation (budget.go).
	MaxValidationSteps = 1_000_000
	// MaxValidationTime bounds the wall-clock time of validating one
	// payload, whatever its steps cost.
	MaxValidationTime = 50 * time.Millisecond
	// maxMessage bounds a validation message passed on to the client.
	maxMessage = 300
)

// Dialect is the only JSON Schema dialect the catalog accepts, and the
// one a schema without $schema is read as.
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// schemaURL is where a tenant's schema sits while it is compiled: its
// own $refs resolve against it, and nothing outside it may be loaded.
const schemaURL = "https://ferry.invalid/event-type.json"

// metaschemaPrefix starts the metaschemas the library knows without
// loading them; a tenant's schema may not refer to them (they are
// shared by every compiled schema of the process).
const metaschemaPrefix = "https://json-schema.org/"

// errNoLoading refuses every $ref outside the schema itself: no file,
// no network.
var errNoLoading = errors.New("references outside the schema are not allowed")

type noLoader struct{}

func (noLoader) Load(string) (any, error) { return nil, errNoLoading }

// compiled is a schema ready to validate. Its validations run one at a
// time: the budget that bounds them is one counter, reached by the
// library through the Format hook set on every subschema (budget.go).
// Other event types and other tenants have their own compiled schemas.
type compiled struct {
	schema *jsonschema.Schema
	// size is the schema's length in bytes (the cache's cost estimate).
	size int

	mu     sync.Mutex
	budget budget
}

// parseJSON decodes JSON the way the validator wants it (numbers as
// json.Number, so large integers keep their precision).
func parseJSON(raw []byte) (any, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return v, nil
}

// compileSchema compiles raw as a draft 2020-12 schema. Errors: EINVALID
// on field when raw is too large, not JSON, not a valid schema, refers
// to anything outside itself, or uses $dynamicRef.
func compileSchema(field string, raw []byte) (*compiled, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ferry.Invalid(field, "%s is required", field)
	}
	if len(raw) > MaxSchemaBytes {
		return nil, ferry.Invalid(field, "%s must be at most %s", field, ferry.FormatBytes(MaxSchemaBytes))
	}
	doc, err := parseJSON(raw)
	if err != nil {
		return nil, ferry.Invalid(field, "%s must be valid JSON", field)
	}
	switch d := doc.(type) {
	case bool:
	case map[string]any:
		if s, ok := d["$schema"]; ok && s != Dialect {
			return nil, ferry.Invalid(field, "%s must be JSON Schema draft 2020-12 ($schema %q or none)", field, Dialect)
		}
	default:
		return nil, ferry.Invalid(field, "%s must be a JSON object or boolean", field)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, ferry.Invalid(field, "%s is not a valid JSON Schema: %s", field, clip(err.Error()))
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, ferry.Invalid(field, "%s is not a valid JSON Schema: %s", field, compileMessage(err))
	}
	cs := &compiled{schema: sch, size: len(raw)}
	if err := cs.instrument(); err != nil {
		return nil, ferry.Invalid(field, "%s: %s", field, err.Error())
	}
	return cs, nil
}

// compileMessage says briefly why a schema did not compile.
func compileMessage(err error) string {
	if errors.Is(err, errNoLoading) {
		return errNoLoading.Error()
	}
	var sv *jsonschema.SchemaValidationError
	if errors.As(err, &sv) {
		var ve *jsonschema.ValidationError
		if errors.As(sv.Err, &ve) {
			path, msg := firstError(ve)
			if path == "" {
				return clip(msg)
			}
			return clip("at " + path + ": " + msg)
		}
	}
	return clip(strings.ReplaceAll(err.Error(), schemaURL, "schema"))
}

// failure is why a payload does not match a schema: the JSON pointer of
// the failing value inside data ("" for data itself) and the message.
type failure struct {
	Path    string
	Message string
}

// Field names the failing value as the API's error field: "data" or
// "data/amount".
func (f *failure) Field() string {
	if f.Path == "" {
		return "data"
	}
	return "data" + f.Path
}

// validate checks the decoded payload v. It returns nil when v matches;
// otherwise the first error the library reports, or a failure saying the
// payload needs more than MaxValidationSteps or MaxValidationTime by
// now (nil: only the steps are bounded).
func (cs *compiled) validate(v any, now func() time.Time) (fail *failure) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.budget = budget{limit: MaxValidationSteps, now: now}
	if now != nil {
		cs.budget.deadline = now().Add(MaxValidationTime)
	}
	defer func() {
		if r := recover(); r != nil {
			if r != errOverBudget {
				panic(r)
			}
			fail = &failure{Message: fmt.Sprintf("data is too costly to validate against this schema (over %d steps or %s)",
				MaxValidationSteps, MaxValidationTime)}
		}
	}()
	err := cs.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &failure{Message: clip(err.Error())}
	}
	path, msg := firstError(ve)
	return &failure{Path: path, Message: clip(msg)}
}

var printer = message.NewPrinter(language.English)

// firstError follows the first cause down to a leaf: the most precise
// error, as a JSON pointer ("" or "/a/0") and a message.
func firstError(ve *jsonschema.ValidationError) (path, msg string) {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	var b strings.Builder
	for _, tok := range ve.InstanceLocation {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
	}
	return b.String(), ve.ErrorKind.LocalizedString(printer)
}

// clip bounds a message passed on to a client.
func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
