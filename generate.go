// Package scmgo is the Go SDK for the remote interface of the supply-chain
// modelling server. The client lives in package facade, the generated types
// in package gen, and an in-memory server for tests in package fake.
//
// Run go generate ./... after editing api/openapi.yaml.
package scmgo

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config oapi-codegen.yaml api/openapi.yaml
//go:generate go run ./internal/opsgen -spec api/openapi.yaml -out gen/operations.go
