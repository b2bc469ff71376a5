package main

import (
	"compress/gzip"
	"errors"
	"github.com/scmodel/scmgo/fake"
	"go.opentelemetry.io/otel"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP receiver: it decodes the protobuf requests
// of /v1/traces and /v1/metrics, and counts every request it gets.
type otlpReceiver struct {
	url      string
	mu       sync.Mutex
	requests int
	traces   []*collectortrace.ExportTraceServiceRequest
	metrics  []*collectormetrics.ExportMetricsServiceRequest
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

func (r *otlpReceiver) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	r.mu.Unlock()
	body, err := r.body(req)
	if err != nil || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "not an OTLP/HTTP protobuf request", http.StatusBadRequest)
		return
	}
	var in, out proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		in, out = &collectortrace.ExportTraceServiceRequest{}, &collectortrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		in, out = &collectormetrics.ExportMetricsServiceRequest{}, &collectormetrics.ExportMetricsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	if err := proto.Unmarshal(body, in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.keep(in)
	reply, _ := proto.Marshal(out)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(reply)
}

func (r *otlpReceiver) body(req *http.Request) ([]byte, error) {
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(req.Body)
		if err != nil {
			return nil, err
		}
		body = z
	}
	return io.ReadAll(io.LimitReader(body, 64<<20))
}

func (r *otlpReceiver) keep(m proto.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m := m.(type) {
	case *collectortrace.ExportTraceServiceRequest:
		r.traces = append(r.traces, m)
	case *collectormetrics.ExportMetricsServiceRequest:
		r.metrics = append(r.metrics, m)
	}
}

// spans maps the name of every span received to its parent's name ("" for
// a root), and returns the service names of their resources.
func (r *otlpReceiver) spans() (parents map[string]string, services []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	names, parents := map[string]string{}, map[string]string{}
	for _, req := range r.traces {
		for _, rs := range req.ResourceSpans {
			for _, a := range rs.Resource.Attributes {
				if a.Key == "service.name" {
					services = append(services, a.Value.GetStringValue())
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names[string(s.SpanId)] = s.Name
				}
			}
		}
	}
	for _, req := range r.traces {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					parents[s.Name] = names[string(s.ParentSpanId)]
				}
			}
		}
	}
	return parents, services
}

// metricNames are the names of every metric received.
func (r *otlpReceiver) metricNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, req := range r.metrics {
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					out = append(out, m.Name)
				}
			}
		}
	}
	return out
}

// text is everything received, as protobuf text.
func (r *otlpReceiver) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, m := range r.traces {
		b.WriteString(prototext.Format(m))
	}
	for _, m := range r.metrics {
		b.WriteString(prototext.Format(m))
	}
	return b.String()
}

func (r *otlpReceiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// clearOTelEnv unsets every variable startTelemetry reads, whatever the
// machine's environment says.
func clearOTelEnv(t *testing.T) {
	for _, name := range []string{"OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
		"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_EXPORTER_OTLP_TIMEOUT",
		"OTEL_BSP_SCHEDULE_DELAY", "OTEL_METRIC_EXPORT_INTERVAL"} {
		t.Setenv(name, "")
	}
}

// With OTEL_EXPORTER_OTLP_ENDPOINT set, scm exports the traces and metrics
// of what it did over OTLP/HTTP before it exits: the command's span, the
// call's span under it, the attempt's under that, under the service
// OTEL_SERVICE_NAME names; and none of it holds the API key.
func TestExportsTelemetryOverOTLP(t *testing.T) {
	clearOTelEnv(t)
	recv := newOTLPReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.url)
	t.Setenv("OTEL_SERVICE_NAME", "scm-under-test")
	_, flags := newServer(t)
	r := scm(t, "", append([]string{"projects"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)

	parents, services := recv.spans()
	assert.Equal(t, "", parents["scm projects"], "the command's span is the root")
	assert.Equal(t, "scm projects", parents["getProjects"])
	assert.Equal(t, "getProjects", parents["GET /open/project/list"])
	require.NotEmpty(t, services)
	for _, s := range services {
		assert.Equal(t, "scm-under-test", s)
	}
	metrics := recv.metricNames()
	for _, name := range []string{"http.client.request.duration", "scm.client.operation.duration", "scm.client.operation.active"} {
		assert.Contains(t, metrics, name)
	}
	assert.NotContains(t, strings.ToLower(recv.text()), strings.ToLower(testKey))
}

// Without OTEL_EXPORTER_OTLP_ENDPOINT scm exports nothing and connects to
// nothing: no request reaches the receiver, nor OTLP/HTTP's default
// endpoint (127.0.0.1:4318), where a listener counts connections when the
// port is free; an unsupported protocol is a warning, and nothing is
// exported.
func TestExportsNothingUnlessAsked(t *testing.T) {
	clearOTelEnv(t)
	recv := newOTLPReceiver(t)
	var accepted counter
	if ln, err := net.Listen("tcp", "127.0.0.1:4318"); err == nil {
		t.Cleanup(func() { ln.Close() })
		go accepted.accept(ln)
	} else {
		t.Logf("the default endpoint's port is in use (%v): only the receiver is watched", err)
	}
	_, flags := newServer(t)
	t.Setenv("OTEL_SERVICE_NAME", "scm-under-test") // names the service, asks for no export
	r := scm(t, "", append([]string{"projects"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)

	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.url)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	r = scm(t, "", append([]string{"projects"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm: telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported, only http/protobuf: no traces are exported")

	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_SDK_DISABLED", "true")
	r = scm(t, "", append([]string{"projects"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	time.Sleep(50 * time.Millisecond) // a connection on its way to the listener
	assert.Zero(t, recv.count(), "requests reached the receiver")
	assert.Zero(t, accepted.get(), "connections reached the default endpoint")
}

// counter counts the connections a listener accepts.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) accept(ln net.Listener) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		conn.Close()
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
}

func (c *counter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// startTelemetry makes nothing unless an endpoint is set.
func TestStartTelemetryNeedsAnEndpoint(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"nothing set":          {},
		"a service name alone": {"OTEL_SERVICE_NAME": "x"},
		"a protocol alone":     {"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
		"disabled":             {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"},
		"no protocol it has":   {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
	} {
		t.Run(name, func(t *testing.T) {
			var warn strings.Builder
			assert.Nil(t, startTelemetry(t.Context(), func(k string) string { return env[k] }, &warn))
		})
	}
	var warn strings.Builder
	tel := startTelemetry(t.Context(), func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"}[k]
	}, &warn)
	require.NotNil(t, tel, "the traces' own endpoint is enough")
	defer tel.end(t.Context(), nil, nil, 0, io.Discard)
	assert.NotNil(t, tel.tp)
	assert.Nil(t, tel.mp, "no metrics without an endpoint for them")
}

// With the collector down, what was not exported is one line in scm's own
// format, and no bare log line of the SDK's.
func TestTelemetryFailureIsOneLine(t *testing.T) {
	clearOTelEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	down := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", down)
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "500")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "20") // export while the command runs, as a long one does
	t.Setenv("OTEL_METRIC_EXPORT_INTERVAL", "20")
	var logged syncBuffer // where the SDK's own error handler writes: the standard logger
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	_, flags := newServer(t, fake.WithRunDuration(300*time.Millisecond))
	r := scm(t, "", append([]string{"run", "10303", "--wait", "--quiet"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, logged.String(), "a bare log line of the SDK")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Len(t, lines, 1, "one line: %q", r.stderr)
	assert.True(t, strings.HasPrefix(lines[0], "scm: telemetry: not all was exported: "), lines[0])
}

// syncBuffer is a buffer that goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// What OpenTelemetry reports in the background (an export that failed
// while the command ran) goes into scm's one line at the end, with the
// count of failures, not to the SDK's own logger.
func TestTelemetryBackgroundFailuresJoinTheLine(t *testing.T) {
	clearOTelEnv(t)
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}
	var warn strings.Builder
	tel := startTelemetry(t.Context(), func(k string) string { return env[k] }, &warn)
	require.NotNil(t, tel)
	otel.Handle(errors.New("traces export: connection refused"))
	otel.Handle(errors.New("metrics export: connection refused"))
	tel.end(t.Context(), nil, nil, 0, &warn)
	lines := strings.Split(strings.TrimSpace(warn.String()), "\n")
	require.Len(t, lines, 1, warn.String())
	assert.True(t, strings.HasPrefix(lines[0], "scm: telemetry: not all was exported: traces export: connection refused ("), lines[0])
	assert.Contains(t, lines[0], "failures in all)")
}
