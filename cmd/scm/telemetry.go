package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmotel"
)

// telemetry exports traces and metrics of what scm does over OTLP
// (http/protobuf), when the standard environment asks for it: see
// [startTelemetry]. A nil *telemetry exports nothing; its methods may be
// called all the same.
type telemetry struct {
	tp       *sdktrace.TracerProvider // nil: no traces
	mp       *sdkmetric.MeterProvider // nil: no metrics
	observer facade.Observer
	span     trace.Span // the command's
	failures failures   // what the exporters reported while scm ran
}

// failures keeps what OpenTelemetry reports through its error handler
// (an export that failed, in the background) for one line at the end,
// where the SDK would write a bare log line per failure.
type failures struct {
	mu    sync.Mutex
	first error
	n     int
}

func (f *failures) Handle(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first == nil {
		f.first = err
	}
	f.n++
}

// line is the one line that says what failed, "" when nothing did.
func (f *failures) line(more []error) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	errs := slices.DeleteFunc(append([]error{f.first}, more...), func(e error) bool { return e == nil })
	if len(errs) == 0 {
		return ""
	}
	first := errs[0].Error()
	if len(first) > 300 {
		first = first[:300] + "..."
	}
	line := "scm: telemetry: not all was exported: " + strings.ReplaceAll(first, "\n", "; ")
	if n := f.n + len(more); n > 1 {
		line += fmt.Sprintf(" (%d failures in all)", n)
	}
	return line
}

// telemetryShutdown bounds the export of what is left when scm ends.
const telemetryShutdown = 5 * time.Second

// startTelemetry reads OpenTelemetry's standard variables through getenv:
// traces are exported when OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, metrics when it or
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is, over OTEL_EXPORTER_OTLP_PROTOCOL
// (and its per-signal forms), which must be http/protobuf (the default);
// OTEL_SERVICE_NAME names the service (default scm), and
// OTEL_SDK_DISABLED=true turns it all off. The exporters read the rest of
// the OTEL_EXPORTER_OTLP_ variables themselves (headers, timeout,
// compression, certificates). It returns nil, having made nothing and
// opened no connection, when nothing is to be exported; a setting it
// cannot follow is a warning on warn, and that signal is not exported.
func startTelemetry(ctx context.Context, getenv func(string) string, warn io.Writer) *telemetry {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return nil
	}
	traces, metrics := exportsSignal(getenv, "TRACES", warn), exportsSignal(getenv, "METRICS", warn)
	if !traces && !metrics {
		return nil
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName("scm"), semconv.ServiceVersion(shortVersion())),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		fmt.Fprintf(warn, "scm: telemetry: %v\n", err) // a partial resource is still used
	}
	t := &telemetry{}
	otel.SetErrorHandler(&t.failures)
	if traces {
		t.tp = newTracerProvider(ctx, res, warn)
	}
	if metrics {
		t.mp = newMeterProvider(ctx, res, warn)
	}
	return t.withObserver()
}

// exportsSignal reports whether the signal (TRACES or METRICS) is to be
// exported over OTLP/HTTP.
func exportsSignal(getenv func(string) string, signal string, warn io.Writer) bool {
	if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") == "" {
		return false
	}
	name, protocol := "OTEL_EXPORTER_OTLP_"+signal+"_PROTOCOL", getenv("OTEL_EXPORTER_OTLP_"+signal+"_PROTOCOL")
	if protocol == "" {
		name, protocol = "OTEL_EXPORTER_OTLP_PROTOCOL", getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if protocol != "" && protocol != "http/protobuf" {
		fmt.Fprintf(warn, "scm: telemetry: %s=%s is not supported, only http/protobuf: no %s are exported\n",
			name, protocol, strings.ToLower(signal))
		return false
	}
	return true
}

func newTracerProvider(ctx context.Context, res *resource.Resource, warn io.Writer) *sdktrace.TracerProvider {
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		fmt.Fprintf(warn, "scm: telemetry: no traces are exported: %v\n", err)
		return nil
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
}

func newMeterProvider(ctx context.Context, res *resource.Resource, warn io.Writer) *sdkmetric.MeterProvider {
	exp, err := otlpmetrichttp.New(ctx)
	if err != nil {
		fmt.Fprintf(warn, "scm: telemetry: no metrics are exported: %v\n", err)
		return nil
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
}

// withObserver makes the observer the clients are given; a provider that
// could not be made is OpenTelemetry's no-op one.
func (t *telemetry) withObserver() *telemetry {
	var tp trace.TracerProvider = tracenoop.NewTracerProvider()
	if t.tp != nil {
		tp = t.tp
	}
	var mp metric.MeterProvider = metricnoop.NewMeterProvider()
	if t.mp != nil {
		mp = t.mp
	}
	t.observer = scmotel.NewObserver(scmotel.WithTracerProvider(tp), scmotel.WithMeterProvider(mp),
		scmotel.WithPropagator(propagation.TraceContext{}))
	return t
}

// clientOptions are the facade options that observe a client: none
// without telemetry.
func (t *telemetry) clientOptions() []facade.Option {
	if t == nil {
		return nil
	}
	return []facade.Option{facade.WithObserver(t.observer)}
}

// startCommand starts the span of the whole command, under which every
// call is; it is named once the command is known (see end).
func (t *telemetry) startCommand(ctx context.Context) context.Context {
	if t == nil || t.tp == nil {
		return ctx
	}
	ctx, t.span = t.tp.Tracer(scmotel.ScopeName).Start(ctx, "scm")
	return ctx
}

// end names the command's span after cmd, ends it with err, and exports
// what is left, within telemetryShutdown; a failure is a warning on warn.
func (t *telemetry) end(ctx context.Context, cmd *cobra.Command, err error, code int, warn io.Writer) {
	if t == nil {
		return
	}
	if t.span != nil {
		if cmd != nil {
			t.span.SetName(cmd.CommandPath())
		}
		t.span.SetAttributes(semconv.ProcessExitCode(code))
		if err != nil {
			t.span.SetStatus(codes.Error, err.Error())
		}
		t.span.End()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryShutdown)
	defer cancel()
	var errs []error
	if t.tp != nil {
		errs = append(errs, t.tp.Shutdown(ctx))
	}
	if t.mp != nil {
		errs = append(errs, t.mp.Shutdown(ctx))
	}
	if line := t.failures.line(slices.DeleteFunc(errs, func(e error) bool { return e == nil })); line != "" {
		fmt.Fprintln(warn, line)
	}
}
