package fake_test

import (
	"archive/zip"
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
)

// inflatedSize is the size of a zip's parts once inflated.
func inflatedSize(tb testing.TB, file []byte) int64 {
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		tb.Fatal(err)
	}
	var n int64
	for _, f := range zr.File {
		n += int64(f.UncompressedSize64)
	}
	return n
}

// importCost uploads file to importExcel in process and returns the peak
// growth of the heap in use, the time taken and the status.
func importCost(b *testing.B, h http.Handler, file []byte) (growth float64, took time.Duration, status int) {
	peak := watchHeap()
	start := time.Now()
	rec := importWorkbook(b, h, file)
	took = time.Since(start)
	return peak.growth(), took, rec.Code
}

// BenchmarkWorkbookBomb imports zip bombs and a genuine workbook with the
// default limits, in the same loop, and reports for each the peak growth of
// the heap in use (absolute and per MiB it inflates to) and the time: a
// 512 MiB attribute, a 100 MiB text node and 2,000,000 empty rows, against a
// 100,000-row workbook made by excelize.
func BenchmarkWorkbookBomb(b *testing.B) {
	books := []struct {
		name string
		file []byte
		want int
	}{
		{"attr512MiB", bombWorkbook(b, hugeAttribute(512<<20)), http.StatusBadRequest},
		{"text100MiB", bombWorkbook(b, hugeText(100<<20)), http.StatusBadRequest},
		{"rows2M", bombWorkbook(b, emptyRows(2_000_000)), http.StatusBadRequest},
		{"normal100kRows", workbook(b, map[string]int{"Orders": 100_000}), http.StatusOK},
	}
	h := fake.NewHandler()
	growth, took := make([]float64, len(books)), make([]time.Duration, len(books))
	for b.Loop() {
		for i, book := range books {
			g, d, status := importCost(b, h, book.file)
			if status != book.want {
				b.Fatalf("%s: status %d", book.name, status)
			}
			growth[i], took[i] = max(growth[i], g), took[i]+d
		}
	}
	for i, book := range books {
		inflated := float64(inflatedSize(b, book.file)) / (1 << 20)
		b.ReportMetric(growth[i]/(1<<20), book.name+"-heap-MiB")
		b.ReportMetric(growth[i]/(1<<20)/inflated, book.name+"-heap-MiB/inflated-MiB")
		b.ReportMetric(inflated, book.name+"-inflated-MiB")
		b.ReportMetric(float64(took[i].Milliseconds())/float64(b.N), book.name+"-ms")
	}
}
