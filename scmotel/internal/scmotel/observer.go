package scmotel

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/facade"
)

// ScopeName names the instrumentation scope of every span and metric.
const ScopeName = "github.com/scmodel/scmgo/scmotel"

// Config says where the spans, metrics and trace context go. A nil field
// means OpenTelemetry's global one (otel.GetTracerProvider,
// otel.GetMeterProvider, otel.GetTextMapPropagator); a global propagator
// that propagates nothing (none was set) is replaced by W3C trace context.
type Config struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	Propagator     propagation.TextMapPropagator
	// Version is the instrumentation scope's version, "" when unknown.
	Version string
}

// Observer is a facade.Observer that makes spans and metrics.
type Observer struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	m      instruments
}

var _ facade.Observer = (*Observer)(nil)

// New returns the Observer of cfg.
func New(cfg Config) *Observer {
	tp, mp, prop := cfg.TracerProvider, cfg.MeterProvider, cfg.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	if len(prop.Fields()) == 0 {
		prop = propagation.TraceContext{}
	}
	tracer := tp.Tracer(ScopeName, trace.WithInstrumentationVersion(cfg.Version), trace.WithSchemaURL(semconv.SchemaURL))
	meter := mp.Meter(ScopeName, metric.WithInstrumentationVersion(cfg.Version), metric.WithSchemaURL(semconv.SchemaURL))
	return &Observer{tracer: tracer, prop: prop, m: newInstruments(meter)}
}
