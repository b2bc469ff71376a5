package scmtemporal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmotel"
	"github.com/scmodel/scmgo/scmtemporal"
)

// With the tracing interceptor on the worker and the otel module on the
// activities' client, a workflow's trace holds its activities, and each
// activity the facade's calls it made; the facade's metrics are recorded
// inside activities. The spans are read with the OTel SDK's in-memory
// recorder.
func TestTraceShowsActivitiesAndTheirCalls(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock, scmotel.WithTelemetry(scmotel.WithTracerProvider(tp), scmotel.WithMeterProvider(mp)))
	tracing, err := scmtemporal.NewTracingInterceptor(tp)
	require.NoError(t, err)
	env := newWorkflowEnv(t, acts, tracing)
	env.result(t, scmtemporal.ItemInput{Name: "sim", ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION})

	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
	}
	workflow := spans["RunWorkflow:scm.ItemWorkflow"]
	require.NotNil(t, workflow, "no workflow span among %v", names(rec.Ended()))
	for _, act := range []string{"scm.PrepareRun", "scm.StartRun", "scm.WaitRun"} {
		run := spans["RunActivity:"+act]
		require.NotNil(t, run, "no span of activity %s among %v", act, names(rec.Ended()))
		assert.Equal(t, workflow.SpanContext().TraceID(), run.SpanContext().TraceID(), "%s is in the workflow's trace", act)
		start := spans["StartActivity:"+act]
		require.NotNil(t, start)
		assert.Equal(t, workflow.SpanContext().SpanID(), start.Parent().SpanID(), "the workflow starts %s", act)
	}
	call := spans["runExperiment"]
	require.NotNil(t, call, "no span of the facade's runExperiment among %v", names(rec.Ended()))
	assert.Equal(t, spans["RunActivity:scm.StartRun"].SpanContext().SpanID(), call.Parent().SpanID(), "runExperiment is a call of StartRun")
	wait := spans["Run.Wait"]
	require.NotNil(t, wait)
	assert.Equal(t, spans["RunActivity:scm.WaitRun"].SpanContext().SpanID(), wait.Parent().SpanID(), "the wait is WaitRun's")

	assert.Positive(t, operationCalls(t, reader, "runExperiment"), "scm.client.operation.duration of runExperiment")
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return out
}

// operationCalls is the count of scm.client.operation.duration for the
// operation.
func operationCalls(t *testing.T, reader sdkmetric.Reader, op string) uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(testCtx(t), &rm))
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			hist, ok := m.Data.(metricdata.Histogram[float64])
			if m.Name != "scm.client.operation.duration" || !ok {
				continue
			}
			for _, dp := range hist.DataPoints {
				if v, ok := dp.Attributes.Value("scm.operation"); ok && v.AsString() == op {
					n += dp.Count
				}
			}
		}
	}
	return n
}
