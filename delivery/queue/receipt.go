package queue

import (
	"encoding/base64"

	"github.com/google/uuid"
)

// A receipt names one lease: the delivery id and the lease id, 32 bytes
// base64url encoded. Settling a lease clears its lease id, so a receipt
// works once.

func encodeReceipt(deliveryID, leaseID uuid.UUID) string {
	b := make([]byte, 0, 32)
	b = append(b, deliveryID[:]...)
	b = append(b, leaseID[:]...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeReceipt(s string) (deliveryID, leaseID uuid.UUID, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		return uuid.Nil, uuid.Nil, false
	}
	copy(deliveryID[:], b[:16])
	copy(leaseID[:], b[16:])
	return deliveryID, leaseID, true
}
