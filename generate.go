package scmgo

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config oapi-codegen.yaml api/openapi.yaml
//go:generate go run ./internal/opsgen -spec api/openapi.yaml -out gen/operations.go
