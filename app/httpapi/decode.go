package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

// decode reads a JSON request body into v, answering 400 for malformed
// JSON and 422 (with the field) for a value of the wrong type.
func decode(c *fiber.Ctx, v any) error {
	body := c.Body()
	if ct := c.Get(fiber.HeaderContentType); ct != "" && !strings.HasPrefix(strings.ToLower(ct), fiber.MIMEApplicationJSON) {
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "Content-Type must be application/json"}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body is empty; send a JSON object"}
	}
	if !utf8.Valid(body) {
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body is not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return ferry.Invalid(typeErr.Field, "%s must be %s", fieldName(typeErr.Field), jsonKind(typeErr.Type.Kind().String()))
		}
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body is not valid JSON: " + err.Error()}
	}
	if dec.More() {
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body must hold a single JSON value"}
	}
	return nil
}

func fieldName(f string) string {
	if f == "" {
		return "body"
	}
	return f
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "float64":
		return "a number"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	default:
		return "of another type"
	}
}

// pathID parses the :id route parameter; a malformed id is simply not
// found, like another tenant's.
func pathID(c *fiber.Ctx, what string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return uuid.Nil, ferry.NotFound(what)
	}
	return id, nil
}

// pageRequest reads limit and cursor query parameters.
func pageRequest(c *fiber.Ctx) (page.Request, error) {
	p := page.Request{Cursor: c.Query("cursor")}
	if l := c.Query("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > page.MaxSize {
			return p, ferry.Invalid("limit", "limit must be between 1 and %d", page.MaxSize)
		}
		p.Limit = n
	}
	return p, nil
}

// list is the shape of every list response.
type list[T any] struct {
	Data       []T     `json:"data" nullable:"false"` // the page, in the order the route says
	NextCursor *string `json:"next_cursor" description:"pass as cursor for the next page; null on the last"`
}

func newList[T any](items []T, next string) list[T] {
	if items == nil {
		items = []T{}
	}
	l := list[T]{Data: items}
	if next != "" {
		l.NextCursor = &next
	}
	return l
}
