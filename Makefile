# Build, check and test scmgo. `make ci` is what CI runs (.ci/run).
GO       ?= go
REDOCLY_VERSION := 2.77.0
REDOCLY  := .tools/redocly/node_modules/.bin/redocly
SPEC     := api/openapi.yaml

.PHONY: all generate check-generated lint-spec vet test specdiff ci bench fuzz

all: ci

## generate: regenerate gen/ from the spec (oapi-codegen and the operation table)
generate:
	$(GO) generate ./...

## check-generated: regenerate in place and fail when gen/ changes
check-generated: generate
	@if [ -n "$$(git status --porcelain -- gen/)" ]; then \
		git status --short -- gen/; git diff --stat -- gen/; \
		echo "gen/ is stale: run 'make generate' and commit the result"; exit 1; \
	fi

$(REDOCLY):
	npm install --prefix .tools/redocly --no-audit --no-fund --loglevel=error @redocly/cli@$(REDOCLY_VERSION)

## lint-spec: kin-openapi load and validate plus our rules, then Redocly lint (0 errors)
lint-spec: $(REDOCLY)
	$(GO) run ./cmd/specdiff validate -spec $(SPEC)
	$(REDOCLY) lint --config redocly.yaml $(SPEC)

vet:
	$(GO) vet ./...

## test: the whole suite under the race detector
test:
	$(GO) test -race -timeout 8m ./...

## specdiff: facade coverage and the published listings kept in testdata
specdiff:
	$(GO) run ./cmd/specdiff facade -spec $(SPEC) -dir facade

ci: check-generated lint-spec vet test specdiff

## bench: every benchmark, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...
