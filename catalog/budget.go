package catalog

import (
	"errors"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Bounding the work of one validation.
//
// A small schema can make a validator do exponential work: a subschema
// that refers back to itself through two branches of anyOf doubles the
// evaluations at every level of a nested payload. The library has no
// budget of its own, so instrument gives every subschema of a compiled
// schema a Format hook, which the library calls each time it evaluates
// that subschema on a value whose type, const and enum passed (before
// it descends into the value's members and applicators; a subschema
// failing earlier does no further work). The hook charges the budget one
// step plus the value's size and, over the step limit or past the
// deadline (MaxValidationTime, checked every few hundred steps), panics with
// errOverBudget, which compiled.validate recovers. Validations of one
// compiled schema run one at a time, so the budget needs no locking.
//
// Schemas that could reach code outside the compiled graph are refused
// at compile time: references to the metaschemas (shared by the whole
// process) and $dynamicRef/$recursiveRef (resolved at run time to
// subschemas the walk may not see).

// errOverBudget aborts a validation that spent its budget.
var errOverBudget = errors.New("validation over budget")

// budget counts the steps of one validation, and every
// budgetClockEvery steps looks at the clock.
type budget struct {
	used, limit int64
	now         func() time.Time
	deadline    time.Time
	nextClock   int64
}

// budgetClockEvery is how many steps pass between looks at the clock.
const budgetClockEvery = 256

// spend charges one evaluation on v.
func (b *budget) spend(v any) {
	n := int64(1)
	switch v := v.(type) {
	case map[string]any:
		n += int64(len(v))
	case []any:
		n += int64(len(v))
	case string:
		n += int64(len(v)) / 8
	}
	b.used += n
	if b.used > b.limit {
		panic(errOverBudget)
	}
	if b.used >= b.nextClock {
		b.nextClock = b.used + budgetClockEvery
		if b.now != nil && b.now().After(b.deadline) {
			panic(errOverBudget)
		}
	}
}

// budgetFormat names the hook; format assertions are otherwise off (in
// draft 2020-12 "format" is an annotation), so no subschema has one.
const budgetFormat = "ferry-budget"

// instrument sets the budget hook on every subschema reachable from the
// root. Errors: a schema the hook cannot cover (see above).
func (cs *compiled) instrument() error {
	hook := &jsonschema.Format{Name: budgetFormat, Validate: func(v any) error {
		cs.budget.spend(v)
		return nil
	}}
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema) error
	walk = func(s *jsonschema.Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if strings.HasPrefix(s.Location, metaschemaPrefix) {
			return errors.New("a schema may not refer to the JSON Schema metaschemas")
		}
		if s.DynamicRef != nil || s.RecursiveRef != nil {
			return errors.New("$dynamicRef and $recursiveRef are not supported")
		}
		if s.Format != nil {
			return errors.New("format assertions are not supported") // never set: assertions are off
		}
		s.Format = hook
		var children []*jsonschema.Schema
		children = append(children, s.Ref, s.Not, s.If, s.Then, s.Else, s.PropertyNames, s.UnevaluatedProperties,
			s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema)
		children = append(children, s.AllOf...)
		children = append(children, s.AnyOf...)
		children = append(children, s.OneOf...)
		children = append(children, s.PrefixItems...)
		for _, c := range s.Properties {
			children = append(children, c)
		}
		for _, c := range s.PatternProperties {
			children = append(children, c)
		}
		for _, c := range s.DependentSchemas {
			children = append(children, c)
		}
		for _, c := range s.Dependencies {
			if c, ok := c.(*jsonschema.Schema); ok {
				children = append(children, c)
			}
		}
		for _, v := range []any{s.AdditionalProperties, s.AdditionalItems, s.Items} {
			switch v := v.(type) {
			case *jsonschema.Schema:
				children = append(children, v)
			case []*jsonschema.Schema:
				children = append(children, v...)
			}
		}
		for _, c := range children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(cs.schema)
}
