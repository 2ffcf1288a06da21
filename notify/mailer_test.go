package notify

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/email"
	"github.com/ferry-dev/ferry/tenants"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// fakeDirectory answers recipients per topic.
type fakeDirectory struct {
	RecipientsFunc func(topic tenants.NotificationTopic) []string
}

var _ Directory = (*fakeDirectory)(nil)

func (f *fakeDirectory) NotificationRecipients(_ context.Context, _ uuid.UUID, topic tenants.NotificationTopic) ([]string, error) {
	return f.RecipientsFunc(topic), nil
}

func (f *fakeDirectory) Tenant(_ context.Context, id uuid.UUID) (tenants.Tenant, error) {
	return tenants.Tenant{ID: id, Name: "Acme"}, nil
}

// recordingSender keeps what it was asked to send.
type recordingSender struct {
	mu   sync.Mutex
	sent []email.Message
}

func (r *recordingSender) Send(_ context.Context, m email.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m)
	return nil
}

func (r *recordingSender) messages() []email.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]email.Message(nil), r.sent...)
}

type testBundle struct {
	mailer *Mailer
	sender *recordingSender
	topics []tenants.NotificationTopic
}

func setup(t *testing.T, queue int) *testBundle {
	t.Helper()
	tpl, err := email.ParseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	b := &testBundle{sender: &recordingSender{}}
	var mu sync.Mutex
	dir := &fakeDirectory{RecipientsFunc: func(topic tenants.NotificationTopic) []string {
		mu.Lock()
		defer mu.Unlock()
		b.topics = append(b.topics, topic)
		return []string{"ann@example.com", "bob@example.com"}
	}}
	b.mailer, err = New(dir, b.sender, tpl, Config{PortalURL: "https://ferry.example/", QueueSize: queue},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMailerMailsEachNotification(t *testing.T) {
	t.Parallel()
	ep := uuid.New()
	since := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	health := model.EndpointHealthData{EndpointID: ep, URL: "https://hooks.acme.test/in", FailingSince: since, Reason: "HTTP 503"}
	tests := []struct {
		name    string
		send    func(m *Mailer)
		subject string
		want    []string
	}{
		{"failing", func(m *Mailer) {
			m.OperationalEvent(context.Background(), model.OperationalEvent{Type: model.OpEndpointFailing, Data: health})
		}, "Endpoint failing: https://hooks.acme.test/in (Acme)",
			[]string{"https://hooks.acme.test/in", "HTTP 503", "23 Nov 2026 09:30 UTC", "https://ferry.example/endpoints/" + ep.String()}},
		{"disabled", func(m *Mailer) {
			m.OperationalEvent(context.Background(), model.OperationalEvent{Type: model.OpEndpointDisabled, Data: health})
		}, "Endpoint disabled: https://hooks.acme.test/in (Acme)",
			[]string{"https://hooks.acme.test/in", "HTTP 503", "https://ferry.example/endpoints/" + ep.String()}},
		{"recovered", func(m *Mailer) {
			m.OperationalEvent(context.Background(), model.OperationalEvent{Type: model.OpEndpointRecovered, Data: health})
		}, "Endpoint recovered: https://hooks.acme.test/in (Acme)",
			[]string{"https://hooks.acme.test/in", "accepts deliveries again", "https://ferry.example/endpoints/" + ep.String()}},
		{"quota", func(m *Mailer) {
			m.OperationalEvent(context.Background(), model.OperationalEvent{Type: model.OpQuotaWarning,
				Data: model.QuotaWarningData{Period: "2026-11", Percent: 80, Used: 800, Limit: 1000}})
		}, "Acme has used 80 % of its monthly events",
			[]string{"800 of the 1000 events", "2026-11", "https://ferry.example/billing"}},
		{"invoice", func(m *Mailer) {
			m.InvoiceIssued(context.Background(), billing.Invoice{ID: uuid.New(), Period: "2026-10", Currency: "usd", TotalMinor: 4900})
		}, "Your Ferry invoice for 2026-10",
			[]string{"USD 49.00", "2026-10", "https://ferry.example/billing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, 4)
			tt.send(b.mailer)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { _ = b.mailer.Run(ctx); close(done) }()
			testenv.Eventually(t, 5*time.Second, func() bool { return len(b.sender.messages()) >= 2 }, "two mails sent")
			cancel()
			<-done
			msgs := b.sender.messages()
			if len(msgs) != 2 || msgs[0].To != "ann@example.com" || msgs[1].To != "bob@example.com" {
				t.Fatalf("sent %+v, want one mail to each recipient", msgs)
			}
			for _, m := range msgs {
				if m.Subject != tt.subject {
					t.Errorf("subject %q, want %q", m.Subject, tt.subject)
				}
				for _, w := range tt.want {
					if !strings.Contains(m.Text, w) || !strings.Contains(m.HTML, w) {
						t.Errorf("mail lacks %q:\n%s\n%s", w, m.Text, m.HTML)
					}
				}
			}
		})
	}
}

func TestMailerDropsWhenFullAndIgnoresOtherEvents(t *testing.T) {
	t.Parallel()
	b := setup(t, 1)
	ev := model.OperationalEvent{Type: model.OpQuotaWarning, Data: model.QuotaWarningData{Percent: 100}}
	b.mailer.OperationalEvent(context.Background(), model.OperationalEvent{Type: model.OpDeliveryExhausted,
		Data: model.DeliveryExhaustedData{}})
	start := time.Now()
	for range 100 {
		b.mailer.OperationalEvent(context.Background(), ev) // never blocks: 99 are dropped
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("enqueueing blocked for %s", d)
	}
	if n := len(b.mailer.queue); n != 1 {
		t.Fatalf("queue holds %d, want 1 (exhausted deliveries mail nobody; the rest dropped)", n)
	}
}
