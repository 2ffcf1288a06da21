package app

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves the runtime profiles on addr (FERRY_PPROF_ADDR) until
// the returned stop is called. Opt-in, for benchmarks and incidents.
func servePprof(addr string, log *slog.Logger) (stop func()) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("pprof server stopped", "addr", addr, "err", err)
		}
	}()
	log.Info("pprof listening", "addr", addr)
	return func() { _ = srv.Close() }
}
