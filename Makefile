# Ferry's two commands: `make run` and `make test`. Everything they need is
# installed on first use and reused after (state in .ferry/, git-ignored).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
FERRY_ENV_VARS = eval "$$(bash scripts/env.sh)"
# Local mail catcher (mailpit): starts it if needed, prints its inbox URL,
# exports FERRY_SMTP_URL, FERRY_TEST_SMTP_URL and FERRY_TEST_MAIL_API.
FERRY_MAIL_VARS = mail_vars="$$(bash scripts/mail.sh start)" && eval "$$mail_vars"

.PHONY: openapi-check run test services stop status clean-state build frontend image helm-check vet tidy-check migrate help bench bench-guard bench-plots chaos fuzz sdk-test staff

help:
	@echo "make run          start PostgreSQL + Kafka locally, build and run Ferry (dev mode), print the portal URL"
	@echo "make test         check go.mod is tidy, start the services, go vet, and run every test against them"
	@echo "make image        build the OCI image without Docker: bin/ferry-image.oci.tar (see docs/deploy.md)"
	@echo "make services     start only PostgreSQL and Kafka;  make stop / make status / make clean-state"
	@echo "make staff EMAIL=you@example.com   create a local support staff account (prints where to sign in and how to enrol an authenticator)"
	@echo "make bench        end-to-end benchmark (≈10 min): table + bench-results.json (BENCH_RECORD=1 keeps it in docs/bench/runs)"
	@echo "make bench-guard  one endpoint at 100/s for 20 s; fails when its p50 is over twice the recorded figure (docs/bench/guard.json)"
	@echo "make bench-plots  redraw docs/bench/*.svg from the recorded runs in docs/bench/runs"
	@echo "make chaos        three-broker KRaft cluster, one broker killed mid-load (private services; CHAOS_MODE=rolling restarts each in turn)"

## Local services (PostgreSQL from Debian packages, Kafka from Maven Central).
services:
	@bash scripts/services.sh start

stop:
	@bash scripts/services.sh stop
	@bash scripts/mail.sh stop

status:
	@bash scripts/services.sh status || true

clean-state:
	@bash scripts/services.sh clean

## Build.
frontend:
	@bash scripts/frontend.sh build

build: frontend
	$(GO) build -buildvcs=auto -o bin/ferry ./app/cmd/ferry

# The OCI image, built without a container engine (scripts/mkimage): the
# static binary with the portal embedded, CA certificates and a non-root
# account, FROM scratch. The Dockerfile builds the same with Docker.
# SOURCE_DATE_EPOCH (the commit's time) makes the layers reproducible.
IMAGE_VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
IMAGE_REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
image: frontend
	CGO_ENABLED=0 GOOS=linux $(GO) build -trimpath -ldflags "-s -w -X github.com/ferry-dev/ferry/app.Version=$(IMAGE_VERSION)" \
		-o bin/image/ferry ./app/cmd/ferry
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct) $(GO) run ./scripts/mkimage -binary bin/image/ferry \
		-version $(IMAGE_VERSION) -revision $(IMAGE_REVISION) -out bin/ferry-image.oci.tar

## The Helm chart (deploy/helm/ferry): lint and render with the example
## values; helm is built into .ferry/bin on first use.
helm-check:
	@bash scripts/helm.sh check

## Run Ferry in dev mode on 127.0.0.1:8088 against the local services.
# Services and the build do not need each other: started side by side,
# Ferry is up sooner.
run:
	@$(MAKE) --no-print-directory -j2 services build
	@$(FERRY_ENV_VARS); $(FERRY_MAIL_VARS); \
	export FERRY_ENV=dev FERRY_HTTP_ADDR=$${FERRY_HTTP_ADDR:-127.0.0.1:8088}; \
	exec ./bin/ferry serve

migrate: services
	@$(FERRY_ENV_VARS); FERRY_ENV=dev $(GO) run ./app/cmd/ferry migrate

## A support staff account on the local database (needs only PostgreSQL).
staff: services
	@test -n "$(EMAIL)" || { echo "usage: make staff EMAIL=you@example.com" >&2; exit 2; }
	@$(FERRY_ENV_VARS); FERRY_ENV=dev $(GO) run ./app/cmd/ferry staff create --email "$(EMAIL)"

## Tests: tidy go.mod, vet, then every package (unit, integration, end-to-end).
vet:
	$(GO) vet ./...

# go.mod and go.sum must be what `go mod tidy` writes. Only the root module
# is checked: a nested module (such as sdk/go) lies outside it and checks
# itself.
tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result" >&2; exit 1; }

# The OpenAPI documents, validated as OpenAPI 3.1 (examples included) by
# validators independent of kin-openapi (scripts/openapi.sh).
openapi-check:
	@bash scripts/openapi.sh

# The image test (scripts/mkimage) runs the image `make image` built; the
# chart test renders with the helm that `make helm-check` installed.
test: tidy-check services vet openapi-check sdk-test image helm-check
	@$(FERRY_ENV_VARS); $(FERRY_MAIL_VARS); eval "$$(bash scripts/verifiers.sh env)"; \
	export FERRY_TEST_IMAGE=$$PWD/bin/ferry-image.oci.tar FERRY_TEST_HELM=$$PWD/.ferry/bin/helm; \
	$(GO) test -count=1 -p 2 -timeout 20m ./...
	@$(MAKE) --no-print-directory fuzz
	@$(FERRY_ENV_VARS); bash scripts/frontend.sh test

## Receiver SDKs (Go, Node, Python) against PostgreSQL and a private Redis.
sdk-test: services
	@$(FERRY_ENV_VARS); bash scripts/sdk.sh test

## Fuzz targets, briefly (seed corpora always run as part of go test).
# A count, not a duration: with a duration, Go's fuzz coordinator can fail
# with "context deadline exceeded" on a loaded machine without finding
# anything. 20000 inputs take about 6 s per target here.
FUZZTIME ?= 20000x
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzEventInput$$' -fuzztime=$(FUZZTIME) ./delivery
	$(GO) test -run='^$$' -fuzz='^FuzzSignatureRoundTrip$$' -fuzztime=$(FUZZTIME) ./delivery/webhook
	$(GO) test -run='^$$' -fuzz='^FuzzEndpointURL$$' -fuzztime=$(FUZZTIME) ./delivery
	$(GO) test -run='^$$' -fuzz='^FuzzAddressPolicy$$' -fuzztime=$(FUZZTIME) ./delivery/egress
	$(GO) test -run='^$$' -fuzz='^FuzzIngestParsing$$' -fuzztime=$(FUZZTIME) ./inbound

## Performance and reliability (not part of make test; see docs/benchmarks.md and docs/operations.md).
bench:
	@bash scripts/bench.sh

# One endpoint at 100 events/s for 20 s; fails when its p50 is over twice
# the figure recorded in docs/bench/guard.json (docs/benchmarks.md).
bench-guard:
	@BENCH_ONLY=e-one-endpoint-100 BENCH_DURATION=20s BENCH_OUT=bench-results-guard.json BENCH_GUARD=docs/bench/guard.json bash scripts/bench.sh

# The plots of docs/benchmarks.md, from every recorded run (no services needed).
bench-plots:
	$(GO) run ./scripts/benchplot -out docs/bench docs/bench/runs

chaos:
	@bash scripts/chaos.sh
