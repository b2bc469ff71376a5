package scmtemporal

import (
	"go.opentelemetry.io/otel/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// tracerName names the tracer of the workflows' and activities' spans.
const tracerName = "github.com/scmodel/scmgo/scmtemporal"

// NewTracingInterceptor returns Temporal's OpenTelemetry interceptor
// (go.temporal.io/sdk/contrib/opentelemetry) on tp; nil tp means the
// global tracer provider. Give it to the client (client.Options.Interceptors)
// and to the worker (worker.Options.Interceptors): a plan's start, each
// workflow and each activity are spans of one trace, and the facade's
// spans (scmotel.WithTelemetry on the Activities' client) are children of
// the activity that made the calls.
func NewTracingInterceptor(tp trace.TracerProvider) (interceptor.Interceptor, error) {
	opts := temporalotel.TracerOptions{}
	if tp != nil {
		opts.Tracer = tp.Tracer(tracerName)
	}
	return temporalotel.NewTracingInterceptor(opts)
}
