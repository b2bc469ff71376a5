package fake_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// pageTable pages through a whole table chart of rows rows with take 10000,
// in process, and returns the largest live heap seen above the baseline.
func pageTable(b *testing.B, rows int64) float64 {
	clock := fake.NewVirtualClock(epoch)
	h := fake.NewHandler(fake.WithClock(clock), fake.WithLicense(), fake.WithResultSize(1, 1, rows))
	call := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequestWithContext(context.Background(), http.MethodGet, fake.BasePath+path, nil)
		req.Header.Set("Authorization", fake.DefaultAPIKey)
		h.ServeHTTP(rec, req)
		return rec
	}
	call("/open/experiments/run?rcId=10101")
	clock.Advance(fake.DefaultRunDuration)
	base := liveHeap()
	var peak uint64
	for skip := int64(0); skip < rows; skip += fake.MaxTake {
		rec := call("/open/experiments/chart-table-data?rcId=10101&chartId=101&take=10000&skip=" + itoa(skip))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if skip%(10*fake.MaxTake) == 0 {
			peak = max(peak, liveHeap())
		}
	}
	return float64(peak) - float64(base)
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkPageMillionRowTable pages a 1,000,000-row table and reports the
// live heap growth against paging a 10,000-row table (one page) in the same
// run: a ratio near 1 means memory does not grow with the table.
func BenchmarkPageMillionRowTable(b *testing.B) {
	var growth, baseline float64
	for b.Loop() {
		baseline = pageTable(b, fake.MaxTake)
		growth = pageTable(b, 1_000_000)
	}
	b.ReportMetric(growth/(1<<20), "heap-growth-MiB")
	b.ReportMetric(baseline/(1<<20), "baseline-heap-growth-MiB")
	// Below 1 MiB the live heap is noise (it can even shrink), so the ratio
	// counts growths under 1 MiB as 1 MiB.
	b.ReportMetric(max(growth, 1<<20)/max(baseline, 1<<20), "growth/baseline")
	_ = gen.Operations
}
