# Build, check and test scmgo. `make ci` is what CI runs (.ci/run).
GO       ?= go
REDOCLY_VERSION := 2.77.0
REDOCLY  := .tools/redocly/node_modules/.bin/redocly
SPEC     := api/openapi.yaml

.PHONY: all generate check-generated tidy lint-spec vet test test-examples specdiff bench-module ci bench fuzz

all: ci

## generate: regenerate gen/ from the spec (oapi-codegen, the operation table
## and the paged models' decoders) and the benchmark module's ogen client
generate:
	$(GO) generate ./...
	cd bench && $(GO) generate ./...

## check-generated: regenerate in place and fail when generated code changes
check-generated: generate
	@if [ -n "$$(git status --porcelain -- gen/ bench/ogenclient/)" ]; then \
		git status --short -- gen/ bench/ogenclient/; git diff --stat -- gen/ bench/ogenclient/; \
		echo "generated code is stale: run 'make generate' and commit the result"; exit 1; \
	fi

## tidy: go.mod and go.sum say exactly what the code imports, in every module
tidy:
	$(GO) mod tidy -diff
	@for dir in bench $(EXAMPLES); do (cd $$dir && $(GO) mod tidy -diff) || exit 1; done

$(REDOCLY):
	npm install --prefix .tools/redocly --no-audit --no-fund --loglevel=error @redocly/cli@$(REDOCLY_VERSION)

SPECDIFF := bin/specdiff

.PHONY: $(SPECDIFF)
$(SPECDIFF):
	$(GO) build -o $@ ./cmd/specdiff

## lint-spec: kin-openapi load and validate plus our rules, then Redocly lint (0 errors)
lint-spec: $(REDOCLY) $(SPECDIFF)
	$(SPECDIFF) validate -spec $(SPEC)
	$(REDOCLY) lint --config redocly.yaml $(SPEC)

vet:
	$(GO) vet ./...

## test: the whole suite under the race detector
test:
	$(GO) test -race -count=1 -timeout 8m ./...

# Example modules: each has its own go.mod (a replace points at this
# repository), so its dependencies stay out of the SDK's.
EXAMPLES := examples/temporal

## test-examples: vet and test every example module under the race detector
test-examples:
	@for dir in $(EXAMPLES); do \
		echo "== $$dir"; \
		(cd $$dir && $(GO) vet ./... && $(GO) test -race -count=1 -timeout 5m ./...) || exit 1; \
	done

LISTINGS := cmd/specdiff/testdata/listings

## specdiff: facade coverage, then the listings kept in testdata: the clean
## ones must show no drift, the planted ones must be caught (exit 1), the
## schema-level ones against the small models spec of the testdata
MODELS := cmd/specdiff/testdata/specs/models.yaml
specdiff: $(SPECDIFF)
	$(SPECDIFF) facade -spec $(SPEC) -dir facade
	$(SPECDIFF) -spec $(SPEC) $(LISTINGS)/snake-omissions.md $(LISTINGS)/swagger.json $(LISTINGS)/names.txt
	@$(SPECDIFF) -spec $(SPEC) $(LISTINGS)/camel-drift.txt $(LISTINGS)/drift-openapi.yaml >/dev/null; \
		code=$$?; if [ $$code -ne 1 ]; then echo "specdiff: planted drift not caught (exit $$code, want 1)"; exit 1; fi
	@$(SPECDIFF) -spec $(MODELS) $(LISTINGS)/models-drift.yaml >/dev/null; \
		code=$$?; if [ $$code -ne 1 ]; then echo "specdiff: planted schema drift not caught (exit $$code, want 1)"; exit 1; fi

## bench-module: vet the benchmark module (bench/, with the ogen client) and
## run its benchmark once, so that every client still pages the whole table
bench-module:
	cd bench && $(GO) vet ./... && $(GO) test -run '^$$' -bench . -benchtime 1x ./...

ci: check-generated tidy lint-spec vet specdiff test test-examples bench-module

## bench: every benchmark, with allocations, then the benchmark module's
## comparison with ogen
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...
	cd bench && $(GO) test -run '^$$' -bench . -timeout 30m ./...

FUZZTIME ?= 20s

## fuzz: run every fuzzer for FUZZTIME (their seed corpora also run in make test)
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeResponses$$' -fuzztime $(FUZZTIME) ./facade
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeAgreesWithEncodingJSON$$' -fuzztime $(FUZZTIME) ./facade
	$(GO) test -run '^$$' -fuzz '^FuzzStringsAndNames$$' -fuzztime $(FUZZTIME) ./internal/jsondec
	$(GO) test -run '^$$' -fuzz '^FuzzNumbers$$' -fuzztime $(FUZZTIME) ./internal/jsondec
	$(GO) test -run '^$$' -fuzz '^FuzzEachBatch$$' -fuzztime $(FUZZTIME) ./internal/jsondec
	$(GO) test -run '^$$' -fuzz '^FuzzImportExcelFile$$' -fuzztime $(FUZZTIME) ./fake
	$(GO) test -run '^$$' -fuzz '^FuzzParsePlain$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
	$(GO) test -run '^$$' -fuzz '^FuzzParseMarkdown$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
	$(GO) test -run '^$$' -fuzz '^FuzzParseOpenAPI$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
