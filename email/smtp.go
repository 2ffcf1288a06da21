package email

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	mail "github.com/wneessen/go-mail"
)

// Message is one mail to one recipient, with a text and an HTML body.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Sender sends a Message. Errors are the mail server's refusals and
// connection failures.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// TLS modes of an SMTP URL's tls parameter.
const (
	TLSStartTLS      = "starttls"      // STARTTLS, required
	TLSOpportunistic = "opportunistic" // STARTTLS when the server offers it
	TLSImplicit      = "tls"           // TLS from the first byte (smtps://)
	TLSNone          = "none"          // plain text (loopback catchers only)
)

// SMTPConfig is a parsed FERRY_SMTP_URL plus the sender address.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	TLS      string
	// From is the sender, e.g. "Ferry <no-reply@ferry.example>".
	From string
	// Timeout bounds connecting and each SMTP command (default 15 s).
	Timeout time.Duration
}

// ParseSMTPURL reads smtp://[user:pass@]host[:port][?tls=…] or
// smtps://…; see the package documentation.
func ParseSMTPURL(raw string) (SMTPConfig, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return SMTPConfig{}, fmt.Errorf("smtp url: %w", err)
	}
	c := SMTPConfig{Host: u.Hostname()}
	if c.Host == "" {
		return SMTPConfig{}, errors.New("smtp url: no host (want smtp://user:pass@host:port)")
	}
	switch u.Scheme {
	case "smtp":
		c.TLS, c.Port = TLSStartTLS, 587
		if ip := net.ParseIP(c.Host); c.Host == "localhost" || (ip != nil && ip.IsLoopback()) {
			c.TLS = TLSNone
		}
	case "smtps":
		c.TLS, c.Port = TLSImplicit, 465
	default:
		return SMTPConfig{}, fmt.Errorf("smtp url: scheme %q (want smtp or smtps)", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if c.Port, err = strconv.Atoi(p); err != nil || c.Port <= 0 || c.Port > 65535 {
			return SMTPConfig{}, fmt.Errorf("smtp url: bad port %q", p)
		}
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if t := u.Query().Get("tls"); t != "" {
		switch t {
		case TLSStartTLS, TLSOpportunistic, TLSImplicit, TLSNone:
			c.TLS = t
		default:
			return SMTPConfig{}, fmt.Errorf("smtp url: tls=%q (want starttls, opportunistic, tls or none)", t)
		}
	}
	return c, nil
}

// SMTP sends mail through one SMTP server, a connection per message.
type SMTP struct {
	cfg SMTPConfig
}

var _ Sender = (*SMTP)(nil)

// NewSMTP returns an SMTP sender for cfg.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	if cfg.From == "" {
		return nil, errors.New("smtp: no sender address")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 15 * time.Second
	}
	return &SMTP{cfg: cfg}, nil
}

func (s *SMTP) client() (*mail.Client, error) {
	opts := []mail.Option{mail.WithPort(s.cfg.Port), mail.WithTimeout(s.cfg.Timeout)}
	switch s.cfg.TLS {
	case TLSImplicit:
		opts = append(opts, mail.WithSSL())
	case TLSOpportunistic:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	case TLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if s.cfg.Username != "" {
		auth := mail.SMTPAuthAutoDiscover
		if s.cfg.TLS == TLSNone {
			// PLAIN over a plain connection: only ever to loopback catchers.
			auth = mail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, mail.WithSMTPAuth(auth), mail.WithUsername(s.cfg.Username), mail.WithPassword(s.cfg.Password))
	}
	c, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("smtp client: %w", err)
	}
	return c, nil
}

// Send delivers m.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := mail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("mail from %q: %w", s.cfg.From, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send mail via %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	return nil
}

// Ping connects, greets the server and authenticates as Send would (TLS
// and credentials included), then quits without sending anything.
func (s *SMTP) Ping(ctx context.Context) error {
	c, err := s.client()
	if err != nil {
		return err
	}
	if err := c.DialWithContext(ctx); err != nil {
		return fmt.Errorf("connect to %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	if err := c.Close(); err != nil {
		return fmt.Errorf("quit %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	return nil
}
