// Package scmgo is the Go SDK for the remote interface of the supply-chain
// modelling server. The client lives in package facade, the generated types
// in package gen, and an in-memory server for tests in package fake; both
// read time through package clock.
//
// Run go generate ./... after editing api/openapi.yaml.
package scmgo
