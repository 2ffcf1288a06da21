// Package tracing sets up OpenTelemetry traces for the process: an OTLP
// over HTTP exporter and a batching SDK tracer provider when an endpoint
// is configured, the no-op provider otherwise. Only app uses it; domain
// packages take a trace.TracerProvider from app and use the trace and
// propagation APIs alone.
package tracing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// ProtocolHTTP is the one OTLP protocol Ferry exports with.
const ProtocolHTTP = "http/protobuf"

// Config says whether and where traces are exported. The exporter reads
// the other OTEL_EXPORTER_OTLP_* variables (headers, timeout,
// compression, certificates) and the SDK reads OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG from the environment itself.
type Config struct {
	// Endpoint is the full URL spans are posted to
	// (e.g. http://collector:4318/v1/traces); empty turns tracing off.
	Endpoint string
	// ServiceName names the service when OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES do not (default "ferry").
	ServiceName string
	// Version is the service.version resource attribute.
	Version string
	// BatchTimeout bounds how long a finished span waits to be exported
	// (default 5 s; tests shorten it).
	BatchTimeout time.Duration
}

// ConfigFromEnv reads the standard OTEL_* variables through getenv:
// OTEL_SDK_DISABLED=true or no OTLP endpoint leave tracing off, and a
// protocol other than http/protobuf is an error.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return Config{}, nil
	}
	proto := cmp.Or(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), getenv("OTEL_EXPORTER_OTLP_PROTOCOL"), ProtocolHTTP)
	endpoint := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	if endpoint == "" {
		if base := getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); base != "" {
			// The spec appends the signal's path to the generic endpoint.
			endpoint = strings.TrimRight(base, "/") + "/v1/traces"
		}
	}
	if endpoint == "" {
		return Config{}, nil
	}
	if proto != ProtocolHTTP {
		return Config{}, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q: only %s is supported", proto, ProtocolHTTP)
	}
	return Config{Endpoint: endpoint, ServiceName: getenv("OTEL_SERVICE_NAME")}, nil
}

// Provider is the process's tracer provider and what shuts it down.
type Provider struct {
	tp  trace.TracerProvider
	sdk *sdktrace.TracerProvider
}

// New returns the no-op provider when cfg.Endpoint is empty, otherwise
// an SDK provider exporting in batches over OTLP/HTTP. It does not
// contact the collector: export errors are logged by the SDK later.
func New(ctx context.Context, cfg Config, log *slog.Logger) (*Provider, error) {
	if cfg.Endpoint == "" {
		return &Provider{tp: noop.NewTracerProvider()}, nil
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(cfg.Endpoint))
	if err != nil {
		return nil, fmt.Errorf("otlp trace exporter: %w", err)
	}
	// The defaults come first so that OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES (WithFromEnv) override them.
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(cmp.Or(cfg.ServiceName, "ferry")), semconv.ServiceVersion(cfg.Version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	sdk := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(cmp.Or(cfg.BatchTimeout, 5*time.Second))),
		sdktrace.WithResource(res))
	log.Info("exporting traces over OTLP/HTTP", "endpoint", redactURL(cfg.Endpoint))
	return &Provider{tp: sdk, sdk: sdk}, nil
}

// TracerProvider is what app hands to the components that make spans.
func (p *Provider) TracerProvider() trace.TracerProvider { return p.tp }

// Enabled reports whether spans are exported.
func (p *Provider) Enabled() bool { return p.sdk != nil }

// Shutdown exports the spans still buffered and stops the exporter; a
// no-op when tracing is off.
func (p *Provider) Shutdown(ctx context.Context) error {
	if p.sdk == nil {
		return nil
	}
	if err := p.sdk.Shutdown(ctx); err != nil {
		return fmt.Errorf("shut down tracer provider: %w", err)
	}
	return nil
}

// redactURL drops the user info and query of an endpoint for the log.
func redactURL(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 && at < strings.IndexByte(rest+"/", '/') {
			rest = rest[at+1:]
		}
		return scheme + "://" + rest
	}
	return raw
}
