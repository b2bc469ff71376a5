package dashboard

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
)

// BenchmarkExport times dashboard.Export of a result against downloading
// the same pages (ReadAll of each, nothing else) in the same iteration,
// from the same fake, the two in turn first, and reports the ratios of
// their wall and CPU times (the fake's work, in the same process, counts in
// both) and the peak heap of the export above its start. The page count
// varies so that the heap can be seen not to grow with it.
func BenchmarkExport(b *testing.B) {
	for _, pages := range []int{2, 8} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) { benchExport(b, pages) })
	}
}

func benchExport(b *testing.B, pages int) {
	_, c := newFake(b, fake.WithResultSize(pages, 4, 20000))
	result := runSync(b, c, 10101)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	list, err := c.Dashboards.Pages(ctx, result)
	if err != nil {
		b.Fatal(err)
	}
	var dl, ex times
	var peak, pageBytes uint64
	download := func() {
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
