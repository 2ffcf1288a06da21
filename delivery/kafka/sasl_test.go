package kafka

import (
	"cmp"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// chanSubmitter hands every job to a channel and marks it done.
type chanSubmitter chan model.Job

var _ Submitter = chanSubmitter(nil)

func (s chanSubmitter) Submit(_ context.Context, job model.Job, done func()) error {
	s <- job
	done()
	return nil
}

// TestSASLEndToEnd runs the admin client, the writer and a consumer
// against a broker's SASL/SCRAM listener, for both mechanisms, and checks
// that a wrong password and a plaintext client are refused. It needs a
// broker with such a listener: start one with
//
//	FERRY_STATE_DIR=/tmp/ferry-sasl FERRY_KAFKA_LIBS=$PWD/.ferry/kafka/libs \
//	FERRY_KAFKA_PORT=29092 FERRY_KAFKA_CONTROLLER_PORT=29093 FERRY_KAFKA_SASL_PORT=29094 \
//	bash scripts/services.sh kafka-start
//
// and set FERRY_TEST_KAFKA_SASL_BROKERS=127.0.0.1:29094 (and, if not the
// defaults, FERRY_TEST_KAFKA_SASL_USERNAME/PASSWORD); otherwise it is
// skipped.
func TestSASLEndToEnd(t *testing.T) {
	brokers := os.Getenv("FERRY_TEST_KAFKA_SASL_BROKERS")
	if brokers == "" {
		t.Skip("FERRY_TEST_KAFKA_SASL_BROKERS is not set (a broker with a SASL/SCRAM listener)")
	}
	user := cmp.Or(os.Getenv("FERRY_TEST_KAFKA_SASL_USERNAME"), "ferry")
	pass := cmp.Or(os.Getenv("FERRY_TEST_KAFKA_SASL_PASSWORD"), "ferry-local-scram")
	for _, mech := range []string{SCRAMSHA256, SCRAMSHA512} {
		t.Run(mech, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cfg := Config{Brokers: strings.Split(brokers, ","), TopicPrefix: testenv.Name("sasl") + ".",
				GroupID: testenv.Name("g"), Partitions: 1,
				Security: Security{SASLMechanism: mech, SASLUsername: user, SASLPassword: pass}}

			short, stop := context.WithTimeout(ctx, 5*time.Second)
			defer stop()
			bad := cfg
			bad.Security.SASLPassword = pass + "-wrong"
			if err := Ping(short, bad); err == nil {
				t.Error("a wrong SCRAM password was accepted")
			}
			plain := cfg
			plain.Security = Security{}
			if err := Ping(short, plain); err == nil {
				t.Error("a client without SASL was accepted on the SASL listener")
			}

			if err := Ping(ctx, cfg); err != nil {
				t.Fatalf("ping: %v", err)
			}
			if err := EnsureTopics(ctx, cfg, []string{model.TopicDeliveries}); err != nil {
				t.Fatalf("create topics: %v", err)
			}
			w, err := NewWriter(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			job := model.Job{DeliveryID: uuid.New(), EndpointID: uuid.New(), TenantID: uuid.New(), Attempt: 1,
				Trigger: model.TriggerInitial, AcceptedAt: time.Now().UTC()}
			if err := w.Publish(ctx, []model.Message{{Topic: model.TopicDeliveries, Job: job}}); err != nil {
				t.Fatalf("publish: %v", err)
			}

			sub := make(chanSubmitter, 1)
			c, err := NewConsumer(cfg, sub, nil, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			runCtx, stopRun := context.WithCancel(ctx)
			runDone := make(chan struct{})
			go func() {
				defer close(runDone)
				_ = c.Run(runCtx)
			}()
			defer func() {
				stopRun()
				<-runDone
				_ = c.Close(context.Background())
			}()
			select {
			case got := <-sub:
				if got.DeliveryID != job.DeliveryID {
					t.Errorf("consumed %s, want %s", got.DeliveryID, job.DeliveryID)
				}
			case <-ctx.Done():
				t.Fatal("the consumer read nothing over SASL")
			}
		})
	}
}
