package delivery

import (
	"testing"

	"github.com/ferry-dev/ferry/delivery/egress"
)

// TestEndpointURLValidationSSRF checks literal private addresses are
// refused when an endpoint is created in production.
func TestEndpointURLValidationSSRF(t *testing.T) {
	t.Parallel()
	prod := &Service{cfg: Config{}}
	dev := &Service{cfg: Config{AllowHTTP: true, AddressPolicy: egress.AddressPolicy{AllowPrivate: true}}}
	for _, u := range []string{"https://127.0.0.1/x", "https://[::1]/x", "https://169.254.169.254/latest", "https://10.0.0.8/",
		"https://localhost/x", "https://[::ffff:169.254.169.254]/", "https://0.0.0.0/", "https://LocalHost./x",
		"https://a.localhost./", "https://]localhost/", "https://]127.0.0.1/", "https://[example.com/"} {
		if err := prod.validateURL(u); err == nil {
			t.Errorf("production accepted %s", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:9000/x", "http://localhost/x"} {
		if err := dev.validateURL(u); err != nil {
			t.Errorf("dev refused %s: %v", u, err)
		}
	}
	if err := dev.validateURL("http://169.254.169.254/latest"); err == nil {
		t.Error("dev accepted the metadata address")
	}
}
