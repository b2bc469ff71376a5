// Package probe is specdiff probe: it calls the operations of a live server
// that the spec marks x-changes-state: false (never one that changes
// state, whatever its HTTP method), with inputs taken from earlier answers,
// and checks every answer against the spec.
//
// # Inputs
//
// An answer item's field named like an input parameter gives that input;
// links.go holds the links a field's name does not tell (the id of a
// list's items, ...). An operation that needs an rcId of a kind (needs.go,
// a reviewed table that a test checks against the spec) gets one of that
// kind from what the answers told about run configurations (pool.go).
// Inputs no read-only answer gives (a job, a variation) come from
// [Limits].Inputs, -input on the command line.
//
// # Calls
//
// Every reachable operation is called once before any twice, then the
// calls that lead to operations not yet checked (schedule.go), at most
// [Limits].MaxCalls in all, each within [Limits].Timeout. A call that gets
// no answer is a note, unless no call had an answer yet: then the probe
// stops with an error (a wrong URL, key or certificate).
//
// # Checks
//
// Each answer is checked for its status and media type, then its JSON
// with kin-openapi's response validation and a walk of its own along the
// schema (walk.go): fields the spec lacks, with their JSON type, required
// fields missing or null, renames, type and enumeration mismatches.
// findings.go reports a drift once however many operations show it, with
// the structured fields specdiff overlay reads (model, property, jsonType,
// ...).
//
// # Coverage
//
// An operation counts as checked when it answered 2xx at least once; the
// report's [report.Coverage] names the others: those that answered only
// errors, got no answer, or were not called, with notes saying why.
package probe
