package resultdata_test

import (
	"bytes"
	"flag"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

var (
	benchPages = flag.Int("bench-pages", 1000, "pages of BenchmarkReadPages")
	benchRows  = flag.Int("bench-rows", 5000, "data rows per page of BenchmarkReadPages")
)

// BenchmarkReadPages reads -bench-pages page workbooks of -bench-rows data
// rows each (two charts in the recorded layout: statistics with times, and
// a table of iterations and periods), and, in the same run, reads them cell
// by cell with excelize's row iterator, the baseline. It reports both
// rates, their ratio (at least 0.8 is the target) and the peak heap while
// this package read them (under 64 MiB for 1,000 pages of 5,000 rows).
func BenchmarkReadPages(b *testing.B) {
	page := pageWorkbook(b, *benchRows)
	b.ResetTimer()
	for b.Loop() {
		ours, peak := measure(b, func() int64 { return readPages(b, page, *benchPages) })
		base, _ := measure(b, func() int64 { return excelizePages(b, page, *benchPages) })
		b.ReportMetric(ours, "rows/s")
		b.ReportMetric(base, "excelize-rows/s")
		b.ReportMetric(ours/base, "ratio")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	}
}

// BenchmarkWritePages reads -bench-pages page workbooks as
// BenchmarkReadPages does and writes their rows in the long layout, as
// Parquet and as CSV, to io.Discard. It reports the records (values)
// written per second and the peak heap meanwhile, which holds the reader's
// row and the Parquet writer's row group (resultdata/parquetfile's
// RowGroupRows records), whatever the number of pages.
func BenchmarkWritePages(b *testing.B) {
	page := pageWorkbook(b, *benchRows)
	writers := map[string]func(io.Writer) resultdata.RowWriter{"parquet": parquetfile.NewLong, "csv": resultdata.NewCSV}
	for _, format := range []string{"parquet", "csv"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				rate, peak := measure(b, func() int64 { return writePages(b, page, *benchPages, writers[format](io.Discard)) })
				b.ReportMetric(rate, "values/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			}
		})
	}
}

// writePages writes the rows of pages copies of page and returns the
// values written.
func writePages(b *testing.B, page []byte, pages int, w resultdata.RowWriter) int64 {
	var values int64
	for i := range pages {
		p := resultdata.Page{ResultID: 5001, ID: ids.PageID(i + 1), Name: "Page"}
		for row, err := range resultdata.ReadPage(b.Context(), bytes.NewReader(page), int64(len(page)), p, nil) {
			if err == nil {
				err = w.Write(row)
			}
			if err != nil {
				b.Fatal(err)
			}
			values += int64(len(row.Values))
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return values
}

// measure runs f, which returns the rows (or values) it handled, and
// returns its rate per second and the peak of the heap's live and unswept objects
// meanwhile, sampled every millisecond.
func measure(b *testing.B, f func() int64) (float64, uint64) {
	runtime.GC()
	stop, peak := sampleHeap()
	start := time.Now()
	rows := f()
	elapsed := time.Since(start)
	stop()
	return float64(rows) / elapsed.Seconds(), *peak
}

func sampleHeap() (stop func(), peak *uint64) {
	var (
		max  uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > max {
			max = v
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
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
	}()
	return func() { close(done); wg.Wait() }, &max
}

func readPages(b *testing.B, page []byte, pages int) int64 {
	var rows int64
	for i := range pages {
		p := resultdata.Page{ResultID: 5001, ID: ids.PageID(i + 1), Name: "Page"}
		for _, err := range resultdata.ReadPage(b.Context(), bytes.NewReader(page), int64(len(page)), p, &resultdata.Options{Notes: func(n resultdata.Note) { b.Fatal(n) }}) {
			if err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	return rows
}

// excelizePages reads every cell of every sheet with excelize's row
// iterator, and counts the rows below each sheet's header (row 5).
func excelizePages(b *testing.B, page []byte, pages int) int64 {
	var rows int64
	for range pages {
		f, err := excelize.OpenReader(bytes.NewReader(page))
		if err != nil {
			b.Fatal(err)
		}
		for _, sheet := range f.GetSheetList() {
			it, err := f.Rows(sheet)
			if err != nil {
				b.Fatal(err)
			}
			for n := 1; it.Next(); n++ {
				cols, err := it.Columns(excelize.Options{RawCellValue: true})
				if err != nil {
					b.Fatal(err)
				}
				if n > 5 && len(cols) > 0 {
					rows++
				}
			}
			it.Close()
		}
		f.Close()
	}
	return rows
}

// pageWorkbook makes a page workbook of rows data rows in the recorded
// layout, as the fake writes them: a statistics chart (Statistics name |
// Time | Value, with dates) and a table (Iteration | Period | From | To |
// Cost | Service level), half the rows each.
func pageWorkbook(tb testing.TB, rows int) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	week1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	stats := chartSheet{name: "Statistics", meta: []string{"Line chart", "Total cost", "Cost over time"}, header: []any{"Statistics name", "Time", "Value"}}
	table := chartSheet{name: "Iterations", meta: []string{"Table", "Costs", "Cost by period"}, header: []any{"Iteration", "Period", "From", "To", "Cost", "Service level"}}
	stats.rows = func(i int) []any {
		return []any{"Total cost", week1.AddDate(0, 0, 7*(i%520)), float64(i) * 1.25}
	}
	table.rows = func(i int) []any {
		from := week1.AddDate(0, 0, i%365)
		return []any{i/100 + 1, "Period " + itoa(i%12+1), from, from.AddDate(0, 0, 1), 1000 + float64(i)*0.5, 0.9 + float64(i%10)/100}
	}
	stats.count, table.count = rows/2, rows-rows/2
	writeChartSheets(tb, f, stats, table)
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
