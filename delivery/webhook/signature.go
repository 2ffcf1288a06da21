package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// Sign returns one Standard Webhooks signature, "v1,<base64 HMAC-SHA256>"
// over id.timestamp.body.
func Sign(key []byte, id string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(nil, timestamp, 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// SignatureHeader signs with every key (several during a rotation's grace
// period) and joins the signatures with spaces.
func SignatureHeader(keys [][]byte, id string, timestamp int64, body []byte) string {
	sigs := make([]string, len(keys))
	for i, k := range keys {
		sigs[i] = Sign(k, id, timestamp, body)
	}
	return strings.Join(sigs, " ")
}

// Verify reports whether header holds a valid v1 signature by key.
func Verify(key []byte, id string, timestamp int64, body []byte, header string) bool {
	want := Sign(key, id, timestamp, body)
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}
