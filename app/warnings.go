package app

import (
	"bytes"
	"net"
	"strings"
)

// startupWarnings lists configurations that work but expose the process:
// dev mode's fixed, publicly known secrets on an address others can reach
// (anyone could forge sessions), profiling on a non-loopback address
// (heap dumps hold secrets), and other master keys left configured after
// a rotation (a retired key still opens what it sealed). New logs each
// one.
func startupWarnings(cfg Config) []string {
	var out []string
	fixed := bytes.Equal(cfg.MasterKey, devSecret("master-key")) || bytes.Equal(cfg.JWTSecret, devSecret("jwt"))
	if fixed && !isLoopbackAddr(cfg.HTTPAddr) {
		out = append(out, "dev mode's fixed secrets (FERRY_MASTER_KEY, FERRY_JWT_SECRET unset) are in use on "+
			cfg.HTTPAddr+", which is not a loopback address: anyone who can reach it can forge sessions; "+
			"set real secrets or listen on 127.0.0.1")
	}
	if cfg.PprofAddr != "" && !isLoopbackAddr(cfg.PprofAddr) {
		out = append(out, "FERRY_PPROF_ADDR "+cfg.PprofAddr+" is not a loopback address: profiles expose memory "+
			"contents including secrets; bind it to 127.0.0.1")
	}
	if len(cfg.OtherMasterKeys) > 0 {
		out = append(out, "FERRY_OTHER_MASTER_KEYS opens stored secrets beside FERRY_MASTER_KEY: right during a master-key "+
			"rotation; once every process has FERRY_MASTER_KEY, run ferry reseal and remove them (docs/operations.md)")
	}
	if sec := cfg.KafkaSecurity; sec.SASLMechanism != "" && !sec.TLS && sec.TLSCAFile == "" && !cfg.Dev {
		out = append(out, "Kafka SASL is configured without TLS (FERRY_KAFKA_TLS): SCRAM protects the password, "+
			"but delivery jobs travel unencrypted")
	}
	return out
}

// isLoopbackAddr reports whether a listen address ("host:port") binds
// loopback only. An empty host or an unspecified address binds every
// interface; a name other than localhost may resolve anywhere.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
