package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// healthcheck asks a running ferry for its health: the image has no shell
// or curl, so a container healthcheck (Docker Compose, Dockerfile) runs
// `ferry healthcheck` instead. The default URL is /readyz on this
// container's FERRY_HTTP_ADDR port; a worker, which serves no API, is
// checked with its metrics URL (http://127.0.0.1:9100/metrics).
func healthcheckCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error { return healthcheck(ctx, fs.Args(), e.getenv, e.stdout) }
}

func healthcheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	url := ""
	if len(args) == 1 {
		url = args[0]
	} else {
		addr := getenv("FERRY_HTTP_ADDR")
		if addr == "" {
			addr = ":8080"
		}
		_, port, err := net.SplitHostPort(addr)
		if err != nil {
			return fmt.Errorf("FERRY_HTTP_ADDR %q: %w", addr, err)
		}
		url = "http://" + net.JoinHostPort("127.0.0.1", port) + "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck %s: %w", url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck %s: %w", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck %s: %s", url, resp.Status)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
