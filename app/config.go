package app

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ferry-dev/ferry/delivery/kafka"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/internal/tracing"
)

// Payment providers (FERRY_PAYMENT_PROVIDER).
const (
	PaymentProviderNone = "none" // no provider: paid self-serve plans answer 402
	PaymentProviderTest = "test" // built-in test provider that accepts (dev)
)

// Roles a process can play; "ferry serve" plays both unless told otherwise.
const (
	RoleAPI    = "api"    // HTTP API, portal and outbox relay
	RoleWorker = "worker" // Kafka consumers, dispatcher, attempt log, partition job
)

// Config is Ferry's whole configuration, read from FERRY_* variables.
// Production is the default; FERRY_ENV=dev relaxes what only makes sense
// on a laptop.
type Config struct {
	Dev       bool
	HTTPAddr  string
	PublicURL string
	// IngestURL, when set, is the origin that serves the public ingest
	// URLs of inbound sources (<IngestURL>/in/<token>), apart from the
	// portal's, so a provider-facing URL shares no cookies or origin with
	// signed-in users. Empty: ingest URLs are under PublicURL.
	IngestURL        string
	DatabaseURL      string
	DBMaxConns       int
	KafkaBrokers     []string
	KafkaTopicPrefix string
	KafkaGroup       string
	KafkaPartitions  int
	KafkaReplication int
	KafkaMinInsync   int
	// KafkaSecurity is TLS and SASL/SCRAM for every Kafka connection
	// (FERRY_KAFKA_TLS, FERRY_KAFKA_TLS_CA_FILE, FERRY_KAFKA_SASL_*).
	KafkaSecurity kafka.Security
	MasterKey     []byte
	// OtherMasterKeys open stored secrets but never seal them
	// (FERRY_OTHER_MASTER_KEYS): the keys of a master-key rotation.
	OtherMasterKeys       [][]byte
	JWTSecret             []byte
	SessionTTL            time.Duration
	AllowPrivateEndpoints bool
	AllowHTTPEndpoints    bool
	RetryScale            float64
	Roles                 map[string]bool
	LogFormat             string
	LogLevel              string
	ShutdownGrace         time.Duration
	OutboxSweepAfter      time.Duration
	AttemptRetention      time.Duration
	BillingInterval       time.Duration
	BcryptCost            int
	APIRateLimitPerSecond int
	ReplayRatePerSecond   int
	// TestRoutingPerSecond is each tenant's rate of test-routing requests
	// (POST /endpoints/{id}/test-routing), which run code on demand; 0
	// means no limit beyond the API's.
	TestRoutingPerSecond int
	// TransformWorkers is how many transformation worker processes may
	// run at once (0: GOMAXPROCS, at least 4); TransformPerTenant how many
	// of them one tenant's transformations may hold (0: 2).
	TransformWorkers   int
	TransformPerTenant int
	Version            string
	// PprofAddr, when set, serves net/http/pprof there (opt-in profiling;
	// bind it to loopback).
	PprofAddr string

	// SMTPURL names the mail server (smtp://user:pass@host:port?tls=…);
	// empty means mail is logged as not sent. MailFrom is the sender.
	SMTPURL  string
	MailFrom string
	// StaffTOTPRequired makes staff sign in with a TOTP code (always in
	// production).
	StaffTOTPRequired bool
	// LoginMaxFailures is the failed logins evaluated per account per 15
	// minutes (0: the default, 10); LoginAddrMaxFailures the failed
	// logins per client address per 15 minutes and SignupAddrLimit the
	// sign-ups (and, separately, password-reset requests) per client
	// address per hour (0: no limit).
	LoginMaxFailures     int
	LoginAddrMaxFailures int
	SignupAddrLimit      int
	// SessionCacheTTL is how long a replica trusts a live session without
	// asking Postgres (0: 2 s; at most 5 s).
	SessionCacheTTL time.Duration
	// TrustedProxies are the addresses of reverse proxies whose
	// X-Forwarded-For names the client (for the per-address limits).
	TrustedProxies []string
	// InvitesPerHour bounds the invite mails a tenant sends per hour
	// (FERRY_INVITES_PER_HOUR, default 20).
	InvitesPerHour int
	// TokenGuessesPerMinute bounds failed lookups of ingest tokens, API
	// keys and consumer tokens per client address
	// (FERRY_TOKEN_GUESSES_PER_MINUTE, default 60; -1: no bound).
	TokenGuessesPerMinute int
	// MetricsAddr, when set, serves /metrics on its own listener there
	// instead of on HTTPAddr.
	MetricsAddr string
	// HTTPWriteTimeout bounds writing one response; a queue stream
	// applies it to each of its writes, so it lives on (FERRY_HTTP_WRITE_TIMEOUT).
	HTTPWriteTimeout time.Duration
	// QueueMaxWaitersPerTenant and QueueMaxWaitersPerQueue cap the
	// long-polls and streams waiting at once in one process, over a
	// tenant's queues and on one queue; 0 takes the defaults.
	QueueMaxWaitersPerTenant int
	QueueMaxWaitersPerQueue  int
	// QueueStreamAuthInterval is how often a queue stream re-checks the
	// credential that opened it (at most 30 s; 0: 30 s).
	QueueStreamAuthInterval time.Duration
	// PaymentProvider is "test" (the built-in provider that accepts every
	// payment method and charge; dev only, the dev default) or "none" (the
	// production default: paid self-serve plans answer 402).
	PaymentProvider string
	// Tracing says where spans are exported (the standard OTEL_*
	// variables); an empty endpoint leaves tracing off.
	Tracing tracing.Config
}

// maxStreamAuthInterval bounds FERRY_QUEUE_STREAM_AUTH_INTERVAL: how long
// a queue stream may outlive the revocation of its credential.
const maxStreamAuthInterval = 30 * time.Second

// DevSMTPURL is the local mail catcher that scripts/mail.sh starts.
const DevSMTPURL = "smtp://127.0.0.1:19025"

// devSecret derives a fixed development secret; production refuses to
// start without real ones.
func devSecret(purpose string) []byte {
	h := sha256.Sum256([]byte("ferry-dev-only-" + purpose))
	return h[:]
}

// ConfigFromEnv reads the configuration. getenv is os.Getenv in main and
// a map lookup in tests.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var errs []error
	str := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	boolean := func(name string, def bool) bool {
		v := str(name, "")
		if v == "" {
			return def
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: want true or false, got %q", name, v))
		}
		return b
	}
	integer := func(name string, def int) int {
		v := str(name, "")
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			errs = append(errs, fmt.Errorf("%s: want a non-negative integer, got %q", name, v))
		}
		return n
	}
	duration := func(name string, def time.Duration) time.Duration {
		v := str(name, "")
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("%s: want a duration such as 30s, got %q", name, v))
		}
		return d
	}

	env := str("FERRY_ENV", "production")
	if env != "production" && env != "dev" {
		errs = append(errs, fmt.Errorf("FERRY_ENV: want production or dev, got %q", env))
	}
	dev := env == "dev"
	c := Config{
		Dev:                      dev,
		HTTPAddr:                 str("FERRY_HTTP_ADDR", map[bool]string{true: DevHTTPAddr, false: ":8080"}[dev]),
		DatabaseURL:              str("FERRY_DATABASE_URL", ""),
		DBMaxConns:               integer("FERRY_DB_MAX_CONNS", 40),
		KafkaTopicPrefix:         str("FERRY_KAFKA_TOPIC_PREFIX", ""),
		KafkaGroup:               str("FERRY_KAFKA_GROUP", "ferry"),
		KafkaPartitions:          integer("FERRY_KAFKA_PARTITIONS", 8),
		KafkaReplication:         integer("FERRY_KAFKA_REPLICATION_FACTOR", 1),
		KafkaMinInsync:           integer("FERRY_KAFKA_MIN_INSYNC_REPLICAS", 0),
		SessionTTL:               duration("FERRY_SESSION_TTL", 12*time.Hour),
		AllowPrivateEndpoints:    boolean("FERRY_ALLOW_PRIVATE_ENDPOINTS", dev),
		AllowHTTPEndpoints:       boolean("FERRY_ALLOW_HTTP_ENDPOINTS", dev),
		LogFormat:                str("FERRY_LOG_FORMAT", map[bool]string{true: "text", false: "json"}[dev]),
		LogLevel:                 str("FERRY_LOG_LEVEL", "info"),
		ShutdownGrace:            duration("FERRY_SHUTDOWN_GRACE", 20*time.Second),
		OutboxSweepAfter:         duration("FERRY_OUTBOX_SWEEP_AFTER", 15*time.Second),
		AttemptRetention:         duration("FERRY_ATTEMPT_RETENTION", 30*24*time.Hour),
		BillingInterval:          duration("FERRY_BILLING_INTERVAL", 5*time.Minute),
		APIRateLimitPerSecond:    integer("FERRY_API_RATE_LIMIT", 2000),
		InvitesPerHour:           integer("FERRY_INVITES_PER_HOUR", 20),
		TokenGuessesPerMinute:    integer("FERRY_TOKEN_GUESSES_PER_MINUTE", map[bool]int{true: 1000, false: 60}[dev]),
		ReplayRatePerSecond:      integer("FERRY_REPLAY_RATE_LIMIT", replay.DefaultRatePerSecond),
		TestRoutingPerSecond:     integer("FERRY_TEST_ROUTING_RATE_LIMIT", 5),
		TransformWorkers:         integer("FERRY_TRANSFORM_WORKERS", 0),
		TransformPerTenant:       integer("FERRY_TRANSFORM_PER_TENANT", 0),
		Version:                  str("FERRY_VERSION", Version),
		PprofAddr:                str("FERRY_PPROF_ADDR", ""),
		SMTPURL:                  str("FERRY_SMTP_URL", map[bool]string{true: DevSMTPURL, false: ""}[dev]),
		MailFrom:                 str("FERRY_MAIL_FROM", "Ferry <no-reply@ferry.localhost>"),
		StaffTOTPRequired:        !dev || boolean("FERRY_STAFF_TOTP_REQUIRED", false),
		LoginMaxFailures:         integer("FERRY_LOGIN_MAX_FAILURES", 10),
		LoginAddrMaxFailures:     integer("FERRY_LOGIN_ADDR_MAX_FAILURES", map[bool]int{true: 1000, false: 100}[dev]),
		SignupAddrLimit:          integer("FERRY_SIGNUP_ADDR_LIMIT", map[bool]int{true: 1000, false: 10}[dev]),
		SessionCacheTTL:          duration("FERRY_SESSION_CACHE_TTL", 2*time.Second),
		MetricsAddr:              str("FERRY_METRICS_ADDR", ""),
		PaymentProvider:          str("FERRY_PAYMENT_PROVIDER", map[bool]string{true: PaymentProviderTest, false: PaymentProviderNone}[dev]),
		HTTPWriteTimeout:         duration("FERRY_HTTP_WRITE_TIMEOUT", 30*time.Second),
		QueueMaxWaitersPerTenant: integer("FERRY_QUEUE_MAX_WAITERS_PER_TENANT", queue.DefaultMaxWaitersPerTenant),
		QueueMaxWaitersPerQueue:  integer("FERRY_QUEUE_MAX_WAITERS_PER_QUEUE", queue.DefaultMaxWaitersPerQueue),
		QueueStreamAuthInterval:  duration("FERRY_QUEUE_STREAM_AUTH_INTERVAL", maxStreamAuthInterval),
	}
	if c.HTTPWriteTimeout == 0 {
		errs = append(errs, errors.New("FERRY_HTTP_WRITE_TIMEOUT: must be positive"))
	}
	if c.QueueMaxWaitersPerTenant == 0 || c.QueueMaxWaitersPerQueue == 0 {
		errs = append(errs, errors.New("FERRY_QUEUE_MAX_WAITERS_PER_TENANT, FERRY_QUEUE_MAX_WAITERS_PER_QUEUE: at least 1"))
	}
	if c.QueueStreamAuthInterval == 0 || c.QueueStreamAuthInterval > maxStreamAuthInterval {
		errs = append(errs, fmt.Errorf("FERRY_QUEUE_STREAM_AUTH_INTERVAL: more than 0 and at most %s (a revoked credential keeps a stream open this long), got %s",
			maxStreamAuthInterval, c.QueueStreamAuthInterval))
	}
	if c.SessionCacheTTL > 5*time.Second {
		errs = append(errs, fmt.Errorf("FERRY_SESSION_CACHE_TTL: at most 5s (a revoked session keeps working on other replicas this long), got %s", c.SessionCacheTTL))
	}
	if !dev && getenv("FERRY_STAFF_TOTP_REQUIRED") != "" && !boolean("FERRY_STAFF_TOTP_REQUIRED", true) {
		errs = append(errs, errors.New("FERRY_STAFF_TOTP_REQUIRED: staff TOTP cannot be turned off in production"))
	}
	for _, p := range strings.Split(str("FERRY_TRUSTED_PROXIES", ""), ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.TrustedProxies = append(c.TrustedProxies, p)
		}
	}
	for _, b := range strings.Split(str("FERRY_KAFKA_BROKERS", ""), ",") {
		if b = strings.TrimSpace(b); b != "" {
			c.KafkaBrokers = append(c.KafkaBrokers, b)
		}
	}
	c.PublicURL = str("FERRY_PUBLIC_URL", "")
	c.IngestURL = strings.TrimRight(str("FERRY_INGEST_URL", ""), "/")
	if c.IngestURL != "" {
		if err := validateIngestURL(c.IngestURL, dev); err != nil {
			errs = append(errs, fmt.Errorf("FERRY_INGEST_URL: %w", err))
		}
	}
	c.KafkaSecurity = kafka.Security{
		TLS:           boolean("FERRY_KAFKA_TLS", false),
		TLSCAFile:     str("FERRY_KAFKA_TLS_CA_FILE", ""),
		SASLMechanism: str("FERRY_KAFKA_SASL_MECHANISM", ""),
		SASLUsername:  str("FERRY_KAFKA_SASL_USERNAME", ""),
		// Not trimmed: a password may end in a space.
		SASLPassword: getenv("FERRY_KAFKA_SASL_PASSWORD"),
	}
	if err := (kafka.Config{Brokers: []string{"-"}, Security: c.KafkaSecurity}).Validate(); err != nil {
		errs = append(errs, fmt.Errorf("FERRY_KAFKA_*: %w", err))
	}

	tracingCfg, err := tracing.ConfigFromEnv(getenv)
	if err != nil {
		errs = append(errs, err)
	}
	c.Tracing = tracingCfg
	c.Tracing.Version = c.Version

	scale, err := strconv.ParseFloat(str("FERRY_RETRY_SCALE", "1"), 64)
	if err != nil || scale <= 0 || scale > 1 {
		errs = append(errs, fmt.Errorf("FERRY_RETRY_SCALE: want a number in (0, 1], got %q", getenv("FERRY_RETRY_SCALE")))
	}
	c.RetryScale = scale

	c.Roles = map[string]bool{}
	for _, r := range strings.Split(str("FERRY_ROLES", RoleAPI+","+RoleWorker), ",") {
		switch r = strings.TrimSpace(r); r {
		case RoleAPI, RoleWorker:
			c.Roles[r] = true
		default:
			errs = append(errs, fmt.Errorf("FERRY_ROLES: unknown role %q (want api, worker)", r))
		}
	}

	c.MasterKey, c.OtherMasterKeys = masterKeys(str("FERRY_MASTER_KEY", ""), str("FERRY_OTHER_MASTER_KEYS", ""), dev, &errs)
	if jwt := str("FERRY_JWT_SECRET", ""); jwt != "" {
		c.JWTSecret = []byte(jwt)
	} else if dev {
		c.JWTSecret = devSecret("jwt")
	}

	switch c.PaymentProvider {
	case PaymentProviderNone:
	case PaymentProviderTest:
		if !dev {
			errs = append(errs, errors.New("FERRY_PAYMENT_PROVIDER=test accepts every payment and is for FERRY_ENV=dev only"))
		}
	default:
		errs = append(errs, fmt.Errorf("FERRY_PAYMENT_PROVIDER: want test or none, got %q", c.PaymentProvider))
	}
	if c.DatabaseURL == "" {
		errs = append(errs, errors.New("FERRY_DATABASE_URL is required"))
	}
	if len(c.KafkaBrokers) == 0 {
		errs = append(errs, errors.New("FERRY_KAFKA_BROKERS is required"))
	}
	if len(c.MasterKey) != 32 {
		errs = append(errs, errors.New("FERRY_MASTER_KEY is required: 32 bytes, base64 or hex (e.g. `openssl rand -base64 32`)"))
	}
	if len(c.JWTSecret) < 32 {
		errs = append(errs, errors.New("FERRY_JWT_SECRET is required: at least 32 characters"))
	}
	return c, errors.Join(errs...)
}

// DBConfigFromEnv reads only what operator commands on the database need
// (ferry staff …): FERRY_DATABASE_URL and FERRY_ENV. No Kafka, no
// secrets.
func DBConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Config{DatabaseURL: strings.TrimSpace(getenv("FERRY_DATABASE_URL")), DBMaxConns: 4,
		Dev: strings.TrimSpace(getenv("FERRY_ENV")) == "dev", LogFormat: "text", LogLevel: "warn"}
	if c.DatabaseURL == "" {
		return c, errors.New("FERRY_DATABASE_URL is required (for the local setup: " +
			"eval \"$(bash scripts/env.sh)\" first, or use make staff EMAIL=…)")
	}
	return c, nil
}

// MasterKeysFromEnv sets c's master keys from FERRY_MASTER_KEY and
// FERRY_OTHER_MASTER_KEYS, for operator commands that open stored
// secrets (DBConfigFromEnv reads neither). Errors: a key that is not 32
// bytes, or no FERRY_MASTER_KEY outside dev mode.
func MasterKeysFromEnv(getenv func(string) string, c *Config) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	var errs []error
	c.MasterKey, c.OtherMasterKeys = masterKeys(strings.TrimSpace(getenv("FERRY_MASTER_KEY")),
		getenv("FERRY_OTHER_MASTER_KEYS"), c.Dev, &errs)
	if len(c.MasterKey) != 32 && len(errs) == 0 {
		errs = append(errs, errors.New("FERRY_MASTER_KEY is required: 32 bytes, base64 or hex"))
	}
	return errors.Join(errs...)
}

// masterKeys decodes the master key (dev mode's fixed one when unset in
// dev) and the comma-separated other master keys.
func masterKeys(key, others string, dev bool, errs *[]error) ([]byte, [][]byte) {
	master := decodeKey("FERRY_MASTER_KEY", key, errs)
	if master == nil && dev {
		master = devSecret("master-key")
	}
	var out [][]byte
	for i, k := range strings.Split(others, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, decodeKey(fmt.Sprintf("FERRY_OTHER_MASTER_KEYS (key %d)", i+1), k, errs))
		}
	}
	return master, out
}

func decodeKey(name, v string, errs *[]error) []byte {
	if v == "" {
		return nil
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) == 32 {
		return b
	}
	if b, err := hex.DecodeString(v); err == nil && len(b) == 32 {
		return b
	}
	*errs = append(*errs, fmt.Errorf("%s: want 32 bytes as base64 or hex", name))
	return nil
}

// DevHTTPAddr is where Ferry listens in dev mode unless FERRY_HTTP_ADDR
// says otherwise (make run prints it as the portal's address).
const DevHTTPAddr = "127.0.0.1:8088"

// Version is Ferry's version, set at build time with -ldflags.
var Version = "0.1.0-dev"

// scaled applies FERRY_RETRY_SCALE to a duration of the retry contract.
func (c Config) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * c.RetryScale)
}

// validateIngestURL checks FERRY_INGEST_URL: an origin (scheme and host,
// no path, query or credentials), https outside dev.
func validateIngestURL(raw string, dev bool) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("want an origin such as https://in.example.com, got %q", raw)
	}
	if u.Scheme != "https" && (u.Scheme != "http" || !dev) {
		return fmt.Errorf("want an https origin (http only with FERRY_ENV=dev), got %q", raw)
	}
	return nil
}

// cipher seals stored secrets with the master key and opens them with
// it or any of the other master keys.
func (c Config) cipher() (*seal.Cipher, error) {
	return seal.New(c.MasterKey, c.OtherMasterKeys...)
}
