package dashboard

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// BenchmarkExport times dashboard.Export of a result against downloading
// the same pages (ReadAll of each, nothing else) in the same iteration,
// from the same fake, the two in turn first, and reports the ratios of
// their wall and CPU times (the fake's work, in the same process, counts in
// both), and the peak heap above its start of each, the fake's included.
// The page count varies so that the heap can be seen not to grow with it;
// with latency, each page's answer comes that much later, as from a server
// across a network that takes time to make it.
func BenchmarkExport(b *testing.B) {
	for _, tc := range []struct {
		pages   int
		latency time.Duration
	}{{2, 0}, {8, 0}, {8, 100 * time.Millisecond}} {
		b.Run(fmt.Sprintf("pages=%d/latency=%v", tc.pages, tc.latency), func(b *testing.B) { benchExport(b, tc.pages, tc.latency) })
	}
}

// slowPages delays the answer of every page export.
type slowPages struct {
	next    http.RoundTripper
	latency time.Duration
}

func (s slowPages) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/export-page") {
		time.Sleep(s.latency)
	}
	return s.next.RoundTrip(r)
}

func benchExport(b *testing.B, pages int, latency time.Duration) {
	srv, clk := faketest.NewInstantServer(b, fake.WithRunDuration(0), fake.WithResultSize(pages, 4, 20000))
	transport := slowPages{next: http.DefaultTransport.(*http.Transport).Clone(), latency: latency}
	c := newClient(b, srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk), facade.WithHTTPClient(&http.Client{Transport: transport}))
	result := runSync(b, c, 10101)
	ctx, cancel := context.WithTimeout(b.Context(), 10*time.Minute)
	defer cancel()
	list, err := c.Dashboards.Pages(ctx, result)
	if err != nil {
		b.Fatal(err)
	}
	var dl, ex times
	var peak, dlPeak, pageBytes uint64
	download := func() {
		stop := sampleHeap()
		defer func() { dlPeak = max(dlPeak, stop()) }()
		pageBytes = 0
		for _, p := range list {
			d, err := c.Dashboards.ExportPage(ctx, result, p.Id)
			if err != nil {
				b.Fatal(err)
			}
			data, err := d.ReadAll(nil)
			if err != nil {
				b.Fatal(err)
			}
			pageBytes += uint64(len(data))
		}
	}
	export := func() {
		stop := sampleHeap()
		if err := Export(ctx, c, result, io.Discard, nil); err != nil {
			b.Fatal(err)
		}
		peak = max(peak, stop())
	}
	i := 0
	for b.Loop() {
		if i++; i%2 == 1 {
			dl.time(download)
			ex.time(export)
		} else {
			ex.time(export)
			dl.time(download)
		}
	}
	b.ReportMetric(float64(ex.wall)/float64(dl.wall), "export/download")
	b.ReportMetric(float64(ex.cpu)/float64(dl.cpu), "export/download-cpu")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(dlPeak)/(1<<20), "download-peak-heap-MiB")
	b.ReportMetric(float64(pageBytes)/float64(pages)/(1<<20), "MiB/page")
}

// times sums the wall and CPU time of what it timed.
type times struct{ wall, cpu time.Duration }

func (t *times) time(f func()) {
	w, c := time.Now(), cpuTime()
	f()
	t.wall += time.Since(w)
	t.cpu += cpuTime() - c
}

// cpuTime is the CPU time of the process, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
