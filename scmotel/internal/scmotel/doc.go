// Package scmotel turns what a facade.Client tells its facade.Observer
// into OpenTelemetry spans and metrics. It is the implementation of the
// module github.com/scmodel/scmgo/scmotel, whose package documentation says
// what is emitted and under which names; it uses only OpenTelemetry's API,
// never its SDK. The scm command's telemetry (module
// github.com/scmodel/scmgo/cmd/scm) reaches it through the otel module's
// API, as any user does.
//
// It lives in the otel module, not in the root module, so that the root
// go.mod requires nothing of OpenTelemetry and a program importing the SDK's
// packages finds none of it in its module graph.
package scmotel
