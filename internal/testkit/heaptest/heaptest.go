// Package heaptest measures what a piece of work makes the heap hold, for
// the tests that bound what a hostile server can make the SDK hold.
package heaptest

import (
	"runtime"
	"sync"
	"time"
)

// Peak runs f and returns the peak growth of the live heap while it ran,
// sampled every millisecond after a collection, and the wall time it took.
func Peak(f func()) (grew uint64, took time.Duration) {
	runtime.GC()
	start := Live()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if h := Live(); h > start && h-start > peak {
				peak = h - start
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	began := time.Now()
	f()
	took = time.Since(began)
	close(done)
	wg.Wait()
	return peak, took
}

// Live is the bytes of the live heap (runtime.MemStats.HeapAlloc).
func Live() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
