package scmotel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmotel"
)

// env is a fake server on an instant clock, a client of it that observes
// with OpenTelemetry into in-memory exporters, and the traceparent header
// of every request the client sent.
type env struct {
	srv     *fake.Server
	clock   faketest.InstantClock
	c       *facade.Client
	spans   *tracetest.InMemoryExporter
	metrics *sdkmetric.ManualReader
	sent    *headerLog
}

func newEnv(t *testing.T, opts ...fake.Option) *env {
	t.Helper()
	srv, clock := faketest.NewInstantServer(t, opts...)
	e := observed(t, srv.URL, srv.Client().Transport, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	e.srv, e.clock = srv, clock
	return e
}

// newStubEnv is newEnv with handler as the server, and opts as the
// client's options (a key by default).
func newStubEnv(t *testing.T, handler http.HandlerFunc, opts ...facade.Option) *env {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return observed(t, srv.URL+"/api/v1", srv.Client().Transport, append([]facade.Option{facade.WithAPIKey("stub-key")}, opts...)...)
}

// observed is the env of a client of baseURL sending through base.
func observed(t *testing.T, baseURL string, base http.RoundTripper, opts ...facade.Option) *env {
	t.Helper()
	e := &env{spans: tracetest.NewInMemoryExporter(), metrics: sdkmetric.NewManualReader(), sent: &headerLog{}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(e.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(e.metrics))
	t.Cleanup(func() { shutdown(tp, mp) })
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		e.sent.add(r)
		return base.RoundTrip(r)
	})}
	opts = append(opts, facade.WithHTTPClient(hc), scmotel.WithTelemetry(scmotel.WithTracerProvider(tp), scmotel.WithMeterProvider(mp)))
	c, err := facade.New(baseURL, opts...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	e.c = c
	return e
}

// testCtx ends with the test, or after 10 s.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// headerLog keeps the trace context and the Authorization header of each
// request sent.
type headerLog struct {
	mu          sync.Mutex
	traceparent []string
	auth        []string
}

func (h *headerLog) add(r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.traceparent = append(h.traceparent, r.Header.Get("Traceparent"))
	h.auth = append(h.auth, r.Header.Get("Authorization"))
}

func (h *headerLog) traceparents() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.traceparent)
}

// tree is the exported spans, by parent.
type tree struct {
	all      tracetest.SpanStubs
	children map[trace.SpanID][]tracetest.SpanStub
}

func (e *env) tree() tree {
	tr := tree{all: e.spans.GetSpans(), children: map[trace.SpanID][]tracetest.SpanStub{}}
	slices.SortStableFunc(tr.all, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	for _, s := range tr.all {
		tr.children[s.Parent.SpanID()] = append(tr.children[s.Parent.SpanID()], s)
	}
	return tr
}

// named returns the spans called name, in the order they started.
func (tr tree) named(name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range tr.all {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the only span called name.
func (tr tree) one(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	spans := tr.named(name)
	require.Len(t, spans, 1, "spans named %s", name)
	return spans[0]
}

func (tr tree) of(s tracetest.SpanStub) []tracetest.SpanStub {
	return tr.children[s.SpanContext.SpanID()]
}

// names are the names of spans.
func names(spans []tracetest.SpanStub) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

// attrs are a span's or an event's attributes as Go values.
func attrs(kvs []attribute.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.AsInterface()
	}
	return out
}

// collect reads every metric recorded so far.
func (e *env) collect(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, e.metrics.Collect(t.Context(), &rm))
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// histogramCount is the count of the histogram's points whose attributes
// include want.
func histogramCount(t *testing.T, m metricdata.Metrics, want ...attribute.KeyValue) uint64 {
	t.Helper()
	h, ok := m.Data.(metricdata.Histogram[float64])
	require.True(t, ok, "%s is a float64 histogram", m.Name)
	var n uint64
	for _, p := range h.DataPoints {
		if hasAll(p.Attributes, want) {
			n += p.Count
		}
	}
	return n
}

// sum is the sum of the counter's points whose attributes include want.
func sum(t *testing.T, m metricdata.Metrics, want ...attribute.KeyValue) int64 {
	t.Helper()
	s, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is an int64 sum", m.Name)
	var n int64
	for _, p := range s.DataPoints {
		if hasAll(p.Attributes, want) {
			n += p.Value
		}
	}
	return n
}

func hasAll(set attribute.Set, want []attribute.KeyValue) bool {
	for _, kv := range want {
		if v, ok := set.Value(kv.Key); !ok || v != kv.Value {
			return false
		}
	}
	return true
}

// testDBPassword is the database password of testDB, which no span or
// metric may hold.
const testDBPassword = "db-pass-SECRET-456"

func testDB() gen.DBConnectionProperties {
	host, user, password, typ := "db.internal", "scm", testDBPassword, "POSTGRESQL"
	return gen.DBConnectionProperties{Host: &host, User: &user, Password: &password, Type: &typ}
}

// requestID is the request id of an *facade.APIError, "" for other errors.
func requestID(err error) string {
	var apiErr *facade.APIError
	if errors.As(err, &apiErr) {
		return apiErr.RequestID
	}
	return ""
}

// shutdown flushes and stops the providers of a test that has ended, whose
// own context is over: within 10 s.
func shutdown(tp *sdktrace.TracerProvider, mp *sdkmetric.MeterProvider) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = tp.Shutdown(ctx)
	_ = mp.Shutdown(ctx)
}
