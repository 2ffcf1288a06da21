package dispatch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/model"
)

// ClassifyStatus maps an HTTP status to an outcome: 2xx succeeds; 400, 401,
// 403, 405, 406 and 422 drop; everything else (3xx included, since
// redirects are not followed) is retried.
func ClassifyStatus(status int) model.Outcome {
	switch {
	case status >= 200 && status < 300:
		return model.OutcomeSuccess
	case status == 400, status == 401, status == 403, status == 405, status == 406, status == 422:
		return model.OutcomeDropped
	default:
		return model.OutcomeRetry
	}
}

// Error classes recorded in the attempt log when no response arrived, or
// none that could be used.
const (
	ErrClassTimeout    = "timeout"
	ErrClassDNS        = "dns"
	ErrClassRefused    = "connection_refused"
	ErrClassReset      = "connection_reset"
	ErrClassTLS        = "tls"
	ErrClassBlocked    = "blocked_address"
	ErrClassConnection = "connection"
	// ErrClassResponseTooLarge is a response whose header block is over
	// egress.MaxResponseHeaderBytes.
	ErrClassResponseTooLarge = "response_too_large"
	// ErrClassTransformation and ErrClassCancelled: no request was made,
	// the endpoint's transformation failed or cancelled the delivery
	// (dropped, never retried).
	ErrClassTransformation = model.ErrClassTransformation
	ErrClassCancelled      = model.ErrClassCancelled
)

// ClassifyError names the class of a transport error. Every transport
// error is retried.
func ClassifyError(err error) string {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	var alertErr tls.AlertError
	var unknownAuth x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var urlErr *url.Error
	switch {
	case errors.Is(err, egress.ErrBlockedAddress):
		return ErrClassBlocked
	case errors.Is(err, egress.ErrResponseTooLarge):
		return ErrClassResponseTooLarge
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return ErrClassTimeout
	case errors.As(err, &urlErr) && urlErr.Timeout():
		return ErrClassTimeout
	case errors.As(err, &dnsErr):
		return ErrClassDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return ErrClassRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return ErrClassReset
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http replaces the tls.RecordHeaderError with a plain error.
		return ErrClassTLS
	case errors.As(err, &certErr), errors.As(err, &recordErr), errors.As(err, &alertErr), errors.As(err, &unknownAuth), errors.As(err, &hostnameErr):
		return ErrClassTLS
	default:
		return ErrClassConnection
	}
}

// Classify decides the outcome of one attempt from what the Sender
// returned: a transport error (including a body cut off by the timeout) is
// a retry named by its error class; otherwise the status decides. reason
// is the error class or the status code, for metrics.
func Classify(resp egress.Response) (outcome model.Outcome, errClass, reason string) {
	if resp.Err != nil {
		class := ClassifyError(resp.Err)
		return model.OutcomeRetry, class, class
	}
	return ClassifyStatus(resp.Status), "", strconv.Itoa(resp.Status)
}
