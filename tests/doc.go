// Package tests holds Ferry's end-to-end, reliability and load tests: they
// start the real app (app.New(cfg).Run) on port 0 against real PostgreSQL
// and Kafka and drive it over HTTP as a tenant would.
package tests
