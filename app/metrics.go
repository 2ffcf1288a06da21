package app

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serveMetrics serves handler at /metrics on l, its own listener
// (FERRY_METRICS_ADDR), so metrics can stay on an internal network while
// the API faces the internet. stop closes the server.
func serveMetrics(l net.Listener, handler http.Handler, log *slog.Logger) (stop func()) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("metrics server stopped", "addr", l.Addr().String(), "err", err)
		}
	}()
	log.Info("metrics listening", "addr", l.Addr().String())
	return func() { _ = srv.Close() }
}
