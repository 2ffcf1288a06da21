package pgval

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// JSON stores a Go value in a json or jsonb column as its JSON encoding;
// a nil value is stored as the JSON null (so NOT NULL columns accept it)
// and SQL NULL reads back as the zero value.
type JSON[T any] struct{ V T }

// Scan implements sql.Scanner.
func (j *JSON[T]) Scan(src any) error {
	var zero T
	j.V = zero
	switch s := src.(type) {
	case nil:
		return nil
	case []byte:
		return json.Unmarshal(s, &j.V)
	case string:
		return json.Unmarshal([]byte(s), &j.V)
	default:
		return fmt.Errorf("scan json column from %T", src)
	}
}

// Value implements driver.Valuer.
func (j JSON[T]) Value() (driver.Value, error) {
	b, err := json.Marshal(j.V)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
