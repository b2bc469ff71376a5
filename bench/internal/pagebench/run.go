package pagebench

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

type totals struct {
	d      time.Duration
	allocs uint64
}

// Run pages through a table of shape s with every client, b.N times each,
// rotating their order, and reports per client the nanoseconds and
// allocations per row ("<name>-ns/row", "<name>-allocs/row"), then for the
// first client its time ratio to each other client ("x-<name>") and its
// allocations per row above it ("allocs-above-<name>").
func Run(b *testing.B, s Shape, clients ...Client) {
	srv := NewServer(s)
	defer srv.Close()
	base := srv.URL + "/api/v1"
	sums := make([]totals, len(clients))
	b.ResetTimer()
	for i := range b.N {
		for j := range clients {
			k := (i + j) % len(clients)
			t, err := measure(func() (int, error) { return clients[k].Page(context.Background(), base) })
			if err != nil {
				b.Fatalf("%s: %v", clients[k].Name, err)
			}
			sums[k].d += t.d
			sums[k].allocs += t.allocs
		}
	}
	b.StopTimer()
	rows := float64(b.N * Pages * Rows)
	for k, c := range clients {
		b.ReportMetric(float64(sums[k].d.Nanoseconds())/rows, c.Name+"-ns/row")
		b.ReportMetric(float64(sums[k].allocs)/rows, c.Name+"-allocs/row")
	}
	for k, c := range clients[1:] {
		b.ReportMetric(float64(sums[0].d)/float64(sums[k+1].d), "x-"+c.Name)
		b.ReportMetric((float64(sums[0].allocs)-float64(sums[k+1].allocs))/rows, "allocs-above-"+c.Name)
	}
}

// measure runs page after a collection, so that no client pays for the
// garbage of the one before, and checks that it read the whole table.
func measure(page func() (int, error)) (totals, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	n, err := page()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil && n != Pages*Rows {
		err = errRows(n)
	}
	return totals{d, after.Mallocs - before.Mallocs}, err
}

func errRows(n int) error { return fmt.Errorf("read %d rows, want %d", n, Pages*Rows) }
