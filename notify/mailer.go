package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/email"
	"github.com/ferry-dev/ferry/tenants"
)

// Directory is what Mailer asks tenants, which owns users and their
// preferences. tenants.Service satisfies it.
type Directory interface {
	// NotificationRecipients returns the addresses that want mail about
	// topic for tenantID. Errors: wrapped database errors.
	NotificationRecipients(ctx context.Context, tenantID uuid.UUID, topic tenants.NotificationTopic) ([]string, error)
	// Tenant returns the tenant, for its name. Errors: ENOTFOUND,
	// wrapped database errors.
	Tenant(ctx context.Context, id uuid.UUID) (tenants.Tenant, error)
}

// Config tunes a Mailer.
type Config struct {
	// PortalURL is the public base URL of the portal, for links
	// ("https://ferry.example.com"); links are bare paths without it (a
	// worker-only process that was given no FERRY_PUBLIC_URL).
	PortalURL string
	// QueueSize bounds the notifications waiting to be mailed (default
	// 256); more are dropped with a warning.
	QueueSize int
	// SendTimeout bounds the sending of one notification to all its
	// recipients (default 30 s).
	SendTimeout time.Duration
}

func (c Config) withDefaults() Config {
	c.PortalURL = strings.TrimRight(c.PortalURL, "/")
	c.QueueSize = cmp.Or(c.QueueSize, 256)
	c.SendTimeout = cmp.Or(c.SendTimeout, 30*time.Second)
	return c
}

// notification is one mail to render for every recipient of a topic.
type notification struct {
	tenantID uuid.UUID
	topic    tenants.NotificationTopic
	name     string // email template
	subject  func(org string) string
	data     email.Data
	// log attributes naming what the mail is about
	attrs []any
}

// Mailer mails notifications off the caller's path; see the package doc.
type Mailer struct {
	dir    Directory
	sender email.Sender
	tpl    *email.Templates
	cfg    Config
	log    *slog.Logger
	queue  chan notification
}

// New returns a Mailer; call Run to start sending.
func New(dir Directory, sender email.Sender, tpl *email.Templates, cfg Config, log *slog.Logger) (*Mailer, error) {
	if dir == nil || sender == nil || tpl == nil || log == nil {
		return nil, errors.New("notify.New: directory, sender, templates and log are required")
	}
	cfg = cfg.withDefaults()
	return &Mailer{dir: dir, sender: sender, tpl: tpl, cfg: cfg, log: log, queue: make(chan notification, cfg.QueueSize)}, nil
}

// OperationalEvent queues the mail about ev, if ev is one people are
// told about (endpoint health, quota warnings). It never blocks.
func (m *Mailer) OperationalEvent(ctx context.Context, ev model.OperationalEvent) {
	n, ok := m.fromEvent(ev)
	if !ok {
		return
	}
	m.enqueue(ctx, n)
}

// InvoiceIssued queues the mail about a newly issued invoice. It never
// blocks.
func (m *Mailer) InvoiceIssued(ctx context.Context, inv billing.Invoice) {
	m.enqueue(ctx, notification{
		tenantID: inv.TenantID, topic: tenants.TopicInvoices, name: email.MailInvoiceIssued,
		subject: func(string) string { return "Your Ferry invoice for " + inv.Period },
		data: email.Data{Link: m.cfg.PortalURL + "/billing", Action: "See the invoice", Period: inv.Period,
			Amount: formatAmount(inv.TotalMinor, inv.Currency)},
		attrs: []any{"tenant_id", inv.TenantID, "invoice_id", inv.ID},
	})
}

// fromEvent maps an operational event to its mail.
func (m *Mailer) fromEvent(ev model.OperationalEvent) (notification, bool) {
	n := notification{tenantID: ev.TenantID, attrs: []any{"tenant_id", ev.TenantID, "type", ev.Type}}
	switch d := ev.Data.(type) {
	case model.EndpointHealthData:
		n.topic = tenants.TopicEndpointHealth
		n.data = email.Data{EndpointURL: d.URL, Reason: d.Reason, Since: d.FailingSince.UTC().Format("2 Jan 2006 15:04 UTC"),
			Link: m.cfg.PortalURL + "/endpoints/" + d.EndpointID.String(), Action: "Open the endpoint"}
		n.attrs = append(n.attrs, "endpoint_id", d.EndpointID)
		switch ev.Type {
		case model.OpEndpointFailing:
			n.name = email.MailEndpointFailing
			n.subject = func(org string) string { return "Endpoint failing: " + d.URL + " (" + org + ")" }
		case model.OpEndpointDisabled:
			n.name = email.MailEndpointDisabled
			n.subject = func(org string) string { return "Endpoint disabled: " + d.URL + " (" + org + ")" }
		case model.OpEndpointRecovered:
			n.name = email.MailEndpointRecovered
			n.subject = func(org string) string { return "Endpoint recovered: " + d.URL + " (" + org + ")" }
		default:
			return notification{}, false
		}
	case model.QuotaWarningData:
		if ev.Type != model.OpQuotaWarning {
			return notification{}, false
		}
		n.topic, n.name = tenants.TopicQuota, email.MailQuotaWarning
		n.data = email.Data{Percent: d.Percent, Used: d.Used, Limit: d.Limit, Period: d.Period,
			Link: m.cfg.PortalURL + "/billing", Action: "Review usage and plans"}
		n.subject = func(org string) string {
			return fmt.Sprintf("%s has used %d %% of its monthly events", org, d.Percent)
		}
	default:
		return notification{}, false
	}
	return n, true
}

// enqueue hands n to Run, or drops it when the queue is full.
func (m *Mailer) enqueue(ctx context.Context, n notification) {
	select {
	case m.queue <- n:
	default:
		m.log.WarnContext(ctx, "notification mail dropped: queue full", append(n.attrs, "mail", n.name)...)
	}
}

// Run sends queued notifications until ctx ends; what is still queued
// then is not sent. It returns nil.
func (m *Mailer) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-m.queue:
			sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.cfg.SendTimeout)
			if err := m.send(sendCtx, n); err != nil {
				m.log.WarnContext(ctx, "notification mail not sent", append(n.attrs, "mail", n.name, "error", err)...)
			}
			cancel()
		}
	}
}

// send mails n to each of its recipients.
func (m *Mailer) send(ctx context.Context, n notification) error {
	to, err := m.dir.NotificationRecipients(ctx, n.tenantID, n.topic)
	if err != nil {
		return fmt.Errorf("recipients: %w", err)
	}
	if len(to) == 0 {
		return nil
	}
	t, err := m.dir.Tenant(ctx, n.tenantID)
	if err != nil {
		return fmt.Errorf("tenant: %w", err)
	}
	var errs []error
	for _, addr := range to {
		d := n.data
		d.To, d.Organization, d.Subject = addr, t.Name, n.subject(t.Name)
		msg, err := m.tpl.Render(n.name, d)
		if err != nil {
			return err
		}
		if err := m.sender.Send(ctx, msg); err != nil {
			_, domain, _ := strings.Cut(addr, "@")
			errs = append(errs, fmt.Errorf("send to an address at %s: %w", domain, err))
		}
	}
	return errors.Join(errs...)
}

// formatAmount writes minor units with their currency: "EUR 49.00".
func formatAmount(minor int64, currency string) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s %s%d.%02d", strings.ToUpper(currency), sign, minor/100, minor%100)
}
