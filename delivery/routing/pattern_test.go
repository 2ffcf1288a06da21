package routing

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, typ string
		want         bool
	}{
		{"order.created", "order.created", true},
		{"order.created", "order.updated", false},
		{"order.created", "order.created.v2", false},
		{"order.*", "order.created", true},
		{"order.*", "order.refund.created", true},
		{"order.*", "orders.created", false},
		{"order.*", "order", false},
		{"order*", "orders.created", true},
		{"*", "order.created", true},
		{"*", "ferry.endpoint.failing", true},
		{"ferry.*", "ferry.endpoint.failing", true},
		{"ferry.*", "ferryman.created", false},
		{"ferry.endpoint.*", "ferry.delivery.exhausted", false},
		{"Order.*", "order.created", false},
	} {
		require.Equal(t, tc.want, Match(tc.pattern, tc.typ), "%q vs %q", tc.pattern, tc.typ)
		// Keys must agree with Match: it is what the SQL lookup uses.
		require.Equal(t, tc.want, slices.Contains(Keys(tc.typ), tc.pattern), "Keys(%q) vs %q", tc.typ, tc.pattern)
	}
}

func TestValidatePattern(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"order.created", "order.*", "*", "ferry.*", "a*", "x/y:z-w_v.*"} {
		require.NoError(t, ValidatePattern(ok), ok)
	}
	for _, bad := range []string{"", "**", "*.created", "order.*.created", "order.**", ".order", "order created", "ordér.*", string(make([]byte, 101))} {
		require.Error(t, ValidatePattern(bad), bad)
	}
}
