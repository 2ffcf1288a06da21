package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHealthcheck(t *testing.T) {
	t.Parallel()
	var status atomic.Int32
	status.Store(http.StatusOK)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err)
	env := map[string]string{"FERRY_HTTP_ADDR": ":" + port}
	getenv := func(k string) string { return env[k] }

	require.NoError(t, run(context.Background(), []string{"healthcheck"}, getenv, nil, io.Discard),
		"the default URL is /readyz on FERRY_HTTP_ADDR's port")
	require.NoError(t, run(context.Background(), []string{"healthcheck", srv.URL + "/readyz"}, getenv, nil, io.Discard))
	require.Error(t, run(context.Background(), []string{"healthcheck", srv.URL + "/metrics"}, getenv, nil, io.Discard))
	status.Store(http.StatusServiceUnavailable)
	require.Error(t, run(context.Background(), []string{"healthcheck"}, getenv, nil, io.Discard), "503 is unhealthy")
}
