package scmotel_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmotel"
)

// discard is a span exporter that drops what it is given.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

const userJSON = `{"username":"demo","license":true}`

// cannedTransport answers every request with userJSON, in memory.
type cannedTransport struct{}

func (cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(userJSON))), ContentLength: int64(len(userJSON)), Request: r}, nil
}

// benchClients are a client without observer and one observed with
// OpenTelemetry's SDK: a real batch span processor over an exporter that
// drops the spans, and a meter provider with a reader.
func benchClients(b *testing.B, baseURL string, hc *http.Client) (off, on *facade.Client) {
	b.Helper()
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { shutdown(tp, mp) })
	var err error
	if off, err = facade.New(baseURL, facade.WithAPIKey("bench-key"), facade.WithHTTPClient(hc)); err != nil {
		b.Fatal(err)
	}
	on, err = facade.New(baseURL, facade.WithAPIKey("bench-key"), facade.WithHTTPClient(hc),
		scmotel.WithTelemetry(scmotel.WithTracerProvider(tp), scmotel.WithMeterProvider(mp)))
	if err != nil {
		b.Fatal(err)
	}
	return off, on
}

// BenchmarkCheapRead is getCurrentUser with the hook off and with
// OpenTelemetry on, measured in turn in the same loop: answered in memory
// (the whole cost of a call is the SDK's) and by a server on loopback.
// It reports each one's time and allocations per call and the ratio.
//
//	cd scmotel && go test -run '^$' -bench BenchmarkCheapRead -benchtime 20000x .
func BenchmarkCheapRead(b *testing.B) {
	b.Run("in-memory", func(b *testing.B) {
		off, on := benchClients(b, "http://127.0.0.1/api/v1", &http.Client{Transport: cannedTransport{}})
		compareReads(b, off, on)
	})
	b.Run("loopback", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, userJSON)
		}))
		defer srv.Close()
		off, on := benchClients(b, srv.URL+"/api/v1", srv.Client())
		defer off.CloseIdleConnections()
		compareReads(b, off, on)
	})
}

func compareReads(b *testing.B, off, on *facade.Client) {
	ctx := b.Context()
	read := func(c *facade.Client) {
		if _, err := c.User.Current(ctx); err != nil {
			b.Fatal(err)
		}
	}
	read(off)
	read(on)
	offAllocs := testing.AllocsPerRun(100, func() { read(off) })
	onAllocs := testing.AllocsPerRun(100, func() { read(on) })
	var tOff, tOn time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		read(off)
		t1 := time.Now()
		read(on)
		tOff, tOn = tOff+t1.Sub(t0), tOn+time.Since(t1)
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "off-ns/call")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "on-ns/call")
	b.ReportMetric(float64(tOn)/float64(tOff), "time-ratio")
	b.ReportMetric(offAllocs, "off-allocs/call")
	b.ReportMetric(onAllocs, "on-allocs/call")
}
