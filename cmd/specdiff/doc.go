// Specdiff reports drift between api/openapi.yaml and what is published
// about the remote interface: operation listings (OpenAPI 3.x or Swagger 2.0
// documents, generated client README tables, plain lists of names) and the
// //scm:operation tags of the facade package. specdiff validate checks the
// spec itself with kin-openapi and internal/spec.Check.
//
// # Usage
//
//	specdiff [-spec api/openapi.yaml] [-format auto] [-header "Name: value"]... [-o text|json|markdown|github] LISTING...
//	specdiff facade [-dir facade]
//	specdiff validate
//
// Operations match by name in either style, through the spec's
// x-snake-case-name, then by method and path. Each difference is one
// finding with a stable kind (missing-in-listing, extra-in-listing,
// method-path-mismatch, name-mismatch, param-type, enum-added, ...).
// Operations named in api/known-omissions.yaml are reported as
// known-omission and are not drift.
//
// # Exit status
//
// 0 when there is no drift, 1 when there is, 2 for bad input or usage.
// specdiff -h lists the formats, kinds and outputs.
package main
