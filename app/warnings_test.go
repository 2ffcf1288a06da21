package app

import (
	"bytes"
	"strings"
	"testing"
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
