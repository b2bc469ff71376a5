// Package doctor checks, in one call, what the first hour against a new
// server otherwise takes several tools to find: the client's
// configuration, the network and TLS, the key, the license, the server's
// own OpenAPI document against the SDK's spec, the answers of a project's
// lists, and, when asked, the timing of one run that run identity depends
// on. scm doctor is its command.
//
//	rep := doctor.Run(ctx, c, doctor.Options{})
//	rep.Write(os.Stdout, doctor.Table)
//	if rep.Failed() { ... }
//
// # Checks
//
// [Run] goes through the checks in order, a [Check] each (ok, warn or
// fail, what was seen, what to change), and stops at a failed check that
// makes the rest pointless:
//
//   - base-url, api-key, proxy: the base URL ends in /api/v1, a key is
//     set (no key stops), and the proxy HTTPS_PROXY, HTTP_PROXY and
//     NO_PROXY put the requests through, as net/http applies them
//     ([Options].Proxy).
//   - dns, connect, tls: the name lookup, the connection and the TLS
//     handshake of a getCurrentUser call, traced (net/http/httptrace), a
//     line each; the first that fails stops. An unknown CA names the
//     setting that trusts one, a certificate for other names names them,
//     and https to a plain-HTTP port (or http to an HTTPS one) says which
//     scheme to use.
//   - key: getCurrentUser's answer: whose key it is, or that the server
//     refused it (401, 403, or a real server's 500 "Access is denied"),
//     which stops.
//   - license: the interface has no operation that reads a license
//     without taking one (requestLicense and dropLicense change state, and
//     are never sent), so the check reports a license field of the user's
//     answer where a server sends one, and otherwise warns that it cannot
//     tell and how a missing license shows.
//   - spec: the server's own OpenAPI document compared with the SDK's
//     spec ([Options].CompareSpec; a server that publishes none is a
//     warning), summarised as operations missing on either side and
//     models whose schemas differ.
//   - probe: a project's lists ([Options].Project, else the first)
//     through the facade's typed methods, and where the answers differed
//     from the spec, counted by kind; [Report].Drift holds them, in the
//     form specdiff probe reports (specdiff overlay turns them into a spec
//     change).
//   - run: only with [Options].Run; see below.
//
// # Read-only
//
// Run sends only operations the spec does not mark x-changes-state, unless
// [Options].Run is set: then it sends runExperiment once, for that running
// configuration, and nothing else that changes state.
//
// # Measuring a run
//
// With [Options].Run, the run check reads the configuration's status and
// its scenario's runs, starts one run, and polls until the run has ended
// and been listed. It measures what run identity (facade.Run) depends on:
// how long the status keeps showing the last run's end after a start (the
// status lag), when the run is first listed, and how long it took
// ([RunMeasurement]), and recommends a stale window (WaitOptions.StaleWindow)
// above the lag seen and a maximum run length (WaitOptions.MaxRunLength,
// scm run and scm batch --max-run-length) above the length seen. The lag
// shows only on a configuration that ran before: run it twice on a new one.
//
// # Secrets
//
// Every text of the report passes through the client's
// [facade.Client.Redact]: the key appears in no spelling, whatever the
// server quotes.
//
// # Writing a report
//
// [Report.Write] writes the table (a line per check, then a summary), one
// JSON document, a JSON object per check, or CSV.
package doctor
