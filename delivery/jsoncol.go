package delivery

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// jsonColumn stores a Go value in a json/jsonb column.
type jsonColumn[T any] struct{ V T }

// Scan implements sql.Scanner.
func (j *jsonColumn[T]) Scan(src any) error {
	switch s := src.(type) {
	case nil:
		var zero T
		j.V = zero
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
func (j jsonColumn[T]) Value() (driver.Value, error) {
	b, err := json.Marshal(j.V)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
