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
package main
