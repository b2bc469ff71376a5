// Command scm drives the supply-chain modelling server from the shell: every
// operation by either name (scm call), workflow commands for the common jobs
// (projects, scenarios, experiments, run --wait or --sync, results pages,
// export dashboard, batch), and scm demo, which walks the whole workflow
// against an embedded fake server, or, once confirmed, against another
// server (--read-only sends nothing that changes state). Every command that
// talks to a server takes --timeout (the whole command) and
// --request-timeout (one request), and says on standard
// error what it waits for when a request has had no answer for 10 s.
//
// With OTEL_EXPORTER_OTLP_ENDPOINT (or its per-signal forms) set, scm
// exports the traces and metrics of what it does over OTLP/HTTP
// (http/protobuf, the only OTEL_EXPORTER_OTLP_PROTOCOL it speaks): a span
// for the command, named after it, holding the spans and metrics that the
// module github.com/scmodel/scmgo/scmotel describes. OTEL_SERVICE_NAME names
// the service (default scm). Without an endpoint it makes no exporter and
// opens no connection. See telemetry.go.
//
// # One grammar
//
// Every command follows the rules docs/cli.md states, and TestOneGrammar
// walks the commands to check them: the id a command acts on is its first
// argument (idflags.go, idhints.go for a wrong kind of id); every command
// that writes takes -o PATH (- is standard output), --format from one
// vocabulary (table, json as one document, jsonl, csv, parquet, xlsx) and
// --no-follow, through one helper that resolves the format from --format
// and -o's extension, refuses what disagrees before anything is sent,
// writes a file whole and says what it wrote (output.go, listing.go); an
// unknown flag gets the flag it may be (suggest.go).
//
// # What scm prints
//
// Standard output and standard error go through the client's
// facade.Redactor from the moment a client is made (redact.go): no
// spelling of the API key that the client's errors and logs hide (any
// letter case, JSON- or URL-escaped, hex, base64 in either alphabet, alone
// or inside a Basic user:key) reaches them, whatever prints it: tables,
// JSON, CSV, notes, progress, errors. A spelling split between two writes
// is found; only an end that may begin one waits, for the next write or
// the command's end. The text files scm writes (every -o file of a text
// format, results export's chart files, batch --data's) go through it too,
// and so do the names of results export's chart files. Binary outputs
// (workbooks, Parquet), to a file or to -o -, are written as they are:
// replacing bytes within them would corrupt them.
//
// Every CSV scm writes (results table, results export, batch's summary and
// --data) goes through internal/csvsafe: a text that begins with =, +, -,
// @, a tab or a carriage return gets a single quote before it, headers
// included, so a spreadsheet shows it rather than runs it; numbers are
// written as they are; --keep-formulas writes the text as sent.
package main
