// Package logmsg holds the messages of the log lines that the SDK's own
// tools tell apart from others: scm leaves out the line per difference
// from the spec, and ends with one that counts them.
package logmsg

// Drift is the message of the Warn line logged once for each difference
// between an answer and the spec.
const Drift = "scm answer differs from the spec"

// DriftLimit is the message of the Warn line logged once, when a client
// first drops a difference because it holds Limits.MaxDriftFindings of
// them already.
const DriftLimit = "scm answers differ from the spec in more ways than the client keeps"
