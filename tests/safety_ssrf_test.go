package tests

import "testing"

// TestMetadataEndpointsRefusedEvenInDev plays a tenant pointing endpoints
// at cloud metadata services, directly and through every IPv6 form that
// carries an IPv4 address, on a Ferry that allows private addresses
// (FERRY_ALLOW_PRIVATE_ENDPOINTS=true, as in dev): each is refused on
// creation and on update.
func TestMetadataEndpointsRefusedEvenInDev(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	if !cfg.AllowPrivateEndpoints {
		t.Fatal("this test needs private endpoints allowed")
	}
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "eve@ssrf.example")
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:9/ok"}, &ep)
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data/",           // AWS, GCP, Azure, DigitalOcean IPv4
		"http://[fd00:ec2::254]/latest/meta-data/",           // AWS IPv6
		"http://100.100.100.200/latest/meta-data/",           // Alibaba
		"http://192.0.0.192/opc/v2/instance/",                // Oracle
		"http://168.63.129.16/machine",                       // Azure wire server
		"http://169.254.170.2/v2/credentials",                // AWS ECS
		"http://[fe80::a9fe:a9fe]/",                          // link-local IPv6
		"http://[::ffff:169.254.169.254]/",                   // IPv4-mapped
		"http://[::a9fe:a9fe]/",                              // IPv4-compatible
		"http://[64:ff9b::a9fe:a9fe]/",                       // NAT64
		"http://[64:ff9b:1::a9fe:a9fe]/",                     // local-use NAT64
		"http://[2002:a9fe:a9fe::1]/",                        // 6to4
		"http://[2001:0:4136:e378:8000:63bf:5601:5601]/",     // Teredo
		"http://[::ffff:0:a9fe:a9fe]/",                       // SIIT
		"http://[64:ff9b::7f00:1]:8080/",                     // NAT64 of loopback
		"http://[0:0:0:0:0:ffff:a9fe:a9fe]/latest/meta-data", // mapped, long form
	} {
		r := key.raw("POST", "/endpoints", mustJSON(t, map[string]any{"url": u}), nil)
		if r.Status != 422 || r.apiError(t).Error.Field != "url" {
			t.Errorf("create %s: %d %s, want 422 on url", u, r.Status, r.Body)
		}
		r = key.raw("PATCH", "/endpoints/"+ep.ID, mustJSON(t, map[string]any{"url": u}), nil)
		if r.Status != 422 {
			t.Errorf("update to %s: %d %s, want 422", u, r.Status, r.Body)
		}
	}
}
