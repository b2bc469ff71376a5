package main

const usageText = `specdiff reports drift between our OpenAPI spec and published operation
listings, and between the spec and the facade package.

Usage:
  specdiff [-spec api/openapi.yaml] [-format auto] [-header "Name: value"]... [-o text] LISTING...
  specdiff facade [-spec api/openapi.yaml] [-dir facade] [-o text]
  specdiff validate [-spec api/openapi.yaml] [-o text]

A LISTING is a file, - for stdin, or an http(s) URL. -header adds a request
header for URL listings (for example "Authorization: Bearer KEY"); header
values are never printed.

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

specdiff facade parses the Go files of -dir (default facade) and checks that
every spec operation has exactly one method whose doc comment has a line
//scm:operation <operationId>, and that every such line names a spec
operation.

specdiff validate loads the spec with kin-openapi, validates it, and applies
our rules; its findings have kind spec-<rule>: spec-openapi, spec-ref,
spec-operation-id, spec-snake-name, spec-unique-name, spec-extension,
spec-paging, spec-async, spec-additional-properties.

Finding kinds:
`

const usageTail = `
Output (-o):
  text      grouped by kind, each group with its count, then a one-line summary
  json      {schemaVersion: 1, command, spec, results: [{source, format,
            operations, drift, knownOmissions, findings: [{kind, operation,
            detail, file, line, drift}]}], summary: {drift, knownOmissions,
            exitCode, text}}
  markdown  a table per listing, known omissions folded, for a pull-request comment
  github    ::error annotations for drift, ::notice for known omissions

Exit status:
  0  no drift (known omissions do not count)
  1  drift
  2  bad input or usage: unreadable spec or listing, a parse error (the
     message names the file and line), an unknown flag or format
`
