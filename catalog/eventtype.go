package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferry-dev/ferry"
)

// Catalog bounds (docs/contract.md#limits).
const (
	// maxNameLen is the longest event type name: the same rule as an
	// event's type (docs/contract.md, delivery.maxEventTypeLen).
	maxNameLen = 100
	// maxGroup and maxDescription bound the descriptive fields, in
	// characters.
	maxGroup       = 100
	maxDescription = 1000
	// MaxEventTypes bounds a tenant's catalog.
	MaxEventTypes = 1000
	// MaxVersions bounds one event type's versions.
	MaxVersions = 50
	// recentWarnings is how many validation warnings an event type keeps.
	recentWarnings = 20
)

// namePattern is an event type's name rule, as for events' types (the
// catalog does not import delivery; docs/contract.md states both).
var namePattern = regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9][A-Za-z0-9._:\-/]{0,%d}$`, maxNameLen-1))

// Mode says what ingest does with an event whose data does not match its
// type's latest schema.
type Mode string

// Validation modes.
const (
	ModeOff    Mode = "off"    // no validation
	ModeWarn   Mode = "warn"   // accepted; the answer and the type's recent warnings say why it does not match
	ModeReject Mode = "reject" // refused with 422 naming the failing path
)

func (m Mode) valid() bool { return m == ModeOff || m == ModeWarn || m == ModeReject }

// EventType is one entry of a tenant's catalog.
type EventType struct {
	Name        string `json:"name"`        // the event type's name, e.g. invoice.paid
	Group       string `json:"group"`       // a heading the portal groups types under; may be empty
	Description string `json:"description"` // what the event means, for readers of the portal
	// Validation is what ingest does with data that does not match the
	// latest version's schema.
	Validation Mode `json:"validation" enum:"off,warn,reject"`
	Deprecated bool `json:"deprecated"` // events of the type are still accepted; the portal marks it
	// DeprecatedAt is when the type was marked deprecated.
	DeprecatedAt *time.Time `json:"deprecated_at"`
	// LatestVersion is the highest version number (0: no version yet).
	LatestVersion int `json:"latest_version"`
	// Versions are the type's versions, newest first (left out of lists).
	Versions []Version `json:"versions,omitempty" description:"newest first; only in GET /event-types/{name}"`
	// RecentWarnings are the latest validation warnings in warn mode.
	RecentWarnings []Warning `json:"recent_warnings,omitempty" description:"latest validation warnings (warn mode), newest first; only in GET /event-types/{name}"`
	CreatedAt      time.Time `json:"created_at"` // when the type was added to the catalog
	UpdatedAt      time.Time `json:"updated_at"` // when the type or its versions last changed
}

// Version is one numbered schema of an event type with its examples.
type Version struct {
	Version   int               `json:"version"` // the version number, from 1
	Schema    json.RawMessage   `json:"schema" description:"JSON Schema draft 2020-12"`
	Examples  []json.RawMessage `json:"examples" nullable:"false"` // example payloads, each matching the schema
	CreatedAt time.Time         `json:"created_at"`                // when the version was added
}

// Warning is a validation warning recorded in warn mode (sampled: at
// most one per type per second in each process).
type Warning struct {
	Version int       `json:"version"` // the version whose schema the data failed
	Field   string    `json:"field" description:"the failing value, e.g. data/amount"`
	Message string    `json:"message"` // the validator's message
	At      time.Time `json:"at"`      // when the event was accepted with the warning
}

// EventTypeInput creates an event type, with its first version when
// schema is given.
type EventTypeInput struct {
	Name        string            `json:"name"`        // the type's name: 1-100 letters, digits and . _ : - /; not ferry.*
	Group       string            `json:"group"`       // a heading the portal groups types under
	Description string            `json:"description"` // what the event means, for readers of the portal
	Validation  Mode              `json:"validation" enum:"off,warn,reject" description:"default off; warn and reject need a schema"`
	Deprecated  bool              `json:"deprecated"` // mark the type deprecated (events are still accepted)
	Schema      json.RawMessage   `json:"schema,omitempty" description:"JSON Schema draft 2020-12 of version 1"`
	Examples    []json.RawMessage `json:"examples,omitempty" description:"example payloads of version 1; each must match the schema"`
}

// EventTypePatch changes an event type; absent fields stay.
type EventTypePatch struct {
	Group       *string `json:"group,omitempty"`                             // a new group
	Description *string `json:"description,omitempty"`                       // a new description
	Validation  *Mode   `json:"validation,omitempty" enum:"off,warn,reject"` // what ingest does with data that does not match the latest schema
	Deprecated  *bool   `json:"deprecated,omitempty"`                        // true marks the type deprecated, false lifts the mark
}

// VersionInput adds a version.
type VersionInput struct {
	Schema   json.RawMessage   `json:"schema" description:"JSON Schema draft 2020-12" required:"true"`
	Examples []json.RawMessage `json:"examples,omitempty" description:"each must match the schema"`
}

// CheckName validates an event type name. Errors: EINVALID on field.
func CheckName(field, name string) error {
	if !namePattern.MatchString(name) {
		return ferry.Invalid(field, "%s must be 1-%d characters of letters, digits and . _ : - /", field, maxNameLen)
	}
	if strings.HasPrefix(name, "ferry.") {
		return ferry.Invalid(field, "types starting with \"ferry.\" are reserved for Ferry's own events")
	}
	return nil
}

func checkText(field, v string, max int) error {
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > max {
		return ferry.Invalid(field, "%s must be at most %d characters of valid UTF-8", field, max)
	}
	return nil
}

func (in *EventTypeInput) validate() error {
	in.Name = strings.TrimSpace(in.Name)
	if err := CheckName("name", in.Name); err != nil {
		return err
	}
	if err := checkText("group", in.Group, maxGroup); err != nil {
		return err
	}
	if err := checkText("description", in.Description, maxDescription); err != nil {
		return err
	}
	if in.Validation == "" {
		in.Validation = ModeOff
	}
	if !in.Validation.valid() {
		return ferry.Invalid("validation", "validation must be off, warn or reject")
	}
	if in.Validation != ModeOff && len(in.Schema) == 0 {
		return ferry.Invalid("validation", "validation %s needs a schema", in.Validation)
	}
	if len(in.Schema) == 0 && len(in.Examples) > 0 {
		return ferry.Invalid("examples", "examples need a schema")
	}
	return nil
}

func (p *EventTypePatch) validate() error {
	if p.Group != nil {
		if err := checkText("group", *p.Group, maxGroup); err != nil {
			return err
		}
	}
	if p.Description != nil {
		if err := checkText("description", *p.Description, maxDescription); err != nil {
			return err
		}
	}
	if p.Validation != nil && !p.Validation.valid() {
		return ferry.Invalid("validation", "validation must be off, warn or reject")
	}
	return nil
}

// checkVersion compiles in's schema and checks each example against it;
// it returns the compiled schema and the schema and examples compacted.
// Errors: EINVALID on schema or examples/<i>.
func checkVersion(in VersionInput, now func() time.Time) (*compiled, []byte, [][]byte, error) {
	cs, err := compileSchema("schema", in.Schema)
	if err != nil {
		return nil, nil, nil, err
	}
	schema, err := compact(in.Schema)
	if err != nil {
		return nil, nil, nil, ferry.Invalid("schema", "schema must be valid JSON")
	}
	if len(in.Examples) > MaxExamples {
		return nil, nil, nil, ferry.Invalid("examples", "at most %d examples", MaxExamples)
	}
	examples := make([][]byte, 0, len(in.Examples))
	for i, ex := range in.Examples {
		field := fmt.Sprintf("examples/%d", i)
		if len(ex) > MaxExampleBytes {
			return nil, nil, nil, ferry.Invalid(field, "an example must be at most %s", ferry.FormatBytes(MaxExampleBytes))
		}
		b, err := compact(ex)
		if err != nil {
			return nil, nil, nil, ferry.Invalid(field, "an example must be valid JSON")
		}
		v, err := parseJSON(b)
		if err != nil {
			return nil, nil, nil, ferry.Invalid(field, "an example must be valid JSON")
		}
		if fail := cs.validate(v, now); fail != nil {
			return nil, nil, nil, ferry.Invalid(field, "example %d does not match the schema at %s: %s", i, fail.Field(), fail.Message)
		}
		examples = append(examples, b)
	}
	return cs, schema, examples, nil
}

// compact returns raw without insignificant space. Postgres's jsonb
// refuses \u0000, so it is refused here with the other invalid JSON.
func compact(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, bytes.TrimSpace(raw)); err != nil {
		return nil, err
	}
	if b.Len() == 0 || bytes.Contains(b.Bytes(), []byte(`\u0000`)) {
		return nil, errors.New("invalid JSON")
	}
	return b.Bytes(), nil
}

// MarshalJSON writes no examples as [], never null.
func (v Version) MarshalJSON() ([]byte, error) {
	type plain Version
	if v.Examples == nil {
		v.Examples = []json.RawMessage{}
	}
	return json.Marshal(plain(v))
}
