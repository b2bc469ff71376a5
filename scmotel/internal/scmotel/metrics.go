package scmotel

import (
	"errors"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// Metric names. http.client.request.duration is OpenTelemetry's; the
// others are the SDK's own, under scm.client.
const (
	MetricHTTPDuration      = "http.client.request.duration"
	MetricOperationDuration = "scm.client.operation.duration"
	MetricActiveOperations  = "scm.client.operation.active"
	MetricRetries           = "scm.client.retries"
	MetricPolls             = "scm.client.polls"
)

// httpBuckets are the boundaries the semantic conventions advise for
// http.client.request.duration.
var httpBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// operationBuckets reach further: a call includes its retries' waits, and
// a synchronous run is answered when the run ends.
var operationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}

type instruments struct {
	httpDuration metric.Float64Histogram
	opDuration   metric.Float64Histogram
	active       metric.Int64UpDownCounter
	retries      metric.Int64Counter
	polls        metric.Int64Counter
}

// newInstruments makes the instruments of m. An instrument m refuses is
// reported to OpenTelemetry's error handler (otel.Handle), as
// instrumentation libraries do, and does nothing.
func newInstruments(m metric.Meter) instruments {
	var in instruments
	var errs [5]error
	in.httpDuration, errs[0] = m.Float64Histogram(MetricHTTPDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."), metric.WithExplicitBucketBoundaries(httpBuckets...))
	in.opDuration, errs[1] = m.Float64Histogram(MetricOperationDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of operation calls, every attempt and the waits between them included."),
		metric.WithExplicitBucketBoundaries(operationBuckets...))
	in.active, errs[2] = m.Int64UpDownCounter(MetricActiveOperations, metric.WithUnit("{call}"),
		metric.WithDescription("Operation calls under way."))
	in.retries, errs[3] = m.Int64Counter(MetricRetries, metric.WithUnit("{retry}"),
		metric.WithDescription("Waits before an operation call's next attempt."))
	in.polls, errs[4] = m.Int64Counter(MetricPolls, metric.WithUnit("{poll}"),
		metric.WithDescription("Answered status requests of runs and jobs."))
	if err := errors.Join(errs[:]...); err != nil {
		otel.Handle(err)
	}
	return in.orNoop()
}

// orNoop replaces the instruments a meter did not make with ones that do
// nothing.
func (in instruments) orNoop() instruments {
	var n noop.Meter
	if in.httpDuration == nil {
		in.httpDuration, _ = n.Float64Histogram(MetricHTTPDuration)
	}
	if in.opDuration == nil {
		in.opDuration, _ = n.Float64Histogram(MetricOperationDuration)
	}
	if in.active == nil {
		in.active, _ = n.Int64UpDownCounter(MetricActiveOperations)
	}
	if in.retries == nil {
		in.retries, _ = n.Int64Counter(MetricRetries)
	}
	if in.polls == nil {
		in.polls, _ = n.Int64Counter(MetricPolls)
	}
	return in
}
