# Build, check and test scmgo. `make ci` is what CI runs (.ci/run).
GO       ?= go
REDOCLY_VERSION := 2.77.0
REDOCLY  := .tools/redocly/node_modules/.bin/redocly
SPEC     := api/openapi.yaml

# Modules other than the root's: each is built alone, on its own go.mod
# (GOWORK=off), as its users build it. go.work joins only the root module and
# the CLI's, so that go run ./cmd/scm works from the root.
GOALONE := GOWORK=off $(GO)

# CLI is the module of the scm command, github.com/scmodel/scmgo/cmd/scm: its
# own go.mod holds cobra, the progress bar and OpenTelemetry's SDK and OTLP
# exporters, so that the SDK's users inherit none of them (modgraph_test.go).
CLI := cmd/scm

.PHONY: all generate check-generated tidy lint lint-spec prism-demo vet test test-examples test-recipe test-duckdb specdiff bench-module ci bench fuzz fuzz-ci fuzz-check mutants e2e-temporal record-temporal-histories

all: ci

## generate: check the spec (specdiff validate: a broken spec fails naming
## its lines, before any file changes), then regenerate gen/ from it
## (oapi-codegen, the operation table, the strict server's fallback and the
## paged models' decoders), the model index internal/testkit/genmodels and the
## benchmark module's ogen client. It prints nothing when all is well.
generate:
	@$(GO) generate ./...
	@cd bench && $(GOALONE) generate ./...

# GENERATED is what make generate writes.
GENERATED := gen fake/internal/genserver bench/ogenclient internal/testkit/genmodels

## check-generated: generate into a copy of the working tree and fail when
## what it makes differs from the working tree's generated code. Regenerated
## code passes whether or not it is committed; code older than the spec, or
## edited by hand, does not.
check-generated:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	tar -c --exclude=./.git --exclude=./.tools --exclude=./bin . | tar -x -C "$$tmp" && \
	$(MAKE) -s --no-print-directory -C "$$tmp" generate && \
	for dir in $(GENERATED); do \
		if ! diff -r -q "$$dir" "$$tmp/$$dir" >/dev/null; then \
			diff -r -u "$$dir" "$$tmp/$$dir" | head -n 40; \
			echo "generated code is stale: $$dir/ is not what 'make generate' makes of the spec; run 'make generate'"; exit 1; \
		fi; \
	done

# MODULES are the repository's Go modules other than the root's, read from
# git when a target needs them, so that a module added is tidied and linted
# without a line here. tools/lint, the pinned linters' module, has tools and
# no package.
MODULES = $(filter-out go.mod,$(patsubst %/go.mod,%,$(shell git ls-files --cached --others --exclude-standard go.mod '**/go.mod')))

## tidy: go.mod and go.sum say exactly what the code imports, in every module
tidy:
	$(GO) mod tidy -diff
	@for dir in $(MODULES); do (cd $$dir && $(GOALONE) mod tidy -diff) || exit 1; done

# The pinned linters, staticcheck and actionlint, are the tools of a module
# of their own (tools/lint/go.mod, tool directives only), so that the SDK's
# users inherit neither. go tool -modfile builds each once from that go.mod
# and keeps it in the build cache; staticcheck then reads each module with
# that module's own go.mod (GOWORK=off, as its users build it).
LINTMOD := $(CURDIR)/tools/lint/go.mod
STATICCHECK := $(GOALONE) tool -modfile=$(LINTMOD) staticcheck
ACTIONLINT := $(GOALONE) tool -modfile=$(LINTMOD) actionlint

## lint: staticcheck (its default checks) over every module, one run per
## module, then actionlint over the workflows of .github/workflows; fails on
## any finding, once all have been listed. About 20 s
## once staticcheck's cache (~/.cache/staticcheck) is warm.
lint:
	@status=0; for dir in . $(filter-out tools/lint,$(MODULES)); do \
		echo "== staticcheck $$dir"; (cd $$dir && $(STATICCHECK) ./...) || status=1; \
	done; \
	echo "== actionlint .github/workflows"; $(ACTIONLINT) || status=1; \
	exit $$status

$(REDOCLY):
	npm install --prefix .tools/redocly --no-audit --no-fund --loglevel=error @redocly/cli@$(REDOCLY_VERSION)

# DuckDB's Node.js client, the independent reader of what package
# resultdata writes (its read-back tests).
DUCKDB_VERSION := 1.5.6-r.1
DUCKDB   := .tools/duckdb/node_modules/@duckdb/node-api

$(DUCKDB):
	npm install --prefix .tools/duckdb --no-audit --no-fund --loglevel=error @duckdb/node-api@$(DUCKDB_VERSION)

## test-duckdb: DuckDB reads back the CSV and Parquet files the result
## writers wrote, and a batch's dataset (Parquet, CSV, JSON Lines), and the
## tests compare them with the source workbooks
test-duckdb: $(DUCKDB)
	SCM_DUCKDB=$(CURDIR)/$(DUCKDB) SCM_REQUIRE_DUCKDB=1 $(GO) test -count=1 -run DuckDB ./resultdata/... ./batch/...

SPECDIFF := bin/specdiff

.PHONY: $(SPECDIFF)
$(SPECDIFF):
	$(GO) build -o $@ ./cmd/specdiff

## lint-spec: kin-openapi load and validate plus our rules (the strict
## ones included: a oneOf's variants told apart by their own schema, every
## example valid under plain JSON Schema rules), then Redocly lint (0 errors)
lint-spec: $(REDOCLY) $(SPECDIFF)
	$(SPECDIFF) validate -spec $(SPEC)
	$(REDOCLY) lint --config redocly.yaml $(SPEC)

# Prism, Stoplight's mock and validating proxy: an implementation of the
# spec independent of ours (it ignores discriminators, as most validators
# do). 5.14.2 is the last release that runs on Node.js 18.20 and 20.
PRISM_VERSION := 5.14.2
PRISM    := .tools/prism/node_modules/.bin/prism

$(PRISM):
	npm install --prefix .tools/prism --no-audit --no-fund --loglevel=error @stoplight/prism-cli@$(PRISM_VERSION)

## prism-demo: scm demo against the fake through Prism's validating proxy;
## fails on any violation of the spec Prism reports. Binary bodies go
## around Prism, which corrupts them (stoplightio/prism#2349): see
## tools/prismdemo. About 20 s with Prism installed.
prism-demo: $(PRISM)
	@echo "== prism-demo: scm demo through Prism's validating proxy (about 20 s)"
	$(GO) build -o bin/scm ./cmd/scm
	$(GO) run ./tools/prismdemo -prism $(PRISM) -scm bin/scm -spec $(SPEC)

vet:
	$(GO) vet ./...
	cd $(CLI) && $(GOALONE) vet ./...

## test: the whole suite: the root module's packages that start goroutines
## or share memory through sync under the race detector, the others
## without it (tools/racepkgs tells them apart: the detector finds nothing
## in a package that runs one goroutine of its own, and those tests run
## three to four times faster without it); beside them, in a second
## process, the CLI module's (cmd/scm) under the race detector, its output
## printed once the root's is done. The CLI's tests wait on the fake's real
## time more than they compute, so they fill the root's pauses.
test:
	@echo "== test: the whole suite, the root module with the CLI's beside it (about 3 minutes on 2 cores)"
	@mkdir -p bin; \
	(cd $(CLI) && $(GOALONE) test -race -count=1 -timeout 8m ./... >$(CURDIR)/bin/test-cli.log 2>&1; echo $$? >$(CURDIR)/bin/test-cli.rc) & \
	race=$$($(GO) run ./tools/racepkgs -race) && plain=$$($(GO) run ./tools/racepkgs -plain) || { wait; exit 1; }; \
	echo "== test: the root module's packages that start goroutines, under the race detector"; \
	$(GO) test -race -count=1 -timeout 8m $$race; racerc=$$?; \
	echo "== test: the root module's packages that run one goroutine of their own"; \
	$(GO) test -count=1 -timeout 8m $$plain; plainrc=$$?; wait; \
	echo "== test: the CLI module (cmd/scm), under the race detector"; cat bin/test-cli.log; clirc=$$(cat bin/test-cli.rc); \
	test $$racerc -eq 0 -a $$plainrc -eq 0 -a $$clirc -eq 0

# Adapter and example modules: each has its own go.mod (a replace points
# at this repository), so its dependencies stay out of the SDK's. otel is
# github.com/scmodel/scmgo/scmotel, the OpenTelemetry adapter; scmtemporal
# is the Temporal module with its command, cmd/scm-temporal, and
# scmtemporal/e2e its end-to-end harness.
ADAPTERS := scmotel scmtemporal scmtemporal/e2e
EXAMPLES := examples/otel

## test-examples: vet and test every adapter and example module under the
## race detector
test-examples:
	@for dir in $(ADAPTERS) $(EXAMPLES); do \
		echo "== $$dir"; \
		(cd $$dir && $(GOALONE) vet ./... && $(GOALONE) test -race -count=1 -timeout 5m ./...) || exit 1; \
	done

LISTINGS := cmd/specdiff/testdata/listings

## specdiff: facade coverage of the spec, then the listings kept in testdata
## against the copy of the spec they were made from (so that an operation
## added to the spec does not make them drift): the clean ones must show no
## drift, the planted ones must be caught (exit 1), the schema-level ones
## against the small models spec of the testdata
MODELS := cmd/specdiff/testdata/specs/models.yaml
REFERENCE := cmd/specdiff/testdata/reference/openapi.yaml
specdiff: $(SPECDIFF)
	$(SPECDIFF) facade -spec $(SPEC) -dir facade
	$(SPECDIFF) -spec $(REFERENCE) $(LISTINGS)/snake-omissions.md $(LISTINGS)/swagger.json $(LISTINGS)/names.txt
	@$(SPECDIFF) -spec $(REFERENCE) $(LISTINGS)/camel-drift.txt $(LISTINGS)/drift-openapi.yaml >/dev/null; \
		code=$$?; if [ $$code -ne 1 ]; then echo "specdiff: planted drift not caught (exit $$code, want 1)"; exit 1; fi
	@$(SPECDIFF) -spec $(MODELS) $(LISTINGS)/models-drift.yaml >/dev/null; \
		code=$$?; if [ $$code -ne 1 ]; then echo "specdiff: planted schema drift not caught (exit $$code, want 1)"; exit 1; fi

# BENCH_SKIP leaves out of bench-module the one paging benchmark that takes
# most of its time (the bare oapi-codegen client on escaped wide rows, 18 s):
# the same four clients page the same table under the other shapes.
BENCH_SKIP ?= -skip '^BenchmarkPaging/wide-escaped$$'

## bench-module: vet the benchmark module (bench/, with the ogen client),
## run its tests (the decoding bound copies the rows the facade decodes) and
## its benchmarks once, so that every client still pages the whole table
bench-module:
	@echo "== bench-module: the benchmark module's tests and each benchmark once (about a minute)"
	cd bench && $(GOALONE) vet ./... && $(GOALONE) test -count=1 -bench . -benchtime 1x $(BENCH_SKIP) ./...

## test-recipe: CONTRIBUTING.md's "Changing the spec" on a copy of the module (an
## operation and a field added, make generate, build, calls, the guards'
## messages, the addition accepted, then a second operation with a new model
## the same way, three broken edits), recipe_test.go behind the recipe build
## tag
test-recipe:
	@echo "== test-recipe: CONTRIBUTING.md's recipe replayed on a copy of the module (several minutes)"
	$(GO) test -tags recipe -run '^TestRecipe$$' -count=1 -timeout 15m .

## ci: what CI runs (.ci/run), in this order: check-generated (gen/ is what
## the spec makes), tidy (every module's go.mod), lint (staticcheck over
## every module, actionlint over the workflow), lint-spec (our checks and
## Redocly, installed from npm under .tools/), prism-demo (the demo through
## Prism's validating proxy, from npm), vet (the root module and the CLI's,
## cmd/scm), specdiff (facade coverage and the listings), fuzz-check (every
## fuzzer is listed), test (both modules' suites under -race, the library
## module-graph check and every fuzzer's seeds among them), test-duckdb
## (DuckDB's Node.js client from npm reads back the written files),
## test-examples (the adapter and example modules, each on its own go.mod)
## and bench-module (the benchmark module, once). About 6 minutes on a
## 2-core machine once the caches are filled; a cold first run also
## downloads the Go modules and three npm packages. The two slow checks,
## test-recipe (8 minutes) and fuzz-ci (1.5 minutes), run as jobs of their
## own in .github/workflows/ci.yml, beside this one.
ci: check-generated tidy lint lint-spec prism-demo vet specdiff fuzz-check test test-duckdb test-examples bench-module

## mutants: each mutation of tools/mutants (a bug the suite must
## catch) applied in turn, the tests that must catch it run, and the file
## restored: fails unless every one is KILLED (TESTING.md). Slow, so not
## part of ci. MUTANTS='-only NAME' runs those whose names match.
mutants:
	$(GO) run ./tools/mutants $(MUTANTS)

# The Temporal CLI, whose `temporal server start-dev` is the development
# server of e2e-temporal, built from source through the Go module proxy (no
# release binary is fetched). v1.9.1, the newest, cannot be installed with
# go install (its go.mod replaces a module of its own by a directory).
TEMPORAL_CLI_VERSION := v1.5.1
TEMPORAL_CLI := .tools/temporal/temporal

$(TEMPORAL_CLI):
	@echo "== building the Temporal CLI $(TEMPORAL_CLI_VERSION) from source (2.5 minutes measured on 2 cores, 5 with an empty build cache)"
	GOBIN=$(CURDIR)/.tools/temporal $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)

## e2e-temporal: the scmtemporal module end to end, not part of ci
## (scmtemporal/e2e, TESTING.md): the Temporal CLI built when missing, a
## development server on free ports with its in-memory store, the fake (in
## the harness's process), 200 plan items on 4 worker processes, one killed
## with SIGKILL at random every 2-6 s and started again; then the same plan
## with scm batch on this machine. Fails unless every item was imported and
## run exactly once, completed, and exported its own result. E2E_FLAGS adds
## flags (e2e run -h lists them: -workers, -items, -status-lag, -busy-every
## for another process starting the plan's configurations, ...).
E2E_FLAGS ?=
e2e-temporal: $(TEMPORAL_CLI)
	$(GO) build -o bin/scm ./cmd/scm
	cd scmtemporal/e2e && $(GOALONE) build -o $(CURDIR)/bin/scm-e2e .
	bin/scm-e2e run -temporal-cli $(TEMPORAL_CLI) -scm bin/scm $(E2E_FLAGS)

## record-temporal-histories: ItemWorkflow's histories for the scmtemporal
## module's replay test, recorded on a development server (scmtemporal/e2e
## record) into scmtemporal/testdata/histories. Record again only for a
## change of the workflow that is behind workflow.GetVersion, and keep the
## old histories beside the new ones.
record-temporal-histories: $(TEMPORAL_CLI)
	cd scmtemporal/e2e && $(GOALONE) build -o $(CURDIR)/bin/scm-e2e .
	bin/scm-e2e record -temporal-cli $(TEMPORAL_CLI) -out scmtemporal/testdata/histories

## bench: every benchmark, with allocations, then the benchmark module's
## comparison with ogen
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...
	cd $(CLI) && $(GOALONE) test -run '^$$' -bench . -benchmem -timeout 30m ./...
	cd bench && $(GOALONE) test -run '^$$' -bench . -timeout 30m ./...

# Every fuzzer in the repository, as PACKAGE:NAME: each reader of what a
# server or a user gives (answers, workbooks, listings, specs, overlays,
# findings, plans, state files). fuzz-check fails when a Fuzz function is
# missing here.
FUZZERS := \
	./facade:FuzzDecodeResponses \
	./facade:FuzzDecodeAgreesWithEncodingJSON \
	./internal/jsondec:FuzzStringsAndNames \
	./internal/jsondec:FuzzNumbers \
	./internal/jsondec:FuzzEachBatch \
	./fake:FuzzImportExcelFile \
	./resultdata:FuzzReadPage \
	./batch:FuzzParsePlan \
	./batch:FuzzStateFile \
	./internal/specdiff/listing:FuzzParsePlain \
	./internal/specdiff/listing:FuzzParseMarkdown \
	./internal/specdiff/listing:FuzzParseOpenAPI \
	./internal/specdiff/listing:FuzzParseSwagger \
	./internal/specdiff/specdoc:FuzzCheckSpec \
	./internal/specdiff/overlay:FuzzOverlayFindings \
	./internal/specdiff/overlay:FuzzApplyOverlay \
	./internal/specdiff/probe:FuzzProbeAnswer

FUZZTIME ?= 20s
# FUZZCI_TIME is a count of inputs, not a time: a -fuzztime measured on the
# clock races Go's fuzzing coordinator at its deadline on a loaded machine,
# which then fails with a bare "context deadline exceeded" and no input
# (golang/go#75804); a count has no deadline to race.
FUZZCI_TIME ?= 1500x

# run-fuzzers runs every fuzzer for $(1), minimizing what it finds for at
# most $(2): minimizing every new input of a large reader (kin-openapi's)
# can take the whole time, so the short run does not minimize.
define run-fuzzers
	@for f in $(FUZZERS); do \
		pkg=$${f%%:*}; name=$${f##*:}; echo "== $$name ($$pkg, $(1))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(1) -fuzzminimizetime $(2) $$pkg || exit 1; \
	done
endef

## fuzz-check: every Fuzz function of the repository is in FUZZERS
fuzz-check:
	@found=$$(git ls-files --cached --others --exclude-standard '*_test.go' | grep -v '^bench/\|^examples/' | \
		xargs grep -HoE '^func Fuzz[A-Za-z0-9_]+' | sed -E 's|^(.*)/[^/]*:func (Fuzz[A-Za-z0-9_]+)$$|./\1:\2|' | sort); \
	missing=$$(echo "$$found" | grep -vxF "$$(echo $(FUZZERS) | tr ' ' '\n')"); \
	if [ -n "$$missing" ]; then echo "fuzzers missing from FUZZERS in the Makefile:"; echo "$$missing"; exit 1; fi

## fuzz-ci: every fuzzer on FUZZCI_TIME (1,500 inputs), as CI runs them (17
## fuzzers; each takes about 1-8 s once its package is built)
fuzz-ci: fuzz-check
	$(call run-fuzzers,$(FUZZCI_TIME),0)

## fuzz: every fuzzer for FUZZTIME (their seed corpora also run in make test)
fuzz: fuzz-check
	$(call run-fuzzers,$(FUZZTIME),10s)
