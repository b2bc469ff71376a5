package dashboard

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
)

// bookStub serves a result whose pages are listed by list, each page's
// workbook given by serve.
func bookStub(t testing.TB, list string, serve func(w http.ResponseWriter, pageID string)) *facade.Client {
	return newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, list)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		serve(w, r.URL.Query().Get("pageId"))
	})
}

// onePage serves a result of one page, "Data", whose workbook is data.
func onePage(t testing.TB, data []byte) *facade.Client {
	return bookStub(t, `[{"id":1,"name":"Data"}]`, func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		_, _ = w.Write(data)
	})
}

// Bounded runs of Export: how long it took, how much the heap grew at its
// peak, and that it left no temporary file.

// bounds is what a run of Export cost.
type bounds struct {
	elapsed time.Duration
	peak    uint64 // heap growth at its peak, bytes
}

// measured runs f with TMPDIR an empty directory, sampling the heap, and
// checks that f left no file in it.
func measured(t *testing.T, f func()) bounds {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	stop := sampleHeap()
	start := time.Now()
	f()
	b := bounds{elapsed: time.Since(start), peak: stop()}
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "no temporary file outlives the export")
	return b
}

// within asserts the bounds of a hostile page: the heap grew by at most
// maxHeap, and it took at most maxTime (a bound far above what it takes,
// far below what an unbounded read of the page would).
func (b bounds) within(t *testing.T, maxHeap uint64, maxTime time.Duration) {
	t.Helper()
	t.Logf("peak heap growth %.1f MiB, %v", float64(b.peak)/(1<<20), b.elapsed.Round(time.Millisecond))
	assert.LessOrEqual(t, b.peak, maxHeap, "peak heap growth %.1f MiB", float64(b.peak)/(1<<20))
	assert.LessOrEqual(t, b.elapsed, maxTime, "time taken")
}

// sampleHeap samples the live heap every millisecond until the function it
// returns is called, which returns the peak above the heap at the start.
func sampleHeap() func() uint64 {
	runtime.GC()
	start := heapBytes()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, heapBytes())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		peak = max(peak, heapBytes())
		return max(peak, start) - start
	}
}

// heapBytes is the bytes of the heap's objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
