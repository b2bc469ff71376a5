# Build, check and test scmgo. `make ci` is what CI runs (.ci/run).
GO       ?= go
REDOCLY_VERSION := 2.77.0
REDOCLY  := .tools/redocly/node_modules/.bin/redocly
SPEC     := api/openapi.yaml

.PHONY: all generate check-generated tidy lint-spec vet test test-examples test-recipe specdiff bench-module ci bench fuzz

all: ci

## generate: check the spec (specdiff validate: a broken spec fails naming
## its lines, before any file changes), then regenerate gen/ from it
## (oapi-codegen, the operation table, the strict server's fallback and the
## paged models' decoders) and the benchmark module's ogen client. It prints
## nothing when all is well.
generate:
	@$(GO) generate ./...
	@cd bench && $(GO) generate ./...

# GENERATED is what make generate writes.
GENERATED := gen bench/ogenclient

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

## bench-module: vet the benchmark module (bench/, with the ogen client) and
## run its benchmark once, so that every client still pages the whole table
bench-module:
	cd bench && $(GO) vet ./... && $(GO) test -run '^$$' -bench . -benchtime 1x ./...

## test-recipe: README's "Changing the spec" on a copy of the module (an
## operation and a field added, make generate, build, calls, the guards'
## messages, three broken edits), recipe_test.go behind the recipe build tag
test-recipe:
	$(GO) test -tags recipe -run '^TestRecipe$$' -count=1 -timeout 8m .

ci: check-generated tidy lint-spec vet specdiff test test-examples bench-module test-recipe

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
	$(GO) test -run '^$$' -fuzz '^FuzzImportExcelFile$$' -fuzztime $(FUZZTIME) ./fake
	$(GO) test -run '^$$' -fuzz '^FuzzParsePlain$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
	$(GO) test -run '^$$' -fuzz '^FuzzParseMarkdown$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
	$(GO) test -run '^$$' -fuzz '^FuzzParseOpenAPI$$' -fuzztime $(FUZZTIME) ./cmd/specdiff
