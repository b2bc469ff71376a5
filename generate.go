package scmgo

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config oapi-codegen.yaml api/openapi.yaml
//go:generate go run ./internal/opsgen -spec api/openapi.yaml -out gen/operations.go
//go:generate go run ./internal/decodegen -spec api/openapi.yaml -types gen/api.gen.go -out gen/decode.gen.go -methods gen/models.gen.go
