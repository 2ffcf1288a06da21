package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ferry-dev/ferry/delivery/kafka"
	"github.com/ferry-dev/ferry/email"
	"github.com/ferry-dev/ferry/migrations"
)

// Verdict grades one finding of Diagnose.
type Verdict string

// Verdicts, from fine to broken. A Fail keeps Ferry from working; a Warn
// works but needs attention; Skipped could not be checked because an
// earlier check failed.
const (
	OK      Verdict = "ok"
	Warn    Verdict = "warn"
	Fail    Verdict = "FAIL"
	Skipped Verdict = "skip"
)

// Finding is one line of ferry doctor's report.
type Finding struct {
	Area    string // configuration, postgresql, migrations, clock, kafka, smtp
	Verdict Verdict
	Detail  string // what was found, in plain words, and what to do about it
}

// clockSkewWarn and clockSkewFail bound the difference between this
// machine's clock and PostgreSQL's. Leases, retry due times and the
// signature timestamps receivers check all compare the two; TOTP codes
// are valid for 30 s either way.
const (
	clockSkewWarn = time.Second
	clockSkewFail = 30 * time.Second
)

// Diagnose checks what Ferry needs to run, as `ferry serve` would start
// with getenv's configuration, without changing anything: no migration
// applied, no topic created, no mail sent. Every check has a deadline, so
// an unreachable service is reported, not waited on.
func Diagnose(ctx context.Context, getenv func(string) string) []Finding {
	var out []Finding
	add := func(area string, v Verdict, format string, args ...any) {
		out = append(out, Finding{Area: area, Verdict: v, Detail: fmt.Sprintf(format, args...)})
	}
	cfg, cfgErr := ConfigFromEnv(getenv)
	if cfgErr != nil {
		for _, err := range splitErrors(cfgErr) {
			add("configuration", Fail, "%v", err)
		}
		// The database alone can still be checked; the rest needs a
		// valid configuration.
		if cfg, cfgErr = DBConfigFromEnv(getenv); cfgErr != nil {
			for _, area := range []string{"postgresql", "kafka", "smtp"} {
				add(area, Skipped, "needs a valid configuration first")
			}
			return out
		}
	} else {
		mode := "production"
		if cfg.Dev {
			mode = "dev (FERRY_ENV=dev)"
		}
		add("configuration", OK, "%s, roles %s, listening on %s", mode, strings.Join(roleNames(cfg), ","), cfg.HTTPAddr)
		for _, w := range startupWarnings(cfg) {
			add("configuration", Warn, "%s", w)
		}
	}
	out = append(out, diagnoseDatabase(ctx, cfg)...)
	if len(cfg.KafkaBrokers) == 0 {
		add("kafka", Skipped, "needs a valid configuration first")
		add("smtp", Skipped, "needs a valid configuration first")
		return out
	}
	out = append(out, diagnoseKafka(ctx, cfg)...)
	out = append(out, diagnoseSMTP(ctx, cfg))
	return out
}

// splitErrors lists the errors errors.Join combined, one per finding.
func splitErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func roleNames(cfg Config) []string {
	var names []string
	for _, r := range []string{RoleAPI, RoleWorker} {
		if cfg.Roles[r] {
			names = append(names, r)
		}
	}
	return names
}

func diagnoseDatabase(ctx context.Context, cfg Config) []Finding {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	db, err := OpenDB(ctx, cfg)
	if err != nil {
		return []Finding{{"postgresql", Fail, fmt.Sprintf("cannot connect with FERRY_DATABASE_URL: %v "+
			"(locally, `make services` starts PostgreSQL on 127.0.0.1:54329)", err)},
			{"migrations", Skipped, "needs PostgreSQL"}, {"clock", Skipped, "needs PostgreSQL"}}
	}
	sqlDB, err := db.DB()
	if err != nil {
		return []Finding{{"postgresql", Fail, err.Error()}}
	}
	defer sqlDB.Close()
	var version string
	var dbNow time.Time
	before := time.Now()
	if err := sqlDB.QueryRowContext(ctx, "SELECT current_setting('server_version'), clock_timestamp()").Scan(&version, &dbNow); err != nil {
		return []Finding{{"postgresql", Fail, fmt.Sprintf("connected, but a query failed: %v", err)},
			{"migrations", Skipped, "needs PostgreSQL"}, {"clock", Skipped, "needs PostgreSQL"}}
	}
	after := time.Now()
	out := []Finding{{"postgresql", OK, "PostgreSQL " + version}}

	pending, applied, err := migrations.Pending(ctx, sqlDB)
	switch {
	case err != nil:
		out = append(out, Finding{"migrations", Fail, err.Error()})
	case len(pending) > 0:
		out = append(out, Finding{"migrations", Warn, fmt.Sprintf("%d not applied yet (first %05d); `ferry migrate` "+
			"applies them, as does `ferry serve` when it starts", len(pending), pending[0])})
	default:
		out = append(out, Finding{"migrations", OK, fmt.Sprintf("all applied (newest %05d)", applied)})
	}

	// The query ran somewhere between before and after: compare with the
	// middle, and say how uncertain that is.
	skew := dbNow.Sub(before.Add(after.Sub(before) / 2))
	abs := max(skew, -skew)
	detail := fmt.Sprintf("this machine's clock and PostgreSQL's differ by %s (±%s)", abs.Round(time.Millisecond),
		after.Sub(before).Round(time.Millisecond))
	switch {
	case abs > clockSkewFail:
		out = append(out, Finding{"clock", Fail, detail + ": sign-in codes, leases and retry times will be wrong; run NTP on both machines"})
	case abs > clockSkewWarn:
		out = append(out, Finding{"clock", Warn, detail + ": run NTP on both machines"})
	default:
		out = append(out, Finding{"clock", OK, detail})
	}
	return out
}

func diagnoseKafka(ctx context.Context, cfg Config) []Finding {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	kcfg := kafkaConfig(cfg)
	cluster, err := kafka.Describe(ctx, kcfg, kcfg.Topics)
	if err != nil {
		return []Finding{{"kafka", Fail, fmt.Sprintf("no broker of %s answers: %v (locally, `make services` starts Kafka on 127.0.0.1:19092)",
			strings.Join(cfg.KafkaBrokers, ","), err)}}
	}
	out := []Finding{{"kafka", OK, fmt.Sprintf("%d broker(s) answer at %s", cluster.Brokers, strings.Join(cfg.KafkaBrokers, ","))}}
	if cluster.Brokers < cfg.KafkaReplication {
		out = append(out, Finding{"kafka", Fail, fmt.Sprintf("FERRY_KAFKA_REPLICATION_FACTOR is %d but the cluster has %d broker(s): topics cannot be created",
			cfg.KafkaReplication, cluster.Brokers)})
	}
	var missing []string
	for _, t := range cluster.Topics {
		switch {
		case !t.Exists:
			missing = append(missing, t.Name)
			continue
		case t.Leaderless > 0:
			out = append(out, Finding{"kafka", Fail, fmt.Sprintf("topic %s: %d of %d partitions have no leader; "+
				"deliveries on them wait until a broker holding a replica is back", t.Name, t.Leaderless, t.Partitions)})
		case t.UnderReplicated > 0:
			out = append(out, Finding{"kafka", Warn, fmt.Sprintf("topic %s: %d of %d partitions are under-replicated (a broker is down or behind)",
				t.Name, t.UnderReplicated, t.Partitions)})
		}
		if t.Replicas < cfg.KafkaReplication {
			out = append(out, Finding{"kafka", Warn, fmt.Sprintf("topic %s has %d replica(s), fewer than FERRY_KAFKA_REPLICATION_FACTOR=%d: "+
				"losing a broker may lose jobs; raise it with kafka-reassign-partitions", t.Name, t.Replicas, cfg.KafkaReplication)})
		}
		if t.Partitions < cfg.KafkaPartitions {
			out = append(out, Finding{"kafka", Warn, fmt.Sprintf("topic %s has %d partitions, fewer than FERRY_KAFKA_PARTITIONS=%d: "+
				"fewer workers can share its load", t.Name, t.Partitions, cfg.KafkaPartitions)})
		}
	}
	switch {
	case len(missing) == len(cluster.Topics):
		out = append(out, Finding{"kafka", Warn, fmt.Sprintf("none of Ferry's %d topics exist yet (prefix %q): `ferry serve` creates them when it starts",
			len(missing), cfg.KafkaTopicPrefix)})
	case len(missing) > 0:
		out = append(out, Finding{"kafka", Warn, fmt.Sprintf("topics missing: %s; `ferry serve` creates them when it starts", strings.Join(missing, ", "))})
	default:
		out = append(out, Finding{"kafka", OK, fmt.Sprintf("all %d topics present", len(cluster.Topics))})
	}
	return out
}

func diagnoseSMTP(ctx context.Context, cfg Config) Finding {
	if cfg.SMTPURL == "" {
		return Finding{"smtp", Warn, "FERRY_SMTP_URL is not set: sign-up links, password resets, invites and notifications are logged, not sent"}
	}
	sc, err := email.ParseSMTPURL(cfg.SMTPURL)
	if err != nil {
		return Finding{"smtp", Fail, err.Error()}
	}
	sc.From, sc.Timeout = cfg.MailFrom, 5*time.Second
	s, err := email.NewSMTP(sc)
	if err != nil {
		return Finding{"smtp", Fail, err.Error()}
	}
	if err := s.Ping(ctx); err != nil {
		return Finding{"smtp", Fail, fmt.Sprintf("%v (locally, `make run` starts a mail catcher on 127.0.0.1:19025)", err)}
	}
	return Finding{"smtp", OK, fmt.Sprintf("%s:%d accepts a connection (greeting, TLS and sign-in as configured)", sc.Host, sc.Port)}
}
