package scmotel

import (
	"runtime/debug"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmotel/internal/scmotel"
)

// ScopeName is the instrumentation scope of every span and metric: this
// module's path.
const ScopeName = scmotel.ScopeName

// Option configures [NewObserver].
type Option func(*scmotel.Config)

// WithTracerProvider sets where the spans go. Nil, or no option, means
// OpenTelemetry's global tracer provider.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *scmotel.Config) { c.TracerProvider = tp }
}

// WithMeterProvider sets where the metrics go. Nil, or no option, means
// OpenTelemetry's global meter provider.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *scmotel.Config) { c.MeterProvider = mp }
}

// WithPropagator sets how the trace context is put into each request's
// headers. Nil, or no option, means the global propagator, or W3C trace
// context (propagation.TraceContext) when the global one propagates
// nothing.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *scmotel.Config) { c.Propagator = p }
}

// NewObserver returns a facade.Observer that makes the spans and metrics
// described in the package documentation. An instrument the meter provider
// refuses to make is reported to OpenTelemetry's error handler
// (otel.Handle) and records nothing.
func NewObserver(opts ...Option) facade.Observer {
	cfg := scmotel.Config{Version: moduleVersion()}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return scmotel.New(cfg)
}

// WithTelemetry is facade.WithObserver(NewObserver(opts...)), an option
// of facade.New.
func WithTelemetry(opts ...Option) facade.Option { return facade.WithObserver(NewObserver(opts...)) }

// moduleVersion is this module's version in the running binary, "" when
// unknown.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path == ScopeName {
			return d.Version
		}
	}
	return ""
}
