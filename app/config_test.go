package app

import (
	"strings"
	"testing"
	"time"
)

func TestAccountConfig(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"FERRY_DATABASE_URL":  "postgres://x/y",
		"FERRY_KAFKA_BROKERS": "127.0.0.1:1",
		"FERRY_MASTER_KEY":    strings.Repeat("ab", 32),
		"FERRY_JWT_SECRET":    strings.Repeat("s", 32),
	}
	env := func(extra map[string]string) func(string) string {
		return func(k string) string {
			if v, ok := extra[k]; ok {
				return v
			}
			return base[k]
		}
	}
	prod, err := ConfigFromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !prod.StaffTOTPRequired || prod.SMTPURL != "" || prod.LoginMaxFailures != 10 || prod.SignupAddrLimit != 10 ||
		prod.LoginAddrMaxFailures != 100 || prod.SessionCacheTTL != 2*time.Second {
		t.Errorf("production defaults: %+v", prod)
	}
	if _, err := ConfigFromEnv(env(map[string]string{"FERRY_STAFF_TOTP_REQUIRED": "false"})); err == nil {
		t.Error("production accepted FERRY_STAFF_TOTP_REQUIRED=false")
	}
	if _, err := ConfigFromEnv(env(map[string]string{"FERRY_SESSION_CACHE_TTL": "10s"})); err == nil {
		t.Error("accepted a session cache TTL over 5s")
	}
	dev, err := ConfigFromEnv(env(map[string]string{"FERRY_ENV": "dev"}))
	if err != nil {
		t.Fatal(err)
	}
	if dev.StaffTOTPRequired || dev.SMTPURL != DevSMTPURL || dev.SignupAddrLimit != 1000 {
		t.Errorf("dev defaults: TOTP %v, SMTP %q, signups %d", dev.StaffTOTPRequired, dev.SMTPURL, dev.SignupAddrLimit)
	}
	c, err := ConfigFromEnv(env(map[string]string{"FERRY_SMTP_URL": "smtps://u:p@mail.example:465",
		"FERRY_TRUSTED_PROXIES": "10.0.0.1, 10.1.0.0/16", "FERRY_SIGNUP_ADDR_LIMIT": "0"}))
	if err != nil || c.SMTPURL != "smtps://u:p@mail.example:465" || len(c.TrustedProxies) != 2 || c.SignupAddrLimit != 0 {
		t.Errorf("explicit settings: %+v, %v", c, err)
	}
	if _, err := DBConfigFromEnv(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "FERRY_DATABASE_URL") {
		t.Errorf("DBConfigFromEnv without a database: %v", err)
	}
}
