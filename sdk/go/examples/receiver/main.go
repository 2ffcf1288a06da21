// Command receiver is a webhook receiver built on ferrywebhooks, used by
// Ferry's end-to-end test and as an example.
//
//	FERRY_WEBHOOK_SECRET=whsec_… go run ./examples/receiver
//
// It listens on RECEIVER_ADDR (127.0.0.1:0 by default), prints
// "listening http://…" and then "processed <id> <type>" for each event
// it processes. With RECEIVER_FAIL_FIRST=1 the first event's handler
// fails once, to exercise Ferry's retry.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dedupe, err := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	if err != nil {
		return err
	}
	var failed atomic.Bool
	failFirst := os.Getenv("RECEIVER_FAIL_FIRST") == "1"
	h, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret:  os.Getenv("FERRY_WEBHOOK_SECRET"),
		Deduper: dedupe,
		Logger:  slog.New(slog.NewTextHandler(os.Stderr, nil)),
		Handle: func(_ context.Context, e ferrywebhooks.Envelope) error {
			if failFirst && failed.CompareAndSwap(false, true) {
				return errors.New("simulated failure on the first delivery")
			}
			fmt.Printf("processed %s %s\n", e.ID, e.Type)
			return nil
		},
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cmp.Or(os.Getenv("RECEIVER_ADDR"), "127.0.0.1:0"))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Printf("listening http://%s\n", ln.Addr())
	srv := &http.Server{Handler: h}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
