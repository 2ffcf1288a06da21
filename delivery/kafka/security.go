package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl"
	"github.com/segmentio/kafka-go/sasl/scram"
)

// SASL mechanisms Ferry supports.
const (
	SCRAMSHA256 = "SCRAM-SHA-256"
	SCRAMSHA512 = "SCRAM-SHA-512"
)

// Security is how Ferry connects to brokers: TLS, SASL/SCRAM, or both.
// The zero value is plaintext without authentication (local brokers).
// It applies alike to the writer, every reader and the admin client.
type Security struct {
	// TLS encrypts connections and verifies the brokers' certificates
	// against the system roots, or TLSCAFile when set.
	TLS bool
	// TLSCAFile is a PEM file of CA certificates to trust instead of the
	// system roots (a private cluster CA). Setting it implies TLS.
	TLSCAFile string
	// SASLMechanism is "", SCRAM-SHA-256 or SCRAM-SHA-512.
	SASLMechanism string
	// SASLUsername and SASLPassword are the SCRAM credentials.
	SASLUsername string
	SASLPassword string
}

// connSecurity is Security made ready to dial: the TLS configuration
// (nil for plaintext) and the SASL mechanism (nil for none).
type connSecurity struct {
	tls  *tls.Config
	sasl sasl.Mechanism
}

// build validates s and prepares its TLS configuration and mechanism.
func (s Security) build() (connSecurity, error) {
	var out connSecurity
	if s.TLS || s.TLSCAFile != "" {
		out.tls = &tls.Config{MinVersion: tls.VersionTLS12}
		if s.TLSCAFile != "" {
			pem, err := os.ReadFile(s.TLSCAFile)
			if err != nil {
				return connSecurity{}, fmt.Errorf("kafka: read TLS CA file: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return connSecurity{}, fmt.Errorf("kafka: TLS CA file %s holds no PEM certificate", s.TLSCAFile)
			}
			out.tls.RootCAs = pool
		}
	}
	mech := strings.ToUpper(strings.TrimSpace(s.SASLMechanism))
	if mech == "" {
		if s.SASLUsername != "" || s.SASLPassword != "" {
			return connSecurity{}, errors.New("kafka: SASL credentials given without a SASL mechanism (SCRAM-SHA-256 or SCRAM-SHA-512)")
		}
		return out, nil
	}
	var algo scram.Algorithm
	switch mech {
	case SCRAMSHA256:
		algo = scram.SHA256
	case SCRAMSHA512:
		algo = scram.SHA512
	default:
		return connSecurity{}, fmt.Errorf("kafka: unsupported SASL mechanism %q (want SCRAM-SHA-256 or SCRAM-SHA-512)", s.SASLMechanism)
	}
	if s.SASLUsername == "" || s.SASLPassword == "" {
		return connSecurity{}, fmt.Errorf("kafka: SASL %s needs a username and a password", mech)
	}
	m, err := scram.Mechanism(algo, s.SASLUsername, s.SASLPassword)
	if err != nil {
		return connSecurity{}, fmt.Errorf("kafka: SASL %s: %w", mech, err)
	}
	out.sasl = m
	return out, nil
}

// secure reports whether anything differs from kafka-go's defaults.
func (c connSecurity) secure() bool { return c.tls != nil || c.sasl != nil }

// dialer is the readers' Dialer; nil (kafka-go's default) when plaintext.
func (c connSecurity) dialer() *kafkago.Dialer {
	if !c.secure() {
		return nil
	}
	return &kafkago.Dialer{Timeout: 10 * time.Second, DualStack: true, TLS: c.tls, SASLMechanism: c.sasl}
}

// transport is the writer's and admin client's Transport; nil (kafka-go's
// DefaultTransport) when plaintext.
func (c connSecurity) transport() *kafkago.Transport {
	if !c.secure() {
		return nil
	}
	return &kafkago.Transport{TLS: c.tls, SASL: c.sasl}
}

// producerTransport is a writer's own Transport, whose metadata covers
// topics (nil: every topic of the cluster). Its metadata is refreshed at
// a random moment within every 250 ms rather than kafka-go's 6 s: after
// a partition's leader dies or hands over (a rolling restart), writes to
// it resume as soon as the cluster has a new leader, not seconds later.
// A metadata request for Ferry's few topics is cheap; one for a cluster
// of 400 topics had Ferry decode 6 MB a second (docs/benchmarks.md,
// 2026-11-28 05:06).
func (c connSecurity) producerTransport(topics []string) *kafkago.Transport {
	return &kafkago.Transport{TLS: c.tls, SASL: c.sasl, MetadataTTL: 250 * time.Millisecond, MetadataTopics: topics}
}

// roundTripper returns the transport as the admin client wants it: a
// nil interface, not a nil pointer, when plaintext.
func (c connSecurity) roundTripper() kafkago.RoundTripper {
	if t := c.transport(); t != nil {
		return t
	}
	return nil
}
