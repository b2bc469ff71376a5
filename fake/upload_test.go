package fake_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// bigWorkbook writes a genuine workbook (the sheets of small, made by
// excelize) with a part of padding bytes stored uncompressed among its
// parts: a large upload whose tables are small. A reader of workbooks skips
// the padding part, but the server must receive, spool and open all of it.
func bigWorkbook(w io.Writer, small []byte, padding int64) error {
	src, err := zip.NewReader(bytes.NewReader(small), int64(len(small)))
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	for i, f := range src.File {
		if i == 1 {
			if err := writePadding(zw, padding); err != nil {
				return err
			}
		}
		if err := zw.Copy(f); err != nil {
			return err
		}
	}
	return zw.Close()
}

func writePadding(zw *zip.Writer, n int64) error {
	pw, err := zw.CreateHeader(&zip.FileHeader{Name: "xl/media/padding.bin", Method: zip.Store})
	if err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte("padding "), 8<<10)
	for n > 0 {
		k, err := pw.Write(chunk[:min(n, int64(len(chunk)))])
		if err != nil {
			return err
		}
		n -= int64(k)
	}
	return nil
}

// uploadBody streams a multipart importExcel body through a pipe: the fields,
// then a workbook with padding bytes of padding. It never holds the body.
func uploadBody(small []byte, padding int64) (contentType string, body io.ReadCloser) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		pw.CloseWithError(writeUpload(mw, small, padding))
	}()
	return mw.FormDataContentType(), pr
}

func writeUpload(mw *multipart.Writer, small []byte, padding int64) error {
	for _, f := range [][2]string{{"newScenarioName", "Big"}, {"projectId", "1"}, {"needToImportExperiments", "true"}} {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	fw, err := mw.CreateFormFile("file", "big.xlsx")
	if err != nil {
		return err
	}
	if err := bigWorkbook(fw, small, padding); err != nil {
		return err
	}
	return mw.Close()
}

// heapPeak samples the heap in use until stopped and returns the highest
// value seen above the value at the start.
type heapPeak struct {
	base, peak uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

func watchHeap() *heapPeak {
	runtime.GC()
	h := &heapPeak{base: heapInuse(), stop: make(chan struct{})}
	h.peak = h.base
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.peak = max(h.peak, heapInuse())
			}
		}
	}()
	return h
}

// growth stops sampling and returns the peak growth in bytes.
func (h *heapPeak) growth() float64 {
	close(h.stop)
	h.done.Wait()
	h.peak = max(h.peak, heapInuse())
	return float64(h.peak) - float64(h.base)
}

func heapInuse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// uploadLarge sends an importExcel body of about padding bytes through the
// real HTTP server and returns the job it started.
func uploadLarge(tb testing.TB, e *env, small []byte, padding int64) *gen.ImportExcelResponse {
	tb.Helper()
	ct, body := uploadBody(small, padding)
	defer body.Close()
	r, err := e.c.ImportExcelWithBodyWithResponse(e.ctx, ct, body)
	require.NoError(tb, err)
	require.Equal(tb, http.StatusOK, r.StatusCode(), string(r.Body))
	return r
}

// uploadGrowth uploads a workbook padded to padding bytes and returns the
// peak heap growth and the bytes allocated meanwhile.
func uploadGrowth(b *testing.B, e *env, small []byte, padding int64) (growth, allocated float64) {
	alloc := totalAlloc()
	h := watchHeap()
	uploadLarge(b, e, small, padding)
	growth = h.growth()
	return growth, float64(totalAlloc() - alloc)
}

// BenchmarkLargeUpload streams a 256 MiB workbook to importExcel through the
// real HTTP server (client and server in this process) and reports the peak
// heap growth and the bytes allocated, against a 1 MiB upload in the same
// run: growth near the baseline means the upload is not held in memory.
func BenchmarkLargeUpload(b *testing.B) {
	e := setup(b)
	small := workbook(b, map[string]int{"Sites": 3, "Customers": 5})
	const large, baseline = 256 << 20, 1 << 20
	var g, a, bg, ba float64
	for b.Loop() {
		bg, ba = uploadGrowth(b, e, small, baseline)
		g, a = uploadGrowth(b, e, small, large)
	}
	b.SetBytes(large)
	b.ReportMetric(g/(1<<20), "heap-growth-MiB")
	b.ReportMetric(bg/(1<<20), "baseline-heap-growth-MiB")
	b.ReportMetric(a/(1<<20), "allocated-MiB")
	b.ReportMetric(ba/(1<<20), "baseline-allocated-MiB")
	b.ReportMetric(g/large, "heap-growth/body")
}

// TestLargeUploadIsNotHeldInMemory streams a 64 MiB workbook to importExcel
// through the real HTTP server and checks that the heap grows by far less
// than the body (BenchmarkLargeUpload reports the figures for 256 MiB).
func TestLargeUploadIsNotHeldInMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 64 MiB")
	}
	e := setup(t)
	small := workbook(t, map[string]int{"Sites": 3, "Customers": 5})
	const body = 64 << 20
	h := watchHeap()
	r := uploadLarge(t, e, small, body)
	growth := h.growth()
	assert.Less(t, growth, float64(body/8), "heap growth %.1f MiB for a %d MiB upload", growth/(1<<20), body>>20)
	e.clock.Advance(fake.DefaultImportDuration)
	st := importStatus(t, e, r.JSON200.JobId)
	require.Equal(t, gen.ImportJobStatusDONE, st.Status)
	require.NotNil(t, st.ScenarioId)
	rows, ok := e.srv.ScenarioTables(*st.ScenarioId)
	require.True(t, ok)
	assert.Equal(t, map[string]int64{"Sites": 3, "Customers": 5}, rows)
}

// spoolDir makes the process's temporary directory an empty one of the
// test's, so the test can see the server's spooled uploads.
func spoolDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

func assertNoSpooledFile(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "spooled uploads left behind")
}

// multipartBody builds a multipart body of parts in order; a part named
// "file" is a file part.
func multipartBody(t *testing.T, parts [][2]string) (string, *bytes.Buffer) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p[0] == "file" {
			w, err = mw.CreateFormFile("file", "plan.xlsx")
		} else {
			w, err = mw.CreateFormField(p[0])
		}
		require.NoError(t, err)
		_, err = io.WriteString(w, p[1])
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), &buf
}

// TestSpooledUploadIsRemoved checks that the temporary copy of an uploaded
// workbook is gone when the request has ended, whatever its outcome.
func TestSpooledUploadIsRemoved(t *testing.T) {
	dir := spoolDir(t)
	e := setup(t)
	book := string(workbook(t, map[string]int{"Sites": 2}))
	for name, tc := range map[string]struct {
		parts  [][2]string
		status int
		fault  *fake.Fault
	}{
		"imported":                   {[][2]string{{"projectId", "1"}, {"newScenarioName", "x"}, {"file", book}}, http.StatusOK, nil},
		"field after the file wrong": {[][2]string{{"file", book}, {"projectId", "one"}, {"newScenarioName", "x"}}, http.StatusBadRequest, nil},
		"required field missing":     {[][2]string{{"file", book}, {"projectId", "1"}}, http.StatusBadRequest, nil},
		"not a workbook":             {[][2]string{{"projectId", "1"}, {"newScenarioName", "x"}, {"file", "a,b\n1,2\n"}}, http.StatusBadRequest, nil},
		"unknown project":            {[][2]string{{"projectId", "99"}, {"newScenarioName", "x"}, {"file", book}}, http.StatusInternalServerError, nil},
		"response lost":              {[][2]string{{"projectId", "1"}, {"newScenarioName", "x"}, {"file", book}}, 0, &fake.Fault{Kind: fake.FaultDropAfterHandler}},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.fault != nil {
				e.srv.InjectFault("importExcel", *tc.fault)
			}
			ct, body := multipartBody(t, tc.parts)
			resp, err := e.c.ImportExcelWithBody(e.ctx, ct, body)
			if tc.status == 0 {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				resp.Body.Close()
				assert.Equal(t, tc.status, resp.StatusCode)
			}
			assertNoSpooledFile(t, dir)
		})
	}
}

// TestSpooledUploadIsRemovedOnCancel cancels an upload while the server is
// spooling it and checks that the partial copy is removed.
func TestSpooledUploadIsRemovedOnCancel(t *testing.T) {
	dir := spoolDir(t)
	e := setup(t)
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := writeUntilCancelled(ctx, mw)
		pw.CloseWithError(err)
	}()
	errc := make(chan error, 1)
	go func() {
		resp, err := e.c.ImportExcelWithBody(ctx, mw.FormDataContentType(), pr)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	require.Eventually(t, func() bool {
		entries, _ := os.ReadDir(dir)
		return len(entries) == 1
	}, 10*time.Second, time.Millisecond, "the server never spooled the upload")
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	e.srv.Close() // waits for the server's handler to end
	assertNoSpooledFile(t, dir)
	assert.Zero(t, e.srv.Applied("importExcel"))
}

// writeUntilCancelled writes the fields and the start of a file part, then
// waits for ctx: an upload the client abandons halfway.
func writeUntilCancelled(ctx context.Context, mw *multipart.Writer) error {
	for _, f := range [][2]string{{"newScenarioName", "x"}, {"projectId", "1"}} {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	fw, err := mw.CreateFormFile("file", "plan.xlsx")
	if err != nil {
		return err
	}
	if _, err := fw.Write(bytes.Repeat([]byte("PK"), 64<<10)); err != nil {
		return err
	}
	<-ctx.Done()
	return ctx.Err()
}
