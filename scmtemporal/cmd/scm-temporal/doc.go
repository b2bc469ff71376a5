// Command scm-temporal runs the items of a batch plan as Temporal
// workflows, with the module github.com/scmodel/scmgo/scmtemporal:
//
//	scm-temporal worker                   # a worker; start as many as you like, on any machines
//	scm-temporal start [flags] PLAN.yaml  # a workflow per item, progress, then the summary
//
// It reaches Temporal as the Temporal CLI does (its config file's profile,
// TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*,
// then the flags), and the modelling server with SCM_BASE_URL and
// SCM_API_KEY. See README.md.
package main
