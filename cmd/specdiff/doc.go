// Specdiff reports drift between api/openapi.yaml and what is published
// about the remote interface: operation listings (OpenAPI 3.x or Swagger 2.0
// documents, generated client README tables, plain lists of names), a live
// server's own OpenAPI document, a live server's answers (specdiff probe),
// and the //scm:operation tags of the facade package. specdiff validate
// checks the spec itself with kin-openapi and internal/spec.CheckData,
// strictly as validators that ignore the discriminator read it too.
//
// The spec (and api/known-omissions.yaml) is the copy embedded by package
// api when specdiff was built, so an installed binary works from any
// directory; reports name it "api/openapi.yaml (embedded)" and point at its
// lines in the repository. -spec FILE compares another file.
//
// Every input is read within -max-input-bytes (8 MiB by default): a
// larger file is refused before it is read, standard input or an answer at
// the first byte past the limit, with an error naming the input and the
// flag.
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
// # Packages
//
// This command only parses the command line and calls the package that
// does the work (commands.go); each has one job:
//
//   - internal/specdiff/diff: specdiff LISTING..., the match of a listing
//     with the spec, its parameters, media types and security, and, for
//     OpenAPI listings, its schemas, compared with
//     github.com/oasdiff/oasdiff (findings name the spec's model and
//     property path: ApiProjectResponse.projectId);
//   - internal/specdiff/probe: specdiff probe, the calls of a live server's
//     read-only operations and the check of its answers;
//   - internal/specdiff/facadetags: specdiff facade, the //scm:operation
//     tags of the facade package;
//   - internal/specdiff/specdoc: the spec (embedded or -spec), its known
//     omissions, and specdiff validate;
//   - internal/specdiff/overlay: specdiff overlay and overlay apply, from
//     findings to an OpenAPI Overlay and into the spec;
//   - internal/specdiff/listing: the published listings' formats;
//   - internal/specdiff/fetch: files, stdin, URLs and servers' documents;
//   - internal/specdiff/oas: what specdiff reads of OpenAPI documents
//     beyond kin-openapi (model paths, operation details);
//   - internal/specdiff/report: the finding kinds, the findings (the form
//     the SDK's run-time drift reports take too, see package drift) and
//     the outputs text, json, markdown and github.
//
// The listings, specs and facade packages of the tests are in testdata,
// with the golden files of what this command prints of them; the
// packages' tests read them there too.
//
// # Exit status
//
// 0 when there is no drift, 1 when there is, 2 for bad input or usage.
// specdiff -h lists the formats, kinds and outputs.
package main
