package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
)

// FuzzSignatureRoundTrip checks Sign/Verify/SignatureHeader against an
// independent Standard Webhooks computation, and that any change to the
// id, timestamp or body breaks verification.
func FuzzSignatureRoundTrip(f *testing.F) {
	f.Add([]byte("0123456789abcdef01234567"), "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", int64(1674087231), []byte(`{"test":2432232314}`), byte(1))
	f.Add(make([]byte, 64), "", int64(0), []byte{}, byte(0))
	f.Add([]byte("whsec_key_material_that_is_long"), "2f1e…", int64(-1), []byte("\x00\xff"), byte(7))
	f.Fuzz(func(t *testing.T, key []byte, id string, ts int64, body []byte, flip byte) {
		if len(key) == 0 {
			return
		}
		sig := Sign(key, id, ts, body)
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "." + string(body)))
		want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
		if sig != want {
			t.Fatalf("Sign = %q, independent computation %q", sig, want)
		}
		if !Verify(key, id, ts, body, sig) {
			t.Fatalf("own signature does not verify")
		}
		other := append([]byte{flip}, key...)
		header := SignatureHeader([][]byte{other, key}, id, ts, body)
		if len(strings.Fields(header)) != 2 || !Verify(key, id, ts, body, header) || !Verify(other, id, ts, body, header) {
			t.Fatalf("rotation header %q does not verify with both keys", header)
		}
		if Verify(key, id, ts+1, body, sig) {
			t.Fatalf("signature verifies for another timestamp")
		}
		if len(body) > 0 {
			changed := append([]byte(nil), body...)
			changed[int(flip)%len(changed)] ^= 1 | flip
			if Verify(key, id, ts, changed, sig) {
				t.Fatalf("signature verifies for a changed body")
			}
		}
		// A whsec_ secret of 24-64 bytes round-trips to its key.
		if len(key) >= 24 && len(key) <= 64 {
			got, err := SecretKey(secretPrefix + base64.StdEncoding.EncodeToString(key))
			if err != nil || string(got) != string(key) {
				t.Fatalf("SecretKey round trip: %v", err)
			}
		}
	})
}
