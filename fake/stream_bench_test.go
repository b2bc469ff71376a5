package fake_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
)

// discard is a ResponseWriter that keeps nothing of the body: it counts
// it, and at its first write and every sampleEvery bytes after, collects
// the garbage and reads the live heap, keeping the highest value seen.
type discard struct {
	header http.Header
	n      int64
	status int
	peak   uint64
}

const sampleEvery = 4 << 20

func (d *discard) Header() http.Header    { return d.header }
func (d *discard) WriteHeader(status int) { d.status = status }
func (d *discard) Write(p []byte) (int, error) {
	if d.n == 0 || d.n/sampleEvery != (d.n+int64(len(p)))/sampleEvery {
		d.peak = max(d.peak, liveHeap())
	}
	d.n += int64(len(p))
	return len(p), nil
}

// listCost serves getScenarios of project 1 in process to a writer that
// keeps nothing, and returns the peak growth of the live heap while the
// answer was written (sampled by discard), the time (samples included) and
// the bytes of the answer. The live heap, not the heap in use, is measured:
// the heap in use also holds garbage, which the collector lets grow in
// proportion to the whole live heap, here mostly the scenarios themselves.
func listCost(b *testing.B, h http.Handler) (growth float64, took time.Duration, n int64) {
	req := httptest.NewRequestWithContext(b.Context(), http.MethodGet, fake.BasePath+"/open/scenario/list?projectId=1", nil)
	req.Header.Set("Authorization", fake.DefaultAPIKey)
	w := &discard{header: http.Header{}}
	base := liveHeap()
	start := time.Now()
	h.ServeHTTP(w, req)
	took = time.Since(start)
	if w.status != http.StatusOK {
		b.Fatalf("status %d", w.status)
	}
	return float64(w.peak) - float64(base), took, w.n
}

// BenchmarkScenarioList lists the scenarios of a project holding 10,000
// and one holding 100,000, alternately in the same loop, and reports the
// peak growth of the live heap while each answer is written, and their
// ratio: near 1 means memory does not grow with the list.
func BenchmarkScenarioList(b *testing.B) {
	small, large := fake.NewHandler(), fake.NewHandler()
	fake.AddScenarios(small, 1, 10_000)
	fake.AddScenarios(large, 1, 100_000)
	var gSmall, gLarge float64
	var tSmall, tLarge time.Duration
	var nLarge int64
	for b.Loop() {
		g, d, _ := listCost(b, small)
		gSmall, tSmall = max(gSmall, g), tSmall+d
		g, d, nLarge = listCost(b, large)
		gLarge, tLarge = max(gLarge, g), tLarge+d
	}
	n := float64(b.N)
	b.ReportMetric(gSmall/(1<<20), "heap-MiB-10k")
	b.ReportMetric(gLarge/(1<<20), "heap-MiB-100k")
	b.ReportMetric(max(gLarge, 1<<20)/max(gSmall, 1<<20), "heap-100k/10k")
	b.ReportMetric(float64(nLarge)/1e6, "answer-MB-100k")
	b.ReportMetric(float64(tSmall.Milliseconds())/n, "ms-10k")
	b.ReportMetric(float64(tLarge.Milliseconds())/n, "ms-100k")
}
