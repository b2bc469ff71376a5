package batch_test

import (
	"flag"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

var (
	benchDataPages = flag.Int("bench-data-pages", 4, "dashboard pages of each result in the small batch of BenchmarkDataset; the large has 8 times as many")
	benchDataRows  = flag.Int64("bench-data-rows", 2000, "rows of each table chart of BenchmarkDataset")
)

// BenchmarkDataset runs a batch of two items that writes a dataset
// (Parquet, CSV), with results of -bench-data-pages pages, then one with
// 8 times as many pages (8 times the rows per item), on the fake. It
// reports the peak heap of each (the fake, in the same process, included)
// and their ratio; and, against the baseline measured in the same run
// (reading the large batch's results with resultdata.Result and writing
// their records to io.Discard), the large batch's peak heap and records
// written per second. An item's rows are streamed to its part and the
// parts to the dataset, so the batch holds no more than the baseline.
func BenchmarkDataset(b *testing.B) {
	parquet := &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}
	for _, format := range []*batch.DataFormat{parquet, batch.CSV} {
		b.Run(format.Name, func(b *testing.B) {
			for b.Loop() {
				small, _, _ := datasetRun(b, format, *benchDataPages)
				large, rate, records := datasetRun(b, format, 8**benchDataPages)
				base, basePeak := readResults(b, format, 8**benchDataPages)
				b.ReportMetric(float64(small)/(1<<20), "small-peak-MiB")
				b.ReportMetric(float64(large)/(1<<20), "large-peak-MiB")
				b.ReportMetric(float64(large)/float64(small), "peak-ratio")
				b.ReportMetric(rate, "records/s")
				b.ReportMetric(float64(records), "large-records")
				b.ReportMetric(rate/base, "rate-ratio")
				b.ReportMetric(float64(basePeak)/(1<<20), "base-peak-MiB")
				b.ReportMetric(float64(large)/float64(basePeak), "peak-vs-base")
			}
		})
	}
}

// benchEnv is a fake whose results have pages pages, and a client of it.
func benchEnv(b *testing.B, pages int) (*fake.Server, *facade.Client) {
	srv, clock := faketest.NewInstantServer(b, fake.WithRunDuration(0), fake.WithResultSize(pages, 2, *benchDataRows))
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.CloseIdleConnections)
	return srv, c
}

// datasetRun runs the batch and returns its peak heap, records per second
// and records.
func datasetRun(b *testing.B, format *batch.DataFormat, pages int) (uint64, float64, int64) {
	_, c := benchEnv(b, pages)
	dir := b.TempDir()
	p, err := batch.ParsePlan(filepath.Join(dir, "plan.yaml"), []byte(dataPlan))
	if err != nil {
		b.Fatal(err)
	}
	r, err := batch.NewRunner(c, p, &batch.Options{Parallel: 1, Data: &batch.Dataset{Path: filepath.Join(dir, "data"+format.Ext), Format: format}})
	if err != nil {
		b.Fatal(err)
	}
	var sum *batch.Summary
	peak, elapsed := measureHeap(func() { sum, err = r.Run(b.Context()) })
	if err != nil || sum.Data.Err != nil || sum.Data.Items != 2 {
		b.Fatalf("the batch: %v; %+v", err, sum.Data)
	}
	return peak, float64(sum.Data.Records) / elapsed.Seconds(), sum.Data.Records
}

// readResults runs the plan's experiments, then reads their results with
// resultdata.Result and writes their records to io.Discard, the baseline;
// it returns the records per second and the peak heap.
func readResults(b *testing.B, format *batch.DataFormat, pages int) (float64, uint64) {
	_, c := benchEnv(b, pages)
	var results []ids.ExperimentResultID
	for _, rc := range []ids.RcID{10101, 10303} {
		run, err := c.Experiments.RunSync(b.Context(), rc)
		if err != nil {
			b.Fatal(err)
		}
		results = append(results, run.ExperimentResultId)
	}
	var records int64
	peak, elapsed := measureHeap(func() {
		for _, id := range results {
			w := format.NewWriter(io.Discard, []resultdata.Key{resultdata.TextKey("item", "x")})
			for row, err := range resultdata.Result(b.Context(), c, id, nil) {
				if err == nil {
					err = w.Write(row)
				}
				if err != nil {
					b.Fatal(err)
				}
				for _, v := range row.Values {
					if v.Kind != resultdata.Empty {
						records++
					}
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	return float64(records) / elapsed.Seconds(), peak
}

// measureHeap runs f after a collection and returns the peak of the heap's
// live and unswept objects meanwhile, sampled every millisecond, and the
// time f took.
func measureHeap(f func()) (uint64, time.Duration) {
	runtime.GC()
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		peak = max(peak, sample[0].Value.Uint64())
	}
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	})
	start := time.Now()
	f()
	elapsed := time.Since(start)
	close(done)
	wg.Wait()
	return peak, elapsed
}
