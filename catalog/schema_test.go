package catalog

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
)

func TestCompileSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		err    string // substring of the EINVALID message; "" = compiles
	}{
		{name: "object", schema: `{"type":"object","properties":{"amount":{"type":"integer"}},"required":["amount"]}`},
		{name: "boolean", schema: `true`},
		{name: "explicit dialect", schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"}`},
		{name: "local refs", schema: `{"$defs":{"money":{"type":"integer"}},"properties":{"amount":{"$ref":"#/$defs/money"}}}`},
		{name: "recursive tree", schema: `{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#"}}}}`},
		{name: "empty", schema: ``, err: "required"},
		{name: "not json", schema: `{"type":`, err: "valid JSON"},
		{name: "array", schema: `[1]`, err: "object or boolean"},
		{name: "old draft", schema: `{"$schema":"http://json-schema.org/draft-07/schema#"}`, err: "draft 2020-12"},
		{name: "bad keyword value", schema: `{"type":"nope"}`, err: "not a valid JSON Schema"},
		{name: "bad minimum", schema: `{"minimum":"x"}`, err: "not a valid JSON Schema"},
		{name: "bad pattern", schema: `{"pattern":"("}`, err: "not a valid JSON Schema"},
		{name: "remote ref", schema: `{"$ref":"https://example.com/s.json"}`, err: "outside the schema"},
		{name: "file ref", schema: `{"$ref":"file:///etc/passwd"}`, err: "outside the schema"},
		{name: "dangling ref", schema: `{"$ref":"#/$defs/nope"}`, err: "not a valid JSON Schema"},
		{name: "metaschema ref", schema: `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, err: "metaschema"},
		{name: "dynamic ref", schema: `{"$dynamicAnchor":"n","properties":{"a":{"$dynamicRef":"#n"}}}`, err: "$dynamicRef"},
		{name: "too large", schema: `{"description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`, err: "at most 64 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cs, err := compileSchema("schema", []byte(tt.schema))
			if tt.err == "" {
				require.NoError(t, err)
				require.NotNil(t, cs)
				return
			}
			require.Error(t, err)
			require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))
			require.Equal(t, "schema", err.(*ferry.Error).Field)
			require.Contains(t, err.(*ferry.Error).Message, tt.err)
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	schema := `{"type":"object","required":["amount"],"properties":{
		"amount":{"type":"integer","minimum":0},
		"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string","pattern":"^[A-Z]+$"}}}},
		"a/b":{"type":"string"}}}`
	cs, err := compileSchema("schema", []byte(schema))
	require.NoError(t, err)
	tests := []struct {
		name, data, path, msg string
		ok                    bool
	}{
		{name: "valid", data: `{"amount":4200}`, ok: true},
		{name: "big integer", data: `{"amount":123456789012345678901234567890}`, ok: true},
		{name: "missing", data: `{}`, path: "", msg: "missing property 'amount'"},
		{name: "wrong type", data: `{"amount":"x"}`, path: "/amount", msg: "got string, want integer"},
		{name: "minimum", data: `{"amount":-1}`, path: "/amount", msg: "minimum"},
		{name: "nested", data: `{"amount":1,"lines":[{"sku":"AB"},{"sku":"ab"}]}`, path: "/lines/1/sku", msg: "does not match pattern"},
		{name: "escaped key", data: `{"amount":1,"a/b":2}`, path: "/a~1b", msg: "want string"},
		{name: "root type", data: `[]`, path: "", msg: "want object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := parseJSON([]byte(tt.data))
			require.NoError(t, err)
			fail := cs.validate(v, time.Now)
			if tt.ok {
				require.Nil(t, fail)
				return
			}
			require.NotNil(t, fail)
			require.Equal(t, tt.path, fail.Path)
			require.Contains(t, fail.Message, tt.msg)
		})
	}
}

// TestValidationIsBounded: a schema that doubles its evaluations at
// every level of a nested payload (2^40 without a bound) and one that
// doubles them through a chain of definitions both stop at the budget.
func TestValidationIsBounded(t *testing.T) {
	t.Parallel()
	nested := `{"type":"object","properties":{"a":{"anyOf":[{"$ref":"#"},{"$ref":"#"},{"type":"string"}]}},"required":["a"]}`
	deep := strings.Repeat(`{"a":`, 40) + `0` + strings.Repeat(`}`, 40)

	var defs []string
	for i := range 40 {
		defs = append(defs, `"d`+itoa(i)+`":{"allOf":[{"$ref":"#/$defs/d`+itoa(i+1)+`"},{"$ref":"#/$defs/d`+itoa(i+1)+`"}]}`)
	}
	defs = append(defs, `"d40":{"type":"object"}`)
	chain := `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0"}`

	for name, c := range map[string][2]string{"nested anyOf": {nested, deep}, "allOf chain": {chain, `{}`}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cs, err := compileSchema("schema", []byte(c[0]))
			require.NoError(t, err)
			v, err := parseJSON([]byte(c[1]))
			require.NoError(t, err)
			// By the step count alone (no clock), then by time as well.
			fail := cs.validate(v, nil)
			require.NotNil(t, fail)
			require.Contains(t, fail.Message, "too costly")
			start := time.Now()
			fail = cs.validate(v, time.Now)
			require.NotNil(t, fail)
			require.Contains(t, fail.Message, "too costly")
			require.Less(t, time.Since(start), time.Second)
			// The schema stays usable.
			small, err := parseJSON([]byte(`{"a":"x"}`))
			require.NoError(t, err)
			if name == "nested anyOf" {
				require.Nil(t, cs.validate(small, time.Now))
			}
		})
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
