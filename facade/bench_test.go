package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// pagedTableServer serves pages×rows table rows of one INTEGER cell from
// pre-encoded pages, so the server costs the same for every client.
func pagedTableServer(b *testing.B, pages, rows int, latency time.Duration) (string, *Client) {
	encoded := make([][]byte, pages+1)
	for p := range encoded {
		page := gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Id: 1, TotalEntityCount: int64(pages * rows), Type: "TABLE"}
		if p < pages {
			for i := range rows {
				raw := json.RawMessage(strconv.Itoa(p*rows + i))
				page.EntityList = append(page.EntityList, gen.Row{Index: int64(p*rows + i), Cells: []gen.Cell{{Type: ptr("INTEGER"), Value: &raw}}})
			}
		}
		encoded[p], _ = json.Marshal(page)
	}
	srv, c := newStub(b, func(w http.ResponseWriter, r *http.Request) {
		if latency > 0 {
			time.Sleep(latency)
		}
		skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(encoded[min(skip/rows, pages)])
	})
	return srv.URL + "/api/v1", c
}

func facadePaging(ctx context.Context, c *Client, opts *PageOptions) (int, error) {
	n := 0
	for _, err := range c.Results.ChartTableRows(ctx, 10101, 101, opts) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// The comparison of the facade's paging with other clients is
// BenchmarkPaging of the benchmark module in bench/ (BENCHMARKS.md).

type measured struct {
	d      time.Duration
	allocs uint64
}

func measure(f func() (int, error)) (measured, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := f()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return measured{d, after.Mallocs - before.Mallocs}, err
}

// BenchmarkPrefetch: 20 pages with 5 ms of latency each and a consumer that
// does no work, Prefetch 4 against no prefetch.
func BenchmarkPrefetch(b *testing.B) {
	const pages, rows = 20, 100
	_, c := pagedTableServer(b, pages, rows, 5*time.Millisecond)
	var plain, ahead time.Duration
	b.ResetTimer()
	for range b.N {
		p, err := measure(func() (int, error) { return facadePaging(testCtx(b), c, &PageOptions{PageSize: rows}) })
		if err != nil {
			b.Fatal(err)
		}
		a, err := measure(func() (int, error) { return facadePaging(testCtx(b), c, &PageOptions{PageSize: rows, Prefetch: 4}) })
		if err != nil {
			b.Fatal(err)
		}
		plain, ahead = plain+p.d, ahead+a.d
	}
	b.ReportMetric(float64(plain.Milliseconds())/float64(b.N), "plain-ms")
	b.ReportMetric(float64(ahead.Milliseconds())/float64(b.N), "prefetch-ms")
	b.ReportMetric(float64(ahead)/float64(plain), "time-ratio")
}

// streamBytes is the size of the streaming benchmarks: SCM_BENCH_STREAM_BYTES
// or 64 MiB. Set it to 1073741824 for the 1 GiB figures.
func streamBytes() int64 {
	if v, err := strconv.ParseInt(os.Getenv("SCM_BENCH_STREAM_BYTES"), 10, 64); err == nil && v > 0 {
		return v
	}
	return 64 << 20
}

// patternReader yields n bytes without allocating.
type patternReader struct{ left int64 }

func (r *patternReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	for i := range p[:n] {
		p[i] = byte(i)
	}
	r.left -= n
	return int(n), nil
}

// heapPeak samples the heap while f runs and returns the growth over the
// heap before it.
func heapPeak(f func() error) (uint64, time.Duration, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&s)
				if s.HeapAlloc > peak.Load() {
					peak.Store(s.HeapAlloc)
				}
			}
		}
	}()
	start := time.Now()
	err := f()
	d := time.Since(start)
	close(stop)
	wg.Wait()
	growth := uint64(0)
	if p := peak.Load(); p > base {
		growth = p - base
	}
	return growth, d, err
}

func streamServer(b *testing.B, size int64) (string, *Client) {
	srv, c := newStub(b, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			mr, err := r.MultipartReader()
			if err != nil {
				_, _ = io.Copy(io.Discard, r.Body)
			} else {
				for part, err := mr.NextPart(); err == nil; part, err = mr.NextPart() {
					_, _ = io.Copy(io.Discard, part)
				}
			}
			fmt.Fprint(w, `{"scenarioId":1,"name":"big"}`)
		default:
			w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
			_, _ = io.Copy(w, &patternReader{left: size})
		}
	}) // default options: the attempt timeout must not cut a moving transfer
	return srv.URL + "/api/v1", c
}

// compareStreams runs raw and then viaFacade once per iteration, each
// moving size bytes, and reports the facade's peak heap growth and its
// throughput against raw.
func compareStreams(b *testing.B, size int64, raw, viaFacade func() error) {
	var rawD, facD time.Duration
	var growth uint64
	b.ResetTimer()
	for range b.N {
		_, d, err := heapPeak(raw)
		if err != nil {
			b.Fatal(err)
		}
		rawD += d
		g, d, err := heapPeak(viaFacade)
		if err != nil {
			b.Fatal(err)
		}
		facD, growth = facD+d, max(growth, g)
	}
	b.ReportMetric(float64(growth)/(1<<20), "heap-growth-MiB")
	b.ReportMetric(float64(rawD)/float64(facD), "throughput-ratio")
	b.ReportMetric(float64(size)*float64(b.N)/facD.Seconds()/1e6, "facade-MB/s") // per transfer
	b.ReportMetric(float64(size)*float64(b.N)/rawD.Seconds()/1e6, "raw-MB/s")
}

// BenchmarkUpload streams SCM_BENCH_STREAM_BYTES through importScenario,
// against a raw io.Copy POST of the same bytes to the same server.
func BenchmarkUpload(b *testing.B) {
	size := streamBytes()
	base, c := streamServer(b, size)
	hc := &http.Client{Transport: defaultTransport()}
	defer hc.CloseIdleConnections()
	compareStreams(b, size, func() error {
		req, _ := http.NewRequest(http.MethodPost, base+"/open/import/import-scenario", &patternReader{left: size})
		req.Header.Set("Content-Type", "application/octet-stream")
		resp, err := hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return err
	}, func() error {
		_, err := c.Imports.Scenario(testCtx(b), 1, UploadReader("big.bin", &patternReader{left: size}))
		return err
	})
}

// BenchmarkDownload streams SCM_BENCH_STREAM_BYTES from an export
// operation, against a raw GET and io.Copy.
func BenchmarkDownload(b *testing.B) {
	size := streamBytes()
	base, c := streamServer(b, size)
	hc := &http.Client{Transport: defaultTransport()}
	defer hc.CloseIdleConnections()
	compareStreams(b, size, func() error {
		resp, err := hc.Get(base + "/open/lmo/milk-runs-result?rcId=10109")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}, func() error {
		dl, err := c.LastMile.ExportMilkRuns(testCtx(b), 10109)
		if err != nil {
			return err
		}
		n, err := dl.WriteTo(io.Discard)
		if err == nil && n != size {
			err = fmt.Errorf("got %d bytes", n)
		}
		return err
	})
}

// BenchmarkPolling waits with the default policy for runs of 10 s, 60 s,
// 10 min and 2 h on virtual time, iteration i with the jitter of seed i: on
// the fake, which answers without progress as the real server does, and on
// a server that reports progress; and on the fake with Lateness 0.2 and
// 0.02 against the default's 0.05. It reports the medians over the
// iterations: how late the end was seen, in seconds and as a share of the
// run (the policy's target is max(2 s, 5 %)), and the status requests, in
// number and as a share of 100 + length / 30 s (the most a run may cost).
func BenchmarkPolling(b *testing.B) {
	servers := map[string]func(b *testing.B, runFor time.Duration, seed uint64) waited{
		"fake-no-progress": func(b *testing.B, runFor time.Duration, seed uint64) waited {
			return waitOnFake(b, runFor, seed, nil)
		},
		// PollPolicy.Lateness, the one setting, each way: fewer requests
		// for a busy shared server, or faster notice.
		"fake-lateness-0.2": func(b *testing.B, runFor time.Duration, seed uint64) waited {
			return waitOnFake(b, runFor, seed, &WaitOptions{Policy: &PollPolicy{Lateness: 0.2}})
		},
		"fake-lateness-0.02": func(b *testing.B, runFor time.Duration, seed uint64) waited {
			return waitOnFake(b, runFor, seed, &WaitOptions{Policy: &PollPolicy{Lateness: 0.02}})
		},
		"progress-server": func(b *testing.B, runFor time.Duration, _ uint64) waited {
			c, clock, polls := progressServer(b, runFor)
			start := clock.Now()
			if _, err := c.Run(1).Wait(testCtx(b), nil); err != nil {
				b.Fatal(err)
			}
			return waited{late: clock.Now().Sub(start.Add(runFor)), requests: int(polls.Load())}
		},
	}
	for _, name := range []string{"fake-no-progress", "progress-server", "fake-lateness-0.2", "fake-lateness-0.02"} {
		for _, runFor := range runLengths {
			b.Run(fmt.Sprintf("%s/%v", name, runFor), func(b *testing.B) {
				var ws []waited
				for i := range b.N {
					ws = append(ws, servers[name](b, runFor, uint64(i)))
				}
				late := medianOf(ws, func(w waited) time.Duration { return w.late })
				requests := medianOf(ws, func(w waited) int { return w.requests })
				b.ReportMetric(late.Seconds(), "seconds-late")
				b.ReportMetric(float64(late)/float64(runFor), "late/run")
				b.ReportMetric(float64(requests), "status-requests")
				b.ReportMetric(float64(requests)/float64(requestBound(runFor)), "requests/bound")
			})
		}
	}
}
