package tests

import (
	"cmp"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/kafka"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestDeliveryOverKafkaSASL runs the whole app (writer, consumers, admin)
// against a broker's SASL/SCRAM listener and delivers an event through
// it. Skipped unless FERRY_TEST_KAFKA_SASL_BROKERS names such a listener
// (see delivery/kafka/sasl_test.go for starting one).
func TestDeliveryOverKafkaSASL(t *testing.T) {
	t.Parallel()
	brokers := os.Getenv("FERRY_TEST_KAFKA_SASL_BROKERS")
	if brokers == "" {
		t.Skip("FERRY_TEST_KAFKA_SASL_BROKERS is not set (a broker with a SASL/SCRAM listener)")
	}
	cfg := testConfig(t)
	cfg.KafkaBrokers = strings.Split(brokers, ",")
	cfg.KafkaSecurity = kafka.Security{SASLMechanism: kafka.SCRAMSHA512,
		SASLUsername: cmp.Or(os.Getenv("FERRY_TEST_KAFKA_SASL_USERNAME"), "ferry"),
		SASLPassword: cmp.Or(os.Getenv("FERRY_TEST_KAFKA_SASL_PASSWORD"), "ferry-local-scram")}
	f := startFerry(t, cfg)
	rc := newReceiver(t, nil)
	_, key := signUp(t, f, "ann@sasl.example")
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, nil)
	key.must(202, "POST", "/events", map[string]any{"type": "sasl.test", "data": map[string]int{"n": 1}}, nil)
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 1 }, "not delivered over SASL")
}
