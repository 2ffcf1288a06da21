package app

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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

// TestQueueAndStreamConfig: the waiting caps, the stream re-check and the
// write timeout have defaults, and values that would switch off what
// they protect are refused.
func TestQueueAndStreamConfig(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"FERRY_DATABASE_URL":  "postgres://x/y",
		"FERRY_KAFKA_BROKERS": "127.0.0.1:1",
		"FERRY_MASTER_KEY":    strings.Repeat("ab", 32),
		"FERRY_JWT_SECRET":    strings.Repeat("s", 32),
	}
	for _, tt := range []struct {
		name    string
		env     map[string]string
		wantErr string
		check   func(t *testing.T, c Config)
	}{
		{name: "defaults", check: func(t *testing.T, c Config) {
			require.Equal(t, 100, c.QueueMaxWaitersPerTenant)
			require.Equal(t, 20, c.QueueMaxWaitersPerQueue)
			require.Equal(t, 30*time.Second, c.QueueStreamAuthInterval)
			require.Equal(t, 30*time.Second, c.HTTPWriteTimeout)
		}},
		{name: "set", env: map[string]string{"FERRY_QUEUE_MAX_WAITERS_PER_TENANT": "7", "FERRY_QUEUE_MAX_WAITERS_PER_QUEUE": "3",
			"FERRY_QUEUE_STREAM_AUTH_INTERVAL": "5s", "FERRY_HTTP_WRITE_TIMEOUT": "1m"}, check: func(t *testing.T, c Config) {
			require.Equal(t, 7, c.QueueMaxWaitersPerTenant)
			require.Equal(t, 3, c.QueueMaxWaitersPerQueue)
			require.Equal(t, 5*time.Second, c.QueueStreamAuthInterval)
			require.Equal(t, time.Minute, c.HTTPWriteTimeout)
		}},
		{name: "no tenant cap", env: map[string]string{"FERRY_QUEUE_MAX_WAITERS_PER_TENANT": "0"}, wantErr: "FERRY_QUEUE_MAX_WAITERS_PER_TENANT"},
		{name: "no queue cap", env: map[string]string{"FERRY_QUEUE_MAX_WAITERS_PER_QUEUE": "0"}, wantErr: "FERRY_QUEUE_MAX_WAITERS_PER_QUEUE"},
		{name: "re-check too rare", env: map[string]string{"FERRY_QUEUE_STREAM_AUTH_INTERVAL": "1m"}, wantErr: "FERRY_QUEUE_STREAM_AUTH_INTERVAL"},
		{name: "no re-check", env: map[string]string{"FERRY_QUEUE_STREAM_AUTH_INTERVAL": "0s"}, wantErr: "FERRY_QUEUE_STREAM_AUTH_INTERVAL"},
		{name: "no write timeout", env: map[string]string{"FERRY_HTTP_WRITE_TIMEOUT": "0s"}, wantErr: "FERRY_HTTP_WRITE_TIMEOUT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := ConfigFromEnv(func(k string) string {
				if v, ok := tt.env[k]; ok {
					return v
				}
				return base[k]
			})
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			tt.check(t, c)
		})
	}
}

// TestMasterKeysConfig: other master keys are a comma-separated list of
// 32-byte keys, each checked; operator commands read the keys alone.
func TestMasterKeysConfig(t *testing.T) {
	t.Parallel()
	master, k1, k2 := strings.Repeat("ab", 32), strings.Repeat("cd", 32), base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{5}, 32))
	env := func(vars map[string]string) func(string) string {
		base := map[string]string{"FERRY_DATABASE_URL": "postgres://x/y", "FERRY_KAFKA_BROKERS": "127.0.0.1:1",
			"FERRY_MASTER_KEY": master, "FERRY_JWT_SECRET": strings.Repeat("s", 32)}
		return func(k string) string {
			if v, ok := vars[k]; ok {
				return v
			}
			return base[k]
		}
	}
	c, err := ConfigFromEnv(env(map[string]string{"FERRY_OTHER_MASTER_KEYS": " " + k1 + " , " + k2 + ","}))
	require.NoError(t, err)
	require.Len(t, c.OtherMasterKeys, 2)
	require.Equal(t, bytes.Repeat([]byte{0xcd}, 32), c.OtherMasterKeys[0])
	require.Equal(t, bytes.Repeat([]byte{5}, 32), c.OtherMasterKeys[1])
	_, err = ConfigFromEnv(env(map[string]string{"FERRY_OTHER_MASTER_KEYS": k1 + ",abcd"}))
	require.ErrorContains(t, err, "FERRY_OTHER_MASTER_KEYS (key 2)")

	var ops Config
	require.NoError(t, MasterKeysFromEnv(env(map[string]string{"FERRY_OTHER_MASTER_KEYS": k1}), &ops))
	require.Len(t, ops.MasterKey, 32)
	require.Len(t, ops.OtherMasterKeys, 1)
	require.ErrorContains(t, MasterKeysFromEnv(env(map[string]string{"FERRY_MASTER_KEY": ""}), &Config{}), "FERRY_MASTER_KEY is required")
	dev := Config{Dev: true}
	require.NoError(t, MasterKeysFromEnv(env(map[string]string{"FERRY_MASTER_KEY": ""}), &dev))
	require.Equal(t, devSecret("master-key"), dev.MasterKey)
}
