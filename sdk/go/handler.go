package ferrywebhooks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
)

// DefaultMaxBodyBytes bounds the request body the handler reads. Ferry's
// payloads are at most 256 KiB and raw-format bodies at most 1 MiB.
const DefaultMaxBodyBytes = 2 << 20

// HandlerConfig configures NewHandler. Set exactly one of Handle and
// HandleRaw.
type HandlerConfig struct {
	// Secret is the endpoint's signing secret ("whsec_…").
	Secret string
	// Handle receives each verified, new envelope. Return nil once the
	// event is processed, or once you decide never to process it (an
	// unknown type): the handler then answers 200. An error answers 500,
	// releases the dedupe key, and Ferry retries.
	Handle func(ctx context.Context, e Envelope) error
	// HandleRaw is Handle for endpoints with the raw format: the
	// original body, signed as-is.
	HandleRaw func(ctx context.Context, m Message, body []byte) error
	// Deduper drops duplicates by webhook-id; nil disables dedupe.
	Deduper *Deduper
	// Verifier sets the timestamp window and clock (zero: defaults).
	Verifier Verifier
	// MaxBodyBytes bounds the body (DefaultMaxBodyBytes when zero).
	MaxBodyBytes int64
	// Logger gets one line per rejected or failed request (discarded
	// when nil).
	Logger *slog.Logger
}

// Handler is the net/http webhook endpoint returned by NewHandler.
type Handler struct {
	cfg HandlerConfig
	log *slog.Logger
}

// NewHandler returns an http.Handler that verifies each POST, drops
// duplicates, and passes new events to cfg.Handle. Its answers, which
// decide what Ferry does next:
//
//	200 processed, or a duplicate of a processed event (Ferry stops)
//	401 missing headers, bad signature, timestamp outside the window
//	    (Ferry drops the delivery; it stays replayable)
//	400 signed correctly but not an envelope (dropped)
//	409 the same event is being processed by another request (retried)
//	500 the handler failed, or the secret is malformed (retried)
//	503 the dedupe store failed (retried)
func NewHandler(cfg HandlerConfig) (*Handler, error) {
	if (cfg.Handle == nil) == (cfg.HandleRaw == nil) {
		return nil, errors.New("ferrywebhooks: set exactly one of Handle and HandleRaw")
	}
	if _, err := decodeSecret(cfg.Secret); err != nil {
		return nil, fmt.Errorf("ferrywebhooks: %w", err)
	}
	cfg.MaxBodyBytes = cmp.Or(cfg.MaxBodyBytes, DefaultMaxBodyBytes)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil)) // slog.DiscardHandler needs Go 1.24
	}
	return &Handler{cfg: cfg, log: log}, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		reply(w, http.StatusMethodNotAllowed, "method_not_allowed")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			reply(w, http.StatusRequestEntityTooLarge, "body_too_large")
			return
		}
		reply(w, http.StatusBadRequest, "unreadable_body")
		return
	}
	res := h.Process(r.Context(), r.Header, body)
	reply(w, res.Status, res.Code)
}

// Result is the answer Process chose: an HTTP status and the code sent
// in the JSON body ({"status": Code}).
type Result struct {
	// Status is the HTTP status code to answer with.
	Status int
	// Code is a short machine-readable reason, e.g. "processed",
	// "duplicate", "invalid_signature".
	Code string
}

// Process verifies, deduplicates and handles one request given its
// headers and raw body, and returns the answer without writing it. It is
// for adapters to other HTTP frameworks (fiberferry uses it), which read
// the body themselves and must answer exactly as ServeHTTP does.
func (h *Handler) Process(ctx context.Context, headers http.Header, body []byte) Result {
	var (
		id  string
		run func(context.Context) error
		err error
	)
	if h.cfg.HandleRaw != nil {
		m, verr := h.cfg.Verifier.VerifySignature(h.cfg.Secret, headers, body)
		err = verr
		id = m.ID
		run = func(ctx context.Context) error { return h.cfg.HandleRaw(ctx, m, body) }
	} else {
		e, verr := h.cfg.Verifier.Verify(h.cfg.Secret, headers, body)
		err = verr
		id = e.ID
		run = func(ctx context.Context) error { return h.cfg.Handle(ctx, e) }
	}
	if err != nil {
		status, code := verifyStatus(err)
		h.log.WarnContext(ctx, "webhook rejected", "status", status, "error", err, "webhook_id", header(headers, HeaderID))
		return Result{status, code}
	}
	if h.cfg.Deduper == nil {
		err = runHandler(ctx, run)
	} else {
		err = h.cfg.Deduper.Do(ctx, id, run)
	}
	switch {
	case err == nil:
		return Result{http.StatusOK, "processed"}
	case errors.Is(err, ErrDuplicate):
		return Result{http.StatusOK, "duplicate"}
	case errors.Is(err, ErrNotRecorded):
		h.log.ErrorContext(ctx, "webhook processed but not recorded", "error", err, "webhook_id", id)
		return Result{http.StatusOK, "processed"}
	case errors.Is(err, ErrInProgress):
		return Result{http.StatusConflict, "in_progress"}
	case errors.Is(err, ErrStore):
		h.log.ErrorContext(ctx, "webhook dedupe store failed", "error", err, "webhook_id", id)
		return Result{http.StatusServiceUnavailable, "store_unavailable"}
	default:
		h.log.ErrorContext(ctx, "webhook handler failed", "error", err, "webhook_id", id)
		return Result{http.StatusInternalServerError, "handler_failed"}
	}
}

// verifyStatus maps a verification error to the answer and its code.
func verifyStatus(err error) (int, string) {
	switch {
	case errors.Is(err, ErrInvalidSecret):
		return http.StatusInternalServerError, "invalid_secret"
	case errors.Is(err, ErrMissingHeader):
		return http.StatusUnauthorized, "missing_header"
	case errors.Is(err, ErrTimestampOutOfWindow):
		return http.StatusUnauthorized, "timestamp_out_of_window"
	case errors.Is(err, ErrInvalidEnvelope):
		return http.StatusBadRequest, "invalid_envelope"
	default:
		return http.StatusUnauthorized, "invalid_signature"
	}
}

// reply writes a small JSON status body.
func reply(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"status":%q}`+"\n", code)
}
