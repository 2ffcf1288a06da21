package dispatch

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// payload returns the body an attempt sends and its content type: the
// envelope; or, for a raw endpoint, the body an inbound source captured
// with its content type ("" when the provider sent none), and for an
// event from no source its data as JSON (docs/contract.md#inbound-sources).
// Every attempt of a delivery sends the same bytes.
func (d *Dispatcher) payload(ctx context.Context, ep delivery.Endpoint, eventID uuid.UUID, st deliveryState) ([]byte, string, error) {
	if ep.Format != delivery.FormatRaw {
		return webhook.Envelope(eventID, st.Type, st.CreatedAt, st.Data), "application/json", nil
	}
	if !st.Raw {
		return st.Data, "application/json", nil
	}
	if st.RawLoaded {
		return st.RawBody, st.RawContentType, nil
	}
	// The endpoint became raw after the state was read.
	return loadRawBody(ctx, d.db, eventID)
}

func loadRawBody(ctx context.Context, db *gorm.DB, eventID uuid.UUID) ([]byte, string, error) {
	var row struct {
		Body        []byte
		ContentType string
	}
	if err := db.WithContext(ctx).Raw(`SELECT body, content_type FROM event_raw_bodies WHERE event_id = ?`, eventID).
		Scan(&row).Error; err != nil {
		return nil, "", fmt.Errorf("load raw body of event %s: %w", eventID, err)
	}
	return row.Body, row.ContentType, nil
}

// setContentType puts the payload's content type on headers (none when
// a raw request had none).
func setContentType(h http.Header, contentType string) {
	if contentType == "" {
		h.Del("Content-Type")
		return
	}
	h.Set("Content-Type", contentType)
}
