// Package telemetry holds the delivery engine's Prometheus collectors and
// the stages a first attempt is timed through.
package telemetry
