package scmgo

// The spec is checked first (kin-openapi and our rules, as specdiff validate
// checks it), so that a broken spec fails naming its lines before any file of
// gen/ changes. Generation prints nothing when all is well. The fake's
// server (oapi-codegen's strict server and the StrictUnimplemented fallback)
// is generated apart from gen, into fake/internal/genserver, which only the
// fake imports.
//
//go:generate go run ./cmd/specdiff validate -q -spec api/openapi.yaml
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config oapi-codegen.yaml api/openapi.yaml
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config oapi-codegen-server.yaml api/openapi.yaml
//go:generate go run ./tools/opsgen -spec api/openapi.yaml -out gen/operations.go -strict fake/internal/genserver/server.gen.go -fallback fake/internal/genserver/unimplemented.go
//go:generate go run ./tools/decodegen -spec api/openapi.yaml -types gen/api.gen.go -out gen/decode.gen.go -methods gen/models.gen.go -index internal/testkit/genmodels/models.gen.go
