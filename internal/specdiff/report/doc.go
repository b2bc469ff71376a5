// Package report holds what specdiff finds and how it says it: the
// finding kinds, the findings of each command ([Finding], the form the
// SDK's run-time drift reports take too), and the report of a command in
// each output mode.
//
// # Findings
//
// A finding has a stable kind (missing-in-listing, param-type,
// probe-unknown-field, ...; [Kinds] lists them in report order), the
// operation, a detail, and where in a file it points ([Location]). A kind
// is drift or not: known omissions and the probe's notes are reported but
// never fail a run ([IsDrift]). [New] makes a finding, [Sort] puts
// findings in report order.
//
// # Reports
//
// A [Report] is a command's outcome: one [Result] per listing, facade
// package, spec or server, each with its findings (and, for a probe, its
// [Coverage]). [Write] writes it as -o names: text (grouped by kind),
// json ([JSONReport], which specdiff overlay reads back), markdown (for a
// pull-request comment) or github (workflow annotations). Every mode ends
// with the [Report.Summary]; [Report.ExitCode] is the exit status it
// states.
package report
