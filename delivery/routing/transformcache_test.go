package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/require"
)

// TestTransformCacheBounds: one tenant flooding the cache with distinct
// sources evicts only its own programs; the bystander's stay cached, and
// the bytes held never exceed the total or the flooder's share. Unsaved
// sources are never kept.
//
// Not parallel: it compiles programs by the megabyte, and the memory
// watchdog of the transformer tests running beside it measures the whole
// process's heap (a loop would be stopped for this test's allocations).
func TestTransformCacheBounds(t *testing.T) {
	const total, perTenant = 4 << 20, 1 << 20
	c := newTransformCache(total, perTenant)
	compiles := 0
	compile := func(src string) (*goja.Program, error) {
		compiles++
		return compileTransformation(src)
	}
	bystander := Source{Tenant: "bystander", Code: `function handler(w) { w.payload = {ok: true}; return w }`}
	_, err := c.get(bystander, compile)
	require.NoError(t, err)

	tests := []struct {
		name string
		src  func(i int) Source
		n    int
	}{
		{name: "small sources", n: 5000, src: func(i int) Source {
			return Source{Tenant: "flood", Code: fmt.Sprintf("function handler(w) { return w } // %d", i)}
		}},
		{name: "large sources", n: 200, src: func(i int) Source {
			return Source{Tenant: "flood", Code: fmt.Sprintf("function handler(w) { return w } // %d %s", i, strings.Repeat("x", 60<<10))}
		}},
		{name: "many tenants", n: 2000, src: func(i int) Source {
			return Source{Tenant: fmt.Sprintf("flood-%d", i%50), Code: fmt.Sprintf("function handler(w) { return w } // %d %s", i, strings.Repeat("y", 4<<10))}
		}},
		{name: "unsaved sources", n: 1000, src: func(i int) Source {
			return Source{Tenant: "editor", Code: fmt.Sprintf("function handler(w) { return w } // %d", i), Unsaved: true}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.n {
				s := tt.src(i)
				_, err := c.get(s, compile)
				require.NoError(t, err)
				held, tenantHeld, _ := c.stats(s.Tenant)
				require.LessOrEqual(t, held, int64(total), "total bytes over the bound")
				require.LessOrEqual(t, tenantHeld, int64(perTenant), "tenant bytes over its share")
			}
			before := compiles
			_, err := c.get(bystander, compile)
			require.NoError(t, err)
			require.Equal(t, before, compiles, "the bystander's program was evicted")
		})
	}
	_, editorBytes, editorPrograms := c.stats("editor")
	require.Zero(t, editorBytes)
	require.Zero(t, editorPrograms, "unsaved sources were cached")
}
