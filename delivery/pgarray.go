package delivery

import (
	"database/sql/driver"
	"strings"
	"time"
)

// pgTextArray sends a []string as a Postgres text[] literal, which the
// database/sql path of pgx does not do for plain slices.
type pgTextArray []string

// Value implements driver.Valuer.
func (a pgTextArray) Value() (driver.Value, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, s := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range s {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String(), nil
}

// pgTimeArray sends a []time.Time as a Postgres timestamptz[] literal.
type pgTimeArray []time.Time

// Value implements driver.Valuer.
func (a pgTimeArray) Value() (driver.Value, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, t := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(t.UTC().Format("2006-01-02 15:04:05.999999Z07:00"))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String(), nil
}
