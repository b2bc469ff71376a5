package fake_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
)

// jobsHandler is a fake with n copy jobs that will not end for an hour, and
// how long the first and the last thousand of them took to create.
func jobsHandler(b *testing.B, n int) (h http.Handler, first, last time.Duration) {
	h = fake.NewHandler(fake.WithClock(fake.NewVirtualClock(epoch)), fake.WithImportDuration(time.Hour))
	for i := range n {
		start := time.Now()
		if rec := serve(h, http.MethodPost, "/open/scenario/copy?scenarioId=101&newType=GFA"); rec.Code != http.StatusOK {
			b.Fatalf("copy %d: status %d: %s", i, rec.Code, rec.Body)
		}
		switch d := time.Since(start); {
		case i < 1000:
			first += d
		case i >= n-1000:
			last += d
		}
	}
	return h, first, last
}

func serve(h http.Handler, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(context.Background(), method, fake.BasePath+path, nil)
	req.Header.Set("Authorization", fake.DefaultAPIKey)
	h.ServeHTTP(rec, req)
	return rec
}

// BenchmarkRequestWithManyJobs times getCurrentUser on a fake with no jobs
// and on one with 50,000, alternately in the same loop, and reports their
// ratio (flat is 1.0); and the cost of creating the last thousand jobs
// against the first thousand.
func BenchmarkRequestWithManyJobs(b *testing.B) {
	const jobs = 50_000
	empty, _, _ := jobsHandler(b, 0)
	full, first, last := jobsHandler(b, jobs)
	var tEmpty, tFull time.Duration
	for b.Loop() {
		start := time.Now()
		serve(empty, http.MethodGet, "/open/user")
		mid := time.Now()
		serve(full, http.MethodGet, "/open/user")
		tEmpty, tFull = tEmpty+mid.Sub(start), tFull+time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tEmpty.Nanoseconds())/n, "ns/request-0-jobs")
	b.ReportMetric(float64(tFull.Nanoseconds())/n, "ns/request-50000-jobs")
	b.ReportMetric(float64(tFull)/float64(tEmpty), "x-request-0-jobs")
	b.ReportMetric(float64(last)/float64(first), "x-create-first-1000")
}
