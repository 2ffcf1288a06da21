package pgval

import (
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/tests/testenv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPGArrayRoundTrip: slices passed with pgArray arrive as Postgres
// arrays of the right type, element for element.
func TestPGArrayRoundTrip(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	ids := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
	var gotIDs []string
	if err := db.Raw(`SELECT unnest(?::uuid[])::text`, Array(ids)).Scan(&gotIDs).Error; err != nil {
		t.Fatal(err)
	}
	texts := []string{`with "quotes"`, `back\slash`, "", "ünïcode, {braces}"}
	var gotTexts []string
	if err := db.Raw(`SELECT unnest(?::text[])`, Array(texts)).Scan(&gotTexts).Error; err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 5, 23, 8, 123456000, time.UTC)
	var gotTimes []time.Time
	if err := db.Raw(`SELECT unnest(?::timestamptz[])`, Array([]time.Time{at, at.Add(time.Hour)})).Scan(&gotTimes).Error; err != nil {
		t.Fatal(err)
	}
	if len(gotIDs) != len(ids) {
		t.Fatalf("ids: got %v", gotIDs)
	}
	for i := range ids {
		if gotIDs[i] != ids[i].String() {
			t.Errorf("id %d: %s, want %s", i, gotIDs[i], ids[i])
		}
	}
	if len(gotTexts) != len(texts) {
		t.Fatalf("texts: got %q", gotTexts)
	}
	for i := range texts {
		if gotTexts[i] != texts[i] {
			t.Errorf("text %d: %q, want %q", i, gotTexts[i], texts[i])
		}
	}
	if len(gotTimes) != 2 || !gotTimes[0].Equal(at) || !gotTimes[1].Equal(at.Add(time.Hour)) {
		t.Errorf("times: %v", gotTimes)
	}
}

// openDB opens a fresh test database (no tables needed: the statements
// only round-trip parameters).
func openDB(t *testing.T) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	return db
}

// TestArrayEncodesInBinary: what Array returns has a binary plan for its
// array type, so pgx never takes the path where a failed binary plan
// first formats the whole value into an error message and then falls
// back to text. Ids given as strings are that path, once per statement
// (inbound did this until 2026-11-26: 3 % of Ferry's CPU at 1,000
// captures/s); the last case pins that pgx still cannot help it.
func TestArrayEncodesInBinary(t *testing.T) {
	t.Parallel()
	m := pgtype.NewMap()
	cases := []struct {
		name    string
		oid     uint32
		value   any
		binable bool
	}{
		{"uuids", pgtype.UUIDArrayOID, Array([]uuid.UUID{uuid.New()}), true},
		{"texts", pgtype.TextArrayOID, Array([]string{"a"}), true},
		{"times", pgtype.TimestamptzArrayOID, Array([]time.Time{time.Now()}), true},
		{"bytes", pgtype.ByteaArrayOID, Array([][]byte{[]byte("a")}), true},
		{"ids as strings", pgtype.UUIDArrayOID, Array([]string{uuid.NewString()}), false},
	}
	for _, c := range cases {
		_, err := m.Encode(c.oid, pgtype.BinaryFormatCode, c.value, nil)
		if got := err == nil; got != c.binable {
			t.Errorf("%s: binary encoding works = %v, want %v (err %v)", c.name, got, c.binable, err)
		}
	}
}
