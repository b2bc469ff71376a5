// Specdiff reports drift between api/openapi.yaml and what is published
// about the remote interface: operation listings (OpenAPI 3.x or Swagger 2.0
// documents, generated client README tables, plain lists of names), a live
// server's own OpenAPI document, a live server's answers (specdiff probe),
// and the //scm:operation tags of the facade package. specdiff validate
// checks the spec itself with kin-openapi and internal/spec.CheckData.
//
// The spec (and api/known-omissions.yaml) is the copy embedded by package
// api when specdiff was built, so an installed binary works from any
// directory; reports name it "api/openapi.yaml (embedded)" and point at its
// lines in the repository. -spec FILE compares another file.
//
// # Usage
//
//	specdiff [-spec FILE] [-format auto] [-header "Name: value"]... [-ca-cert FILE] [-insecure-skip-verify] [-o text|json|markdown|github] LISTING...
//	specdiff probe [-header "Name: value"]... [-ca-cert FILE] [-insecure-skip-verify] [-max-calls 200] [-timeout 30s] [-items 3] [-input NAME=VALUE]... BASE_URL
//	specdiff facade [-dir facade]
//	specdiff validate
//	specdiff overlay [-spec FILE] [-source TEXT] [-o FILE] FINDINGS.json...
//	specdiff overlay apply [-spec FILE] [-o FILE] OVERLAY.yaml
//
// Operations match by name in either style, through the spec's
// x-snake-case-name, then by method and path. Each difference is one
// finding with a stable kind (missing-in-listing, extra-in-listing,
// method-path-mismatch, name-mismatch, param-type, enum-added, ...).
// Operations named in api/known-omissions.yaml are reported as
// known-omission and are not drift.
//
// # Schemas
//
// For OpenAPI listings, the request bodies and responses of matched
// operations are compared with github.com/oasdiff/oasdiff (schema.go puts
// each pair under one path so that our matching, not the paths, pairs them;
// schemawalk.go maps oasdiff's diff to findings). Findings name the spec's
// model and property path: ApiProjectResponse.projectId.
//
// # Live servers
//
// A base URL (https://host/api/v1) stands for the server's own document,
// found where Java servers publish it (discover.go). specdiff probe calls
// the operations marked x-changes-state: false with inputs taken from
// earlier answers (probe_links.go holds the links a field's name does not
// tell) and checks every answer against the spec (probe_check.go,
// probe_walk.go). An operation that needs an rcId of a kind (probe_needs.go,
// a reviewed table checked against the spec) gets one of that kind from
// what the answers told about run configurations (probe_pool.go); calls
// that lead to operations not yet checked go first (probe_schedule.go).
// The report counts the read-only operations that answered 2xx at least
// once (probe_coverage.go). -ca-cert and -insecure-skip-verify serve
// servers with their own certificates.
//
// # Findings
//
// Every command reports [Finding] values: a stable kind, the operation,
// the model and property path where one applies, a detail, and where in a
// file; -o json writes them as they are. Probe findings are made by
// probeFindings (probe_findings.go), which reports a drift once however
// many operations show it; a reporter of drift seen at run time can make
// the same findings with the probe-* kinds and no file.
//
// # From findings to a spec fix
//
// specdiff overlay turns probe findings, or a drift report of the SDK (a
// JSON array of findings), into an OpenAPI Overlay document for the spec
// (overlay_read.go reads them, overlay_plan.go finds the schema each is
// about and merges what they ask of it, overlay_actions.go writes the
// actions). It reads the structured fields of [Finding] (model, property,
// jsonType, value, ...), never the detail; findings without them are used
// where the kind and path suffice and skipped with a note otherwise.
// specdiff overlay apply applies an overlay with
// github.com/speakeasy-api/openapi/overlay, on the spec's YAML node tree,
// and writes back only the lines that changed (internal/spec.EditYAML), so
// the hand-written layout stays.
//
// # Exit status
//
// 0 when there is no drift, 1 when there is, 2 for bad input or usage.
// specdiff -h lists the formats, kinds and outputs.
package main
