// Command opsgen writes gen/operations.go: the table of operation metadata
// (both names, method, path, safety, paging, async links, parameters, body
// and response shape) read from the extensions of api/openapi.yaml. The
// facade, the CLI and specdiff read this one table instead of the spec.
//
// The table is an array with a map index by either name: gen.LookupOperation
// and gen.Operations hand out deep copies (Operation.Clone), so no caller
// can change what another reads, and gen.LookupSharedOperation hands the
// facade's per-request path the table's own entry without allocating. A
// name two operations share is an error here, not a lookup that picks one.
//
// With -strict and -fallback it also writes
// fake/internal/genserver/unimplemented.go: StrictUnimplemented, a method
// per method of oapi-codegen's StrictServerInterface (read from
// fake/internal/genserver/server.gen.go, so the signatures are
// oapi-codegen's own), each answering a *NotImplementedError that names the
// operation. The fake server embeds it, so it keeps building when the spec
// gains an operation, and answers that operation 501 until it implements it.
//
// It runs from go generate; see generate.go at the module root.
package main
