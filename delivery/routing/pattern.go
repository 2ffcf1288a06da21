package routing

import (
	"fmt"
	"regexp"
	"strings"
)

// Wildcard is the character that, as the last character of an
// event-type pattern, matches any remainder of the event type.
const Wildcard = "*"

// exactPattern is an event type: 1-100 characters of letters, digits and
// . _ : - / starting with a letter or digit.
var exactPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:\-/]{0,99}$`)

// ValidatePattern reports whether p is an event type ("order.created"),
// an event type prefix followed by the wildcard ("order.*", "ferry.*",
// "order.ref*"), or the wildcard alone ("*", every event type). A
// wildcard anywhere but at the end is refused.
func ValidatePattern(p string) error {
	if p == Wildcard {
		return nil
	}
	prefix, wild := strings.CutSuffix(p, Wildcard)
	if strings.Contains(prefix, Wildcard) {
		return fmt.Errorf("event type pattern %q may only end in %s", p, Wildcard)
	}
	if !exactPattern.MatchString(prefix) || (wild && len(prefix) > 99) {
		return fmt.Errorf("event type %q must be 1-100 characters of letters, digits and . _ : - /, optionally ending in %s", p, Wildcard)
	}
	return nil
}

// Match reports whether pattern (valid per ValidatePattern) matches the
// event type typ.
func Match(pattern, typ string) bool {
	if prefix, ok := strings.CutSuffix(pattern, Wildcard); ok {
		return strings.HasPrefix(typ, prefix)
	}
	return pattern == typ
}

// Keys returns every pattern that matches typ: typ itself and each of
// its prefixes followed by the wildcard, "*" included. An endpoint whose
// patterns contain any of them is subscribed to typ, which lets the
// subscription lookup be one indexed "contains any of these keys" query
// instead of testing every endpoint's patterns.
func Keys(typ string) []string {
	keys := make([]string, 0, len(typ)+2)
	keys = append(keys, typ)
	for i := 0; i <= len(typ); i++ {
		keys = append(keys, typ[:i]+Wildcard)
	}
	return keys
}
