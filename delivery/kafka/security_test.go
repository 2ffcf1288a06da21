package kafka

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// writeCA writes a self-signed CA certificate as PEM and returns its path.
func writeCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ferry test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSecurityReachesEveryConnection checks that TLS and the SCRAM
// mechanism are set on the readers' dialer, the writer's transport and
// the admin client, and that plaintext leaves kafka-go's defaults.
func TestSecurityReachesEveryConnection(t *testing.T) {
	t.Parallel()
	ca := writeCA(t)
	for _, c := range []struct {
		name     string
		sec      Security
		wantTLS  bool
		wantCA   bool
		wantMech string
	}{
		{"plaintext", Security{}, false, false, ""},
		{"tls system roots", Security{TLS: true}, true, false, ""},
		{"tls private ca", Security{TLSCAFile: ca}, true, true, ""},
		{"scram-256", Security{SASLMechanism: "SCRAM-SHA-256", SASLUsername: "ferry", SASLPassword: "pw"}, false, false, SCRAMSHA256},
		{"scram-512 over tls", Security{TLS: true, TLSCAFile: ca, SASLMechanism: "scram-sha-512", SASLUsername: "ferry",
			SASLPassword: "pw"}, true, true, SCRAMSHA512},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Config{Brokers: []string{"127.0.0.1:1"}, Security: c.sec}.withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			d := cfg.conn.dialer()
			w, s := openWriters(t, cfg)
			admin := cfg.adminClient()
			// The writers have transports of their own (metadata refreshed
			// within every 250 ms), carrying the same security.
			wt, ok := w.w.Transport.(*kafkago.Transport)
			st, sok := s.client.Transport.(*kafkago.Transport)
			if !ok || !sok || wt.MetadataTTL != 250*time.Millisecond || st.MetadataTTL != 250*time.Millisecond {
				t.Fatalf("writer transports = %T %T", w.w.Transport, s.client.Transport)
			}
			if (st.TLS != nil) != (wt.TLS != nil) || (st.SASL != nil) != (wt.SASL != nil) {
				t.Fatal("the stream's security differs from the writer's")
			}
			if c.wantMech == "" && !c.wantTLS {
				if d != nil || wt.TLS != nil || wt.SASL != nil || admin.Transport != nil {
					t.Fatalf("plaintext changed kafka-go's defaults: dialer %v, writer %v, admin %v", d, w.w.Transport, admin.Transport)
				}
				return
			}
			at, ok := admin.Transport.(*kafkago.Transport)
			if !ok {
				t.Fatalf("admin transport = %T", admin.Transport)
			}
			if d == nil {
				t.Fatal("readers get no dialer")
			}
			for what, tl := range map[string]bool{"dialer": d.TLS != nil, "writer": wt.TLS != nil, "admin": at.TLS != nil} {
				if tl != c.wantTLS {
					t.Errorf("%s TLS = %v, want %v", what, tl, c.wantTLS)
				}
			}
			if c.wantCA && (d.TLS.RootCAs == nil || wt.TLS.RootCAs == nil || at.TLS.RootCAs == nil) {
				t.Error("the private CA is not trusted on every connection")
			}
			names := map[string]string{}
			if d.SASLMechanism != nil {
				names["dialer"] = d.SASLMechanism.Name()
			}
			if wt.SASL != nil {
				names["writer"] = wt.SASL.Name()
			}
			if at.SASL != nil {
				names["admin"] = at.SASL.Name()
			}
			for _, what := range []string{"dialer", "writer", "admin"} {
				if names[what] != c.wantMech {
					t.Errorf("%s SASL mechanism %q, want %q", what, names[what], c.wantMech)
				}
			}
		})
	}
}

func TestSecurityRefusesBadSettings(t *testing.T) {
	t.Parallel()
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sec  Security
		want string
	}{
		{Security{SASLMechanism: "PLAIN", SASLUsername: "u", SASLPassword: "p"}, "unsupported SASL mechanism"},
		{Security{SASLMechanism: "SCRAM-SHA-256", SASLUsername: "u"}, "username and a password"},
		{Security{SASLMechanism: "SCRAM-SHA-512", SASLPassword: "p"}, "username and a password"},
		{Security{SASLUsername: "u", SASLPassword: "p"}, "without a SASL mechanism"},
		{Security{TLSCAFile: filepath.Join(t.TempDir(), "missing.pem")}, "read TLS CA file"},
		{Security{TLSCAFile: notPEM}, "no PEM certificate"},
	} {
		err := Config{Brokers: []string{"b:9092"}, Security: c.sec}.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.sec, err, c.want)
		}
	}
}
