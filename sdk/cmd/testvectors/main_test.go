package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/ferry-dev/ferry/delivery/webhook"
)

// TestCheckedInVectorsAreCurrent fails when sdk/testvectors.json differs
// from what the generator prints now, e.g. after a change to Ferry's
// signing code.
func TestCheckedInVectorsAreCurrent(t *testing.T) {
	t.Parallel()
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../testvectors.json")
	if err != nil {
		t.Fatalf("read sdk/testvectors.json: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sdk/testvectors.json is stale: run `go run ./sdk/cmd/testvectors > sdk/testvectors.json` from the repository root")
	}
}

// TestVectorsAgreeWithFerrysVerify checks every vector with a valid secret
// against the server's own webhook.Verify, so the generator cannot label
// a vector wrongly.
func TestVectorsAgreeWithFerrysVerify(t *testing.T) {
	t.Parallel()
	out, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	var f File
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	for _, v := range f.Vectors {
		key, err := webhook.SecretKey(v.Secret)
		if v.Expect == errInvalidSecret {
			if err == nil {
				t.Errorf("%s: secret accepted by webhook.SecretKey", v.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if v.Expect == errMissingHeader {
			continue
		}
		body, err := base64.StdEncoding.DecodeString(v.BodyBase64)
		if err != nil {
			t.Fatal(err)
		}
		ts, perr := strconv.ParseInt(v.Headers["webhook-timestamp"], 10, 64)
		ok := perr == nil && webhook.Verify(key, v.Headers["webhook-id"], ts, body, v.Headers["webhook-signature"])
		if wantOK := v.Expect != errInvalidSig; ok != wantOK {
			t.Errorf("%s: webhook.Verify = %v, vector expects %s", v.Name, ok, v.Expect)
		}
	}
}
