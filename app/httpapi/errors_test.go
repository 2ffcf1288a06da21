package httpapi

import (
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
)

// TestFiberErrorsMapToOurCodes: errors Fiber raises itself (unknown
// route, oversized body, read timeout) get our error codes, never the
// "internal" of a server fault.
func TestFiberErrorsMapToOurCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		code   string
		http   int
	}{
		{fiber.StatusNotFound, ferry.ENOTFOUND, 404},
		{fiber.StatusMethodNotAllowed, ferry.EBADREQUEST, 400},
		{fiber.StatusRequestEntityTooLarge, ferry.ETOOLARGE, 413},
		{fiber.StatusBadRequest, ferry.EBADREQUEST, 400},
		{fiber.StatusUnsupportedMediaType, ferry.EBADREQUEST, 400},
		{fiber.StatusRequestTimeout, ferry.ETIMEOUT, 408},
		{fiber.StatusTeapot, ferry.EINTERNAL, 500},
	}
	for _, tt := range tests {
		got := fromFiberError(fiber.NewError(tt.status, "x"))
		if got.Code != tt.code {
			t.Errorf("fiber %d → code %s, want %s", tt.status, got.Code, tt.code)
		}
		if statusByCode[got.Code] != tt.http {
			t.Errorf("fiber %d → HTTP %d, want %d", tt.status, statusByCode[got.Code], tt.http)
		}
	}
}
