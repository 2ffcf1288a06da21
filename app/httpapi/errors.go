package httpapi

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ferry-dev/ferry"
)

// errorBody is the one error shape of the API (docs/api.md, Errors).
type errorBody struct {
	Error errorDetail `json:"error"` // what went wrong
}

// errorDetail is the inside of errorBody.
type errorDetail struct {
	Code    string `json:"code"`    // a stable, machine-readable code: branch on it
	Message string `json:"message"` // for people; may change
	Field   string `json:"field,omitempty"`
}

var statusByCode = map[string]int{
	ferry.EINVALID:      fiber.StatusUnprocessableEntity,
	ferry.EBADREQUEST:   fiber.StatusBadRequest,
	ferry.ENOTFOUND:     fiber.StatusNotFound,
	ferry.ECONFLICT:     fiber.StatusConflict,
	ferry.EUNAUTHORIZED: fiber.StatusUnauthorized,
	ferry.EFORBIDDEN:    fiber.StatusForbidden,
	ferry.EQUOTA:        fiber.StatusTooManyRequests,
	ferry.EPLANLIMIT:    fiber.StatusUnprocessableEntity,
	ferry.ERATELIMIT:    fiber.StatusTooManyRequests,
	ferry.EREPLAYLIMIT:  fiber.StatusTooManyRequests,
	ferry.EKEYREUSED:    fiber.StatusUnprocessableEntity,
	ferry.EPAYMENT:      fiber.StatusPaymentRequired,
	ferry.ETOOLARGE:     fiber.StatusRequestEntityTooLarge,
	ferry.ETIMEOUT:      fiber.StatusRequestTimeout,
	ferry.EUNAVAILABLE:  fiber.StatusServiceUnavailable,
	ferry.EINTERNAL:     fiber.StatusInternalServerError,
}

// errorHandler turns any error a handler returns into the error body. It
// is the only place that chooses an error's HTTP status.
func errorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		var fe *ferry.Error
		var fibErr *fiber.Error
		switch {
		case errors.As(err, &fe):
		case errors.As(err, &fibErr):
			fe = fromFiberError(fibErr)
		case unavailable(err):
			log.WarnContext(c.UserContext(), "dependency unavailable", "err", err, "path", c.Path())
			fe = &ferry.Error{Code: ferry.EUNAVAILABLE, Message: "Ferry cannot reach its database right now; retry shortly", RetryAfterSeconds: 1}
		default:
			log.ErrorContext(c.UserContext(), "internal error", "err", err, "method", c.Method(), "path", c.Path())
			fe = &ferry.Error{Code: ferry.EINTERNAL, Message: "internal error"}
		}
		status, ok := statusByCode[fe.Code]
		if !ok {
			status = fiber.StatusInternalServerError
		}
		if fe.RetryAfterSeconds > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(fe.RetryAfterSeconds))
		}
		return c.Status(status).JSON(errorBody{Error: errorDetail{Code: fe.Code, Message: fe.Message, Field: fe.Field}})
	}
}

func fromFiberError(e *fiber.Error) *ferry.Error {
	switch e.Code {
	case fiber.StatusNotFound:
		return &ferry.Error{Code: ferry.ENOTFOUND, Message: "no such route"}
	case fiber.StatusMethodNotAllowed:
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "method not allowed on this route"}
	case fiber.StatusRequestEntityTooLarge:
		return errBodyTooLarge()
	case fiber.StatusRequestTimeout:
		// Also what fasthttp reports when an idle keep-alive connection
		// reaches the read timeout; it must not look like a server fault.
		return &ferry.Error{Code: ferry.ETIMEOUT, Message: "request not received in time"}
	case fiber.StatusBadRequest:
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: e.Message}
	case fiber.StatusUnsupportedMediaType:
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body must be application/json"}
	default:
		return &ferry.Error{Code: ferry.EINTERNAL, Message: "internal error"}
	}
}

// unavailable reports whether err means Postgres (or the network to it)
// is down rather than a bug: the API then answers 503, never 202.
func unavailable(err error) bool {
	var connErr *pgconn.ConnectError
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &connErr), errors.As(err, &netErr), errors.Is(err, driver.ErrBadConn),
		errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.As(err, &pgErr):
		// Class 08 is connection exceptions; 57P01-57P03 are shutdowns.
		return len(pgErr.Code) == 5 && (pgErr.Code[:2] == "08" || pgErr.Code[:3] == "57P")
	}
	return pgconn.SafeToRetry(err) || errors.Is(err, io.ErrUnexpectedEOF)
}
