package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

const usageText = `specdiff reports drift between our OpenAPI spec and published operation
listings, a live server's own document and answers, and the facade package.

Usage:
  specdiff [-spec FILE] [-format auto] [-header "Name: value"]... [TLS flags] [-o text] LISTING...
  specdiff probe [-spec FILE] [-header "Name: value"]... [TLS flags] [-max-calls 200] [-timeout 30s] [-items 3] [-input NAME=VALUE]... [-o text] BASE_URL
  specdiff facade [-spec FILE] [-dir facade] [-o text]
  specdiff validate [-spec FILE] [-q] [-o text]
  specdiff overlay [-spec FILE] [-source TEXT] [-o FILE] FINDINGS.json...
  specdiff overlay apply [-spec FILE] [-o FILE] OVERLAY.yaml

The spec is api/openapi.yaml as it was when specdiff was built: it is built
into the binary, with api/known-omissions.yaml, so specdiff works from any
directory. Reports name it "api/openapi.yaml (embedded)" and point at its
lines in the repository. -spec FILE compares another spec file instead
(its known omissions are then known-omissions.yaml beside it).

Flags may come before or after the other arguments; -- ends the flags.
A LISTING is a file, - for stdin, or an http(s) URL. -header adds a request
header for URLs (for example "Authorization: Bearer KEY"); header values are
never printed.

Every command reads each input (the spec, its known omissions, a listing
from a file, stdin or a URL, a findings file, an overlay, a Go file of
-dir) within -max-input-bytes BYTES (default 8388608, 8 MiB, some 45 times
api/openapi.yaml; checking a spec holds about 100 times its size in
memory). A larger file is refused before it is read, stdin or an answer as
soon as it passes the limit, with an error that names the input and the
flag.

A server's base URL (https://host/api/v1: a URL whose last segment has no
extension and that names no api-docs location) stands for the server's own
OpenAPI document: specdiff looks for it at /v3/api-docs, /v3/api-docs.yaml,
/v2/api-docs, /openapi.json and /swagger.json, under the server root and
then under the base path, says on stderr which one it used, and diffs it.
When there is none, the error lists every URL tried with its answer.

TLS flags, for servers with their own certificates:
  -ca-cert FILE           trust this PEM certificate authority (or
                          self-signed certificate) besides the system's
  -insecure-skip-verify   do not verify the certificate (says so on stderr)

Listing formats (detected from content; -format openapi|markdown|plain forces one):
  openapi   an OpenAPI 3.x or Swagger 2.0 document, JSON or YAML. Operations
            are matched by operationId, then by method and path; parameters,
            enumerations, media types and security are compared too.
  markdown  the operation tables of a generated client README: a header row
            with a name column (Operation, Method, Function, Name) and a
            request column (HTTP request, Method and path, Endpoint), e.g.
              Class | Method | HTTP request | Description
              *DefaultApi* | [**close_project**](docs/DefaultApi.md#close_project) | **GET** /open/project/close | Close
            Links, bold and code marks are ignored. Other tables are skipped.
  plain     one operation name per line, optionally followed by METHOD and
            PATH; # starts a comment; blank lines are ignored.
Names match in either style, camelCase (operationId) or snake_case
(x-snake-case-name), through the spec's own names. Paths may carry a scheme
and host, and any prefix up to /api/v1; they are compared without it.

Known omissions: operations that some published listings leave out are named
in known-omissions.yaml beside the spec (-omissions to change). A spec
operation a listing lacks is reported as known-omission when it is named
there, and does not count as drift.

Schema-level diff (OpenAPI listings): the request bodies and responses of
matched operations are compared with oasdiff, nested objects and array items
included. Findings name the spec's model and property path
(ApiProjectResponse.projectId), once for a model several operations share. A
body published as */* is compared with the spec's JSON body; additional
properties and descriptions are not compared.

specdiff probe calls the operations of a live server that the spec marks
x-changes-state: false (never one that changes state, whatever its HTTP
method), with inputs taken from earlier answers: projects, scenarios,
experiments, runs, results, pages, charts, tables, the first -items of each
list (also the take of paged calls). An operation that needs an rcId of a
kind gets one of that kind, as the answers describe the run configurations
(id, type, runs and their state): last mile operations a
LAST_MILE_OPTIMIZATION experiment, comparison and variation operations
their own type, results one with a finished run. Every reachable operation
is called once before any twice, then the calls that lead to operations not
yet checked, at most -max-calls in all, each within -timeout. -input
NAME=VALUE gives an input no answer gives, such as the jobId of an import or
the variationId of a variation. Each answer is checked for its status and
media type, then its JSON with kin-openapi's response validation and our
own walk: fields the spec lacks (with their JSON type), required fields
missing or null, renames, type and enumeration mismatches. null in an
optional field is accepted. An operation counts as checked when it answered
2xx at least once; the report ends with how many of the read-only operations
were checked, and names the others: those that answered only errors, got no
answer, or were not called (with why, as notes, not drift). It fails (exit
2) when no call succeeds: a wrong URL, key or certificate.

specdiff facade parses the Go files of -dir (default facade) and checks that
every spec operation has exactly one method whose doc comment has a line
//scm:operation <operationId>, and that every such line names a spec
operation.

specdiff validate loads the spec with kin-openapi, validates it, and applies
our rules; its findings have kind spec-<rule>: spec-openapi, spec-ref,
spec-operation-id, spec-snake-name, spec-unique-name, spec-extension,
spec-paging, spec-async, spec-additional-properties, spec-observed,
spec-path-parameter, and the strict rules, which read the spec as validators
that ignore the discriminator do: spec-one-of (a oneOf whose variants only
the discriminator tells apart) and spec-example (an example that does not
validate under plain JSON Schema rules). Each names the line of the spec to
change where it can.
-q prints nothing for a spec without problems: make generate runs it before
generating, so that a broken spec fails first, naming its lines.

specdiff overlay turns findings into an OpenAPI Overlay (1.1.0) document
for the spec: FINDINGS.json is specdiff probe -o json output or a JSON array
of findings (the drift report the SDK writes); - reads stdin. Fields an
answer had that its model lacks are added with the JSON type seen (objects
and arrays of RawJSON), types and formats are corrected, required fields
that were missing become optional, fields that were null nullable, and
enumeration values seen are added. Findings of one property merge. Every
element added or changed is marked x-observed: the findings' origin
("specdiff probe of URL on DATE", "SDK drift report FILE of DATE"), or
-source TEXT. Findings the overlay cannot fix (status codes, media types,
bounds, a finding without the structured fields it needs) are named on
stderr and skipped. The overlay goes to stdout or -o FILE; nothing is
written when there is nothing to change.

specdiff overlay apply applies an overlay to api/openapi.yaml of the
repository around the working directory, in place (-spec FILE: another
spec; -o FILE: write the result there). Only the lines of what changed are
rewritten: the rest of the file keeps its layout and comments. Every action
must match something in the spec. The result is checked as specdiff
validate checks the spec: exit 1 when it finds problems. Then run make
generate.

Finding kinds:
`

const usageTail = `
Output (-o):
  text      grouped by kind, each group with its count, then a one-line summary
  json      {schemaVersion: 1, command, spec, results: [{source, format,
            operations, drift, knownOmissions, findings: [{kind, operation,
            detail, path, file, line, drift}]}], summary: {drift,
            knownOmissions, exitCode, text}}; path is the model and property
            path of schema and probe findings; knownOmissions counts the
            findings that are not drift (the notes of probe); probe reports
            add date (UTC) and, per result, coverage: {readOnly, checked,
            answeredOnlyErrors, noAnswer, notCalled}; probe findings with a
            path add model, property (the path below the model), jsonType
            (what the answer had), specType (probe-type), value (probe-enum,
            as JSON) and renamedTo (probe-renamed)
  markdown  a table per listing, known omissions and notes folded, for a
            pull-request comment or a bug report
  github    ::error annotations for drift, ::notice for known omissions

Exit status:
  0  no drift (known omissions do not count); overlay and overlay apply: done
  1  drift; overlay apply: the changed spec has problems
  2  bad input or usage: unreadable spec or listing, a parse error (the
     message names the file and line), an unknown flag or format, a server
     without a document, or a probe without one successful answer
`

// writeUsage writes specdiff -h: the usage text, the finding kinds and
// the outputs and exit codes.
func writeUsage(w io.Writer) {
	var b strings.Builder
	b.WriteString(usageText)
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, k := range report.Kinds() {
		note := ""
		if !k.Drift {
			note = " (reported, not drift)"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", k.Name, k.Doc, note)
	}
	tw.Flush()
	b.WriteString(usageTail)
	io.WriteString(w, b.String())
}
