package routing

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// Filter limits and defaults.
const (
	// MaxFilterLength bounds the source text of a filter.
	MaxFilterLength = 4096
	// DefaultCostLimit is the CEL cost budget of one evaluation: enough
	// for field comparisons, string functions and small list
	// comprehensions over the event; a filter that needs more is stopped
	// and counts as not matched.
	DefaultCostLimit = 10_000
	// DefaultCacheSize bounds the compiled filters kept per process.
	DefaultCacheSize = 10_000
)

// ErrInvalidFilter is wrapped by the *FilterError Check and Eval return
// for a filter that does not compile.
var ErrInvalidFilter = errors.New("invalid filter")

// FilterError is a filter that does not compile or type-check: Message
// is the compiler's report, naming line and column.
type FilterError struct {
	Message string
}

// Error implements error.
func (e *FilterError) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrInvalidFilter) hold.
func (e *FilterError) Unwrap() error { return ErrInvalidFilter }

// Event is what a filter sees as the variable `event`.
type Event struct {
	ID        string
	Type      string
	CreatedAt time.Time
	// Data is the event's JSON payload; a filter sees it as dyn.
	Data json.RawMessage
	// Request is the request an inbound source captured to make the
	// event; nil for other events, which filters see with an empty one.
	Request *Request
}

// Request is what a filter sees as the variable `request`: the request a
// source captured (docs/contract.md#inbound-sources).
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Headers has lower-cased names; repeated headers joined by ", ".
	Headers map[string]string `json:"headers"`
	// Query has the first value of each parameter.
	Query map[string]string `json:"query"`
}

// Config tunes Filters.
type Config struct {
	// CostLimit is the CEL cost budget of one evaluation (default
	// DefaultCostLimit).
	CostLimit uint64
	// CacheSize bounds the compiled filters kept (default
	// DefaultCacheSize); when full, the cache starts over.
	CacheSize int
}

// Filters compiles, caches and evaluates CEL filters. It is safe for
// concurrent use.
type Filters struct {
	env *cel.Env
	cfg Config

	cache *programCache[cel.Program]

	evalErrors atomic.Int64
}

// NewFilters returns Filters with cfg's defaults filled in.
func NewFilters(cfg Config) (*Filters, error) {
	if cfg.CostLimit == 0 {
		cfg.CostLimit = DefaultCostLimit
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	env, err := cel.NewEnv(cel.Variable("event", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("request", cel.MapType(cel.StringType, cel.DynType)))
	if err != nil {
		return nil, fmt.Errorf("routing: CEL environment: %w", err)
	}
	return &Filters{env: env, cfg: cfg, cache: newProgramCache[cel.Program](cfg.CacheSize)}, nil
}

// Check compiles and type-checks src; an empty filter is valid. Errors:
// a *FilterError (wrapping ErrInvalidFilter) with the compiler's message
// and position.
func (f *Filters) Check(src string) error {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	_, err := f.program(src, true)
	return err
}

// EvalErrors returns how many evaluations failed (runtime errors and
// exhausted budgets) since f was made.
func (f *Filters) EvalErrors() int64 { return f.evalErrors.Load() }

// Input is an event prepared for filters: its data decoded once, however
// many endpoints' filters look at it. Make it with Prepare.
type Input struct {
	vars map[string]any
	err  error
}

// Prepare decodes ev for evaluation. A malformed payload is reported by
// every Eval on the Input.
func Prepare(ev Event) *Input {
	var data any
	if len(ev.Data) > 0 {
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			return &Input{err: fmt.Errorf("decode event data: %w", err)}
		}
	}
	return &Input{vars: map[string]any{
		"event":   map[string]any{"id": ev.ID, "type": ev.Type, "created_at": ev.CreatedAt.UTC(), "data": data},
		"request": requestVar(ev.Request),
	}}
}

// Eval reports whether the filter src accepts the event. An empty filter
// accepts every event. Any error (invalid filter, bad data, a missing
// field, an exceeded cost budget, a non-bool result) means not matched;
// it is counted and returned so the caller can log it.
func (f *Filters) Eval(src string, in *Input) (bool, error) {
	if strings.TrimSpace(src) == "" {
		return true, nil
	}
	ok, err := f.eval(src, in, true)
	if err != nil {
		f.evalErrors.Add(1)
	}
	return ok, err
}

// Try is Eval without counting errors and without caching the compiled
// filter: for trying a filter on a sample event rather than routing a
// real one.
func (f *Filters) Try(src string, in *Input) (bool, error) {
	if strings.TrimSpace(src) == "" {
		return true, nil
	}
	return f.eval(src, in, false)
}

func (f *Filters) eval(src string, in *Input, keep bool) (bool, error) {
	prg, err := f.program(src, keep)
	if err != nil {
		return false, err
	}
	if in.err != nil {
		return false, in.err
	}
	out, _, err := prg.Eval(in.vars)
	if err != nil {
		return false, fmt.Errorf("evaluate filter: %w", err)
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("evaluate filter: result is %s, not bool", out.Type().TypeName())
	}
	return bool(b), nil
}

// program returns the compiled program of src, compiling it on first
// use; keep says whether to cache it (not for a filter being tried).
func (f *Filters) program(src string, keep bool) (cel.Program, error) {
	return f.cache.get(src, keep, f.compile)
}

func (f *Filters) compile(src string) (cel.Program, error) {
	if len(src) > MaxFilterLength {
		return nil, &FilterError{Message: fmt.Sprintf("filter must be at most %d bytes", MaxFilterLength)}
	}
	ast, iss := f.env.Compile(src)
	if iss != nil && iss.Err() != nil {
		return nil, &FilterError{Message: strings.TrimSpace(iss.String())}
	}
	if t := ast.OutputType(); !t.IsExactType(types.BoolType) && !t.IsExactType(types.DynType) {
		return nil, &FilterError{Message: fmt.Sprintf("filter must evaluate to bool, not %s", t)}
	}
	prg, err := f.env.Program(ast, cel.CostLimit(f.cfg.CostLimit), cel.InterruptCheckFrequency(100))
	if err != nil {
		return nil, &FilterError{Message: err.Error()}
	}
	return prg, nil
}

// requestVar is r as the `request` variable: every field present, empty
// for events that came from no source, so filters need no has() checks.
func requestVar(r *Request) map[string]any {
	if r == nil {
		r = &Request{}
	}
	headers := make(map[string]any, len(r.Headers))
	for k, v := range r.Headers {
		headers[strings.ToLower(k)] = v
	}
	query := make(map[string]any, len(r.Query))
	for k, v := range r.Query {
		query[k] = v
	}
	return map[string]any{"method": r.Method, "path": r.Path, "headers": headers, "query": query}
}
