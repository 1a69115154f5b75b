# The whole setup on a fresh Debian machine with Swift:
#   make run    build and start the REPL on a demo database made from seed/
#   make serve  the same demo database in a browser: prints a sign-in link
#   make run-postgres  the same demo on PostgreSQL: a throwaway server, stopped when the REPL ends
#   make test   install what is missing, build, run every test (browser tests included)
SHELL := /bin/bash
SWIFT ?= swift
DEMO_DIR := .swipe-demo
DEMO_DB := $(DEMO_DIR)/demo.sqlite
DEMO_VIEWER ?= demo

.PHONY: deps deps-run build build-swipe reset-demo docs format lint test browser-test fuzz run run-postgres demo-db serve serve-cluster bench bench-serve bench-ranking clean

# What each target needs, installed only when absent (apt-get, as root or
# through sudo). `make run` needs the build's headers alone; `make test` adds
# the tools the tests drive (sqlite3, tmux, PostgreSQL, Chromium, python3-venv).
define apt_install
	@missing=""; \
	for want in $(1); do \
	  case $$want in \
	    libsqlite3-dev)  [ -f /usr/include/sqlite3.h ] ;; \
	    libedit-dev)     [ -f /usr/include/histedit.h ] ;; \
	    libpq-dev)       [ -f /usr/include/postgresql/libpq-fe.h ] ;; \
	    postgresql)      ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ;; \
	    chromium-driver) command -v chromedriver >/dev/null ;; \
	    python3-venv)    python3 -c 'import venv, ensurepip' 2>/dev/null ;; \
	    *)               command -v $$want >/dev/null ;; \
	  esac || missing="$$missing $$want"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

# The swipe binary links SQLite, libedit and libpq (its PostgreSQL backend).
RUN_PACKAGES := libsqlite3-dev libedit-dev libpq-dev
TEST_PACKAGES := $(RUN_PACKAGES) sqlite3 tmux chromium chromium-driver python3-venv postgresql haproxy curl

deps-run:
	$(call apt_install,$(RUN_PACKAGES))

deps:
	$(call apt_install,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build

# Every test run also fuzzes the CSV reader and the REPL parser briefly.
# The PostgreSQL tests run against a throwaway cluster started here
# (scripts/pg-test-cluster.sh) and stopped by the trap, even when tests fail.
TEST_FUZZ_SECONDS ?= 30
test: deps
	$(SWIFT) build --build-tests
	@# The log is read from its tail (CI shows the last lines): on a failure,
	@# every recorded issue is printed again after the summary.
	@set -o pipefail; \
	env_lines=$$(scripts/pg-test-cluster.sh start) || exit 1; eval "$$env_lines"; \
	trap 'scripts/pg-test-cluster.sh stop "$$SWIPE_TEST_PG_DIR"' EXIT; trap 'exit 130' INT TERM; \
	$(SWIFT) test --skip-build 2>&1 | tee .build/test.log || { \
	  echo; echo "=== failures (repeated from above) ==="; \
	  grep -A4 -E '✘ Test .* recorded an issue' .build/test.log | grep -v '^✔' | head -60; \
	  exit 1; }
	FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) fuzz/run.sh
	$(MAKE) --no-print-directory browser-test

# `swipe serve` in headless Chromium (Debian's chromium + chromium-driver),
# driven by selenium from PyPI in a venv under .build; the driver path is
# given and SE_OFFLINE keeps selenium from downloading anything. Never
# skipped: a missing browser fails. Screenshots land in .build/browser-artifacts.
BROWSER_VENV := .build/browser-venv
# axe-selenium-python ships axe-core (the accessibility checks): nothing is fetched at test time.
BROWSER_PACKAGES := selenium==4.38.0 pytest==9.0.2 axe-selenium-python==2.1.6
browser-test: deps
	$(SWIFT) build --product swipe
	$(SWIFT) build --product swipe-serve
	@for tool in chromium chromedriver; do \
	  command -v $$tool >/dev/null || { echo "browser tests: $$tool is missing (make deps installs it)"; exit 1; }; \
	done
	@[ "$$(cat $(BROWSER_VENV)/.packages 2>/dev/null)" = "$(BROWSER_PACKAGES)" ] || { \
	  { [ -x $(BROWSER_VENV)/bin/pip ] || python3 -m venv $(BROWSER_VENV); } && \
	  $(BROWSER_VENV)/bin/pip install --quiet --disable-pip-version-check $(BROWSER_PACKAGES) && \
	  echo "$(BROWSER_PACKAGES)" > $(BROWSER_VENV)/.packages; }
	SE_OFFLINE=true SWIPE_BIN=$$($(SWIFT) build --show-bin-path)/swipe \
	  CHROMIUM=$$(command -v chromium) CHROMEDRIVER=$$(command -v chromedriver) \
	  $(BROWSER_VENV)/bin/pytest -p no:cacheprovider -q Tests/Browser

# Formatting: the toolchain's swift-format with the committed .swift-format.
# `make format` rewrites the files; `make lint` (run by CI) fails on any drift.
FORMAT_PATHS := Sources Tests Package.swift fuzz
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

# The libraries' DocC catalogs (Sources/*/*.docc), built with swift-docc-plugin
# into .build/docs; a broken symbol link or a warning fails the build.
DOC_TARGETS ?= SwipeCore SwipeStore
docs: deps-run
	@mkdir -p .build/docs; for target in $(DOC_TARGETS); do \
	  $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target $$target \
	    --warnings-as-errors --output-path .build/docs/$$target --transform-for-static-hosting || exit 1; \
	done
	@echo "documentation in .build/docs/"

# libFuzzer + AddressSanitizer over the CSV reader and the REPL parser,
# FUZZ_SECONDS each (default 30); corpora in fuzz/corpus/.
fuzz:
	fuzz/run.sh

# Only the `swipe` product: the benchmarks and test targets are not built.
build-swipe: deps-run
	@set -o pipefail; $(SWIFT) build --product swipe 2>&1 \
	  | { grep -v -E '^warning: .*unhandled|^ +/.*CMakeLists.txt$$' || true; }

# The demo database from seed/, made once (scripts/load-seed.sh);
# `make reset-demo` makes it again.
demo-db: build-swipe
	@mkdir -p $(DEMO_DIR)
	@if [ ! -f $(DEMO_DB) ]; then \
	  echo "creating $(DEMO_DB) from seed/"; \
	  scripts/load-seed.sh $$($(SWIFT) build --show-bin-path)/swipe $(DEMO_DB) \
	  || { rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm; exit 1; }; \
	fi

reset-demo:
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@$(MAKE) --no-print-directory demo-db

run: demo-db
	@$$($(SWIFT) build --show-bin-path)/swipe repl --db $(DEMO_DB) --as $(DEMO_VIEWER)

# The same demo with `--db postgres://…`: a throwaway PostgreSQL cluster
# (scripts/pg-test-cluster.sh, about 1 s), the seed imported into it, the
# REPL on it; the cluster and its data go away when the REPL ends.
run-postgres: build-swipe
	@bin=$$($(SWIFT) build --show-bin-path); \
	env_lines=$$(scripts/pg-test-cluster.sh start) || exit 1; eval "$$env_lines"; \
	trap 'scripts/pg-test-cluster.sh stop "$$SWIPE_TEST_PG_DIR"' EXIT; \
	echo "loading seed/ into $$SWIPE_TEST_PG"; \
	scripts/load-seed.sh $$bin/swipe "$$SWIPE_TEST_PG" && \
	$$bin/swipe repl --db "$$SWIPE_TEST_PG" --as $(DEMO_VIEWER)

# The demo in a browser: open the printed link. SERVE_PORT=8080 by default.
SERVE_PORT ?= 8080
serve: demo-db
	@$(SWIFT) build --product swipe-serve
	@bin=$$($(SWIFT) build --show-bin-path); \
	echo "Open this link to swipe as $(DEMO_VIEWER):"; \
	echo "  $$($$bin/swipe link --db $(DEMO_DB) --as $(DEMO_VIEWER) --base http://127.0.0.1:$(SERVE_PORT) 2>/dev/null)"; \
	exec $$bin/swipe serve --db $(DEMO_DB) --port $(SERVE_PORT)

# Three servers over one throwaway PostgreSQL behind HAProxy (Debian's, from
# `make deps`): prints one sign-in link through the proxy; Ctrl-C stops all.
serve-cluster: deps
	@$(SWIFT) build --product swipe
	@$(SWIFT) build --product swipe-serve
	@scripts/serve-cluster.sh $$($(SWIFT) build --show-bin-path)/swipe $(SERVE_PORT) 3

# Benchmarks (BENCHMARKS.md): release build, data generated under bench-data/
# when missing; the PostgreSQL rows run on a throwaway cluster. Quick run: make bench BENCH_SIZES=10k,100k
# One section: make bench BENCH_ONLY=discovery BENCH_SIZES=100k,1M
# (BENCH_ONLY=quota or discovery-import: those discovery rows alone;
#  BENCH_ONLY=discovery-postgres BENCH_SIZES=1M: the next card on PostgreSQL beside SQLite)
BENCH_SIZES ?= 10k,100k,1M
BENCH_RUNS ?= 7
BENCH_ONLY ?= import,ledger,feed,queries,repl,output,insights,discovery,postgres,pgimport,writers,discovery-postgres
bench: deps
	$(SWIFT) build -c release --product swipe
	$(SWIFT) build -c release --product swipe-serve
	$(SWIFT) build -c release --product swipe-bench
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	env_lines=$$(scripts/pg-test-cluster.sh start) || exit 1; eval "$$env_lines"; \
	trap 'scripts/pg-test-cluster.sh stop "$$SWIPE_TEST_PG_DIR"' EXIT; trap 'exit 130' INT TERM; \
	$$bin/swipe-bench --swipe $$bin/swipe --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --only $(BENCH_ONLY) \
	  --postgres "$$SWIPE_TEST_PG" --output bench-data/latest.md

# Only the `swipe serve` load test: 200 WebSockets on loopback, then the same
# commands through swipe repl --json (BENCHMARKS.md, "swipe serve"), on SQLite
# and then on PostgreSQL (a throwaway cluster). SQLite alone: make bench-serve SERVE_ON=serve
SERVE_SESSIONS ?= 200
SERVE_ON ?= serve,serve-postgres
bench-serve: deps
	$(SWIFT) build -c release --product swipe
	$(SWIFT) build -c release --product swipe-serve
	$(SWIFT) build -c release --product swipe-bench
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	env_lines=$$(scripts/pg-test-cluster.sh start) || exit 1; eval "$$env_lines"; \
	trap 'scripts/pg-test-cluster.sh stop "$$SWIPE_TEST_PG_DIR"' EXIT; trap 'exit 130' INT TERM; \
	$$bin/swipe-bench --swipe $$bin/swipe --only $(SERVE_ON) --sizes 10k --sessions $(SERVE_SESSIONS) \
	  --postgres "$$SWIPE_TEST_PG" --output bench-data/serve.md

# Does the feed match people (BENCHMARKS.md "Ranking"): the
# speed-dating replay (precision@3) and the simulated town (matches per 100
# swipes, exposure Gini), beside key order and random orders. SQLite, in
# process; a couple of minutes in release. SPEED_DATING: the nights' folder.
SPEED_DATING ?= ../shared/data/speed-dating
bench-ranking: deps
	$(SWIFT) build -c release --product swipe
	$(SWIFT) build -c release --product swipe-serve
	$(SWIFT) build -c release --product swipe-bench
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	$$bin/swipe-bench --swipe $$bin/swipe --only ranking --speed-dating $(SPEED_DATING) --output bench-data/ranking.md

clean:
	rm -rf .build $(DEMO_DIR)
