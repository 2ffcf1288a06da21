package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/delivery/kafka"
)

func TestStartupWarnings(t *testing.T) {
	t.Parallel()
	real := bytes.Repeat([]byte{9}, 32)
	for _, c := range []struct {
		name  string
		cfg   Config
		warns []string
	}{
		{"dev on loopback", Config{HTTPAddr: "127.0.0.1:8088", MasterKey: devSecret("master-key"), JWTSecret: devSecret("jwt")}, nil},
		{"dev on localhost", Config{HTTPAddr: "localhost:8088", MasterKey: devSecret("master-key"), JWTSecret: devSecret("jwt")}, nil},
		{"dev on ::1", Config{HTTPAddr: "[::1]:8088", MasterKey: devSecret("master-key"), JWTSecret: devSecret("jwt")}, nil},
		{"dev on all interfaces", Config{HTTPAddr: ":8088", MasterKey: devSecret("master-key"), JWTSecret: devSecret("jwt")},
			[]string{"fixed secrets"}},
		{"dev jwt on public ip", Config{HTTPAddr: "0.0.0.0:8088", MasterKey: real, JWTSecret: devSecret("jwt")},
			[]string{"fixed secrets"}},
		{"real secrets anywhere", Config{HTTPAddr: ":8080", MasterKey: real, JWTSecret: real}, nil},
		{"pprof on loopback", Config{HTTPAddr: ":8080", MasterKey: real, JWTSecret: real, PprofAddr: "127.0.0.1:6060"}, nil},
		{"pprof public", Config{HTTPAddr: ":8080", MasterKey: real, JWTSecret: real, PprofAddr: ":6060"},
			[]string{"FERRY_PPROF_ADDR"}},
		{"both", Config{HTTPAddr: "10.0.0.5:8088", MasterKey: devSecret("master-key"), PprofAddr: "0.0.0.0:6060"},
			[]string{"fixed secrets", "FERRY_PPROF_ADDR"}},
		{"a rotation under way", Config{HTTPAddr: ":8080", MasterKey: real, JWTSecret: real, OtherMasterKeys: [][]byte{devSecret("jwt")}},
			[]string{"ferry reseal"}},
	} {
		got := startupWarnings(c.cfg)
		if len(got) != len(c.warns) {
			t.Errorf("%s: warnings %q, want %d", c.name, got, len(c.warns))
			continue
		}
		for i, w := range c.warns {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: warning %q lacks %q", c.name, got[i], w)
			}
		}
	}
}

func TestConfigMetricsAddr(t *testing.T) {
	t.Parallel()
	env := map[string]string{"FERRY_ENV": "dev", "FERRY_DATABASE_URL": "postgres://x", "FERRY_KAFKA_BROKERS": "k:9092",
		"FERRY_METRICS_ADDR": "127.0.0.1:9100"}
	cfg, err := ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MetricsAddr != "127.0.0.1:9100" {
		t.Errorf("MetricsAddr = %q", cfg.MetricsAddr)
	}
}

func TestConfigKafkaSecurity(t *testing.T) {
	t.Parallel()
	base := map[string]string{"FERRY_ENV": "dev", "FERRY_DATABASE_URL": "postgres://x", "FERRY_KAFKA_BROKERS": "k:9092"}
	with := func(extra map[string]string) func(string) string {
		return func(k string) string {
			if v, ok := extra[k]; ok {
				return v
			}
			return base[k]
		}
	}
	cfg, err := ConfigFromEnv(with(map[string]string{"FERRY_KAFKA_TLS": "true", "FERRY_KAFKA_SASL_MECHANISM": "SCRAM-SHA-512",
		"FERRY_KAFKA_SASL_USERNAME": "ferry", "FERRY_KAFKA_SASL_PASSWORD": "s3cret "}))
	if err != nil {
		t.Fatal(err)
	}
	sec := cfg.KafkaSecurity
	if !sec.TLS || sec.SASLMechanism != "SCRAM-SHA-512" || sec.SASLUsername != "ferry" || sec.SASLPassword != "s3cret " {
		t.Errorf("KafkaSecurity = %+v", sec)
	}
	if cfg, _ := ConfigFromEnv(with(nil)); cfg.KafkaSecurity != (kafka.Security{}) {
		t.Errorf("default KafkaSecurity = %+v, want plaintext", cfg.KafkaSecurity)
	}
	for _, bad := range []map[string]string{
		{"FERRY_KAFKA_SASL_MECHANISM": "PLAIN", "FERRY_KAFKA_SASL_USERNAME": "u", "FERRY_KAFKA_SASL_PASSWORD": "p"},
		{"FERRY_KAFKA_SASL_MECHANISM": "SCRAM-SHA-256"},
		{"FERRY_KAFKA_TLS_CA_FILE": "/no/such/ca.pem"},
		{"FERRY_KAFKA_TLS": "maybe"},
	} {
		_, err := ConfigFromEnv(with(bad))
		if err == nil {
			t.Errorf("%v: accepted", bad)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error shows the password: %v", err)
		}
	}
	prod := Config{HTTPAddr: ":8080", KafkaSecurity: kafka.Security{SASLMechanism: "SCRAM-SHA-256"}}
	if w := startupWarnings(prod); len(w) != 1 || !strings.Contains(w[0], "without TLS") {
		t.Errorf("SASL without TLS in production: warnings %q", w)
	}
}
