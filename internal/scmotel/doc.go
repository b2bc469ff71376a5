// Package scmotel turns what a facade.Client tells its facade.Observer
// into OpenTelemetry spans and metrics. It is the implementation of the
// module github.com/scmodel/scmgo/otel, whose package documentation says
// what is emitted and under which names, and of the telemetry of the scm
// command; it uses only OpenTelemetry's API, never its SDK.
//
// It lives in the root module, not in the otel module, because cmd/scm
// (root module) uses it too: the otel module requires the root module, so
// the root cannot require it back without a cycle of modules.
package scmotel
