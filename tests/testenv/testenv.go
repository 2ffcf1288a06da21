// Package testenv gives integration and end-to-end tests real services:
// PostgreSQL and Kafka from FERRY_TEST_DATABASE_URL and
// FERRY_TEST_KAFKA_BROKERS when set (what `make test` does), otherwise
// containers started with testcontainers-go when a Docker engine is
// reachable, otherwise a failure that says how to start them.
//
// Each test gets its own database and its own topic prefix and consumer
// groups, so tests run in parallel on one Postgres and one broker.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

const howToStart = `no %s for tests: run "make test", or start the local services with "make services"
and export the variables printed by "bash scripts/env.sh" (FERRY_TEST_DATABASE_URL, FERRY_TEST_KAFKA_BROKERS);
with a Docker engine running, testcontainers-go starts them instead`

// Name returns a short unique name with the given prefix, for databases,
// topic prefixes and consumer groups.
func Name(prefix string) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return prefix + hex.EncodeToString(b)
}

// Postgres returns the URL of a fresh, empty database that is dropped
// when the test ends.
func Postgres(t testing.TB) string {
	t.Helper()
	base := os.Getenv("FERRY_TEST_DATABASE_URL")
	if base == "" {
		var err error
		if base, err = containerPostgres(); err != nil {
			t.Fatalf(howToStart+"\n(docker: %v)", "PostgreSQL", err)
		}
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open test database %s: %v", base, err)
	}
	t.Cleanup(func() { admin.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := Name("ferry_test_")
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database (is PostgreSQL up? %s): %v", base, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse FERRY_TEST_DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// Kafka returns the brokers to use.
func Kafka(t testing.TB) []string {
	t.Helper()
	brokers := os.Getenv("FERRY_TEST_KAFKA_BROKERS")
	if brokers == "" {
		var err error
		if brokers, err = containerKafka(); err != nil {
			t.Fatalf(howToStart+"\n(docker: %v)", "Kafka", err)
		}
	}
	return strings.Split(brokers, ",")
}

// DB opens database/sql on url for the test's duration.
func DB(t testing.TB, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Eventually polls cond every interval until it returns true or timeout
// passes, then fails the test with msg.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: "+msg, append([]any{timeout}, args...)...)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
