package page_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

func TestCursorRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 15, 4, 5, 123456789, time.UTC)
	for _, c := range []page.Cursor{
		{At: at, ID: uuid.New()},
		{Seq: 42},
	} {
		got, err := page.Decode(c.Encode())
		if err != nil {
			t.Fatalf("decode %+v: %v", c, err)
		}
		if !got.At.Equal(c.At) || got.ID != c.ID || got.Seq != c.Seq {
			t.Errorf("round trip: got %+v, want %+v", got, c)
		}
	}
}

func TestDecodeEmptyIsStart(t *testing.T) {
	t.Parallel()
	c, err := page.Decode("")
	if err != nil || !c.IsZero() || c.AtPtr() != nil {
		t.Fatalf("Decode(\"\") = %+v, %v; want the zero cursor", c, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"!!!",                                // not base64
		"bm90IGpzb24",                        // "not json"
		page.Cursor{}.Encode(),               // no position
		page.Cursor{ID: uuid.New()}.Encode(), // an id without a time
		"eyJuIjotMX0",                        // {"n":-1}
		"MjAyNi0xMS0yM1QxNTowNDowNVp8YWJj",   // the old staff-search form
	} {
		_, err := page.Decode(s)
		var fe *ferry.Error
		if !errors.As(err, &fe) || fe.Code != ferry.EINVALID || fe.Field != "cursor" {
			t.Errorf("Decode(%q) = %v; want EINVALID on cursor", s, err)
		}
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ limit, want int }{
		{0, page.DefaultSize}, {-3, page.DefaultSize}, {1, 1}, {page.MaxSize, page.MaxSize}, {page.MaxSize + 1, page.MaxSize},
	} {
		if got := (page.Request{Limit: tc.limit}).Size(); got != tc.want {
			t.Errorf("Size(%d) = %d, want %d", tc.limit, got, tc.want)
		}
	}
}

func TestTrim(t *testing.T) {
	t.Parallel()
	at := func(n int) page.Cursor { return page.Cursor{Seq: int64(n)} }
	items, next := page.Trim([]int{5, 4, 3}, 3, at)
	if len(items) != 3 || next != "" {
		t.Errorf("last page: %v %q", items, next)
	}
	items, next = page.Trim([]int{5, 4, 3, 2}, 3, at)
	c, err := page.Decode(next)
	if len(items) != 3 || err != nil || c.Seq != 3 {
		t.Errorf("full page: %v %+v %v", items, c, err)
	}
}
