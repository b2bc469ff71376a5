// Command opsgen writes gen/operations.go: the table of operation metadata
// (both names, method, path, safety, paging, async links, parameters, body
// and response shape) read from the extensions of api/openapi.yaml. The
// facade, the CLI and specdiff read this one table instead of the spec.
//
// It runs from go generate; see generate.go at the module root.
package main
