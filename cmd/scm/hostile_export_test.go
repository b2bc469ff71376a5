package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
)

// scm export against a server that lies or sends too much: each case ends
// the command with an error naming what was wrong (and, for a limit, the
// flag that raises it), leaves the file at -o as it was and no temporary
// file beside it, within bounded memory and time.

// exportServer serves a result of one page, "Data", whose workbook
// exportPage answers; its n-th request for it is the n-th call (from 1).
func exportServer(t *testing.T, exportPage func(w http.ResponseWriter, r *http.Request, n int)) []string {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			fmt.Fprint(w, `[{"id":1,"name":"Data"}]`)
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
			exportPage(w, r, int(n.Add(1)))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + "/api/v1", "--api-key", testKey}
}

// hostileRun runs scm with args writing to the file out, which holds last
// week's report before, and checks that it failed and left that report and
// nothing else in its directory; it returns stderr. The command must end
// within a bound of time and of bytes allocated far below what the hostile
// answer would take unbounded.
func hostileRun(t *testing.T, out string, args ...string) string {
	t.Helper()
	require.NoError(t, os.WriteFile(out, []byte("last week's report"), 0o600))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	r := scm(t, "", args...)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "last week's report", string(b), "the file at -o is as it was")
	entries, err := os.ReadDir(filepath.Dir(out))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<20), "bytes allocated")
	assert.Less(t, elapsed, 20*time.Second, "it takes about a second under the race detector")
	t.Logf("stderr: %s", r.stderr)
	return r.stderr
}

// A workbook of 256 KiB in two versions, and a first answer that breaks
// off after half of v1, resumable (a strong ETag, Accept-Ranges).
var (
	exportV1, exportV2 = randomBytes(1), randomBytes(2)
	exportHalf         = len(exportV1)/2 + 1000
)

func randomBytes(seed uint64) []byte {
	b := make([]byte, 256<<10)
	r := rand.New(rand.NewPCG(seed, 9))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func firstHalf(w http.ResponseWriter, etag string) {
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	w.Header().Set("Accept-Ranges", "bytes")
	w.Header().Set("Content-Length", strconv.Itoa(len(exportV1)))
	_, _ = w.Write(exportV1[:exportHalf])
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

// answer206 answers the range first to the end of a body, with the ETag
// given; chunked sends it without a Content-Length.
func answer206(w http.ResponseWriter, etag string, first int, body []byte, chunked bool) {
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, len(exportV1)-1, len(exportV1)))
	if !chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(http.StatusPartialContent)
	_ = http.NewResponseController(w).Flush()
	_, _ = w.Write(body)
}

// Finding 2 through the CLI: scm export page never writes a workbook that
// a lying resumed download made, whatever the lie; it says what was wrong.
func TestHostileExportPageResume(t *testing.T) {
	for name, tc := range map[string]struct {
		serve  func(w http.ResponseWriter, r *http.Request, n int)
		reason string
	}{
		"another version spliced in": {func(w http.ResponseWriter, _ *http.Request, n int) {
			if n == 1 {
				firstHalf(w, `"v1"`)
			}
			answer206(w, `"v2"`, exportHalf, exportV2[exportHalf:], false)
		}, `the server's 206 is ETag "v2", another version`},
		"no validator": {func(w http.ResponseWriter, _ *http.Request, n int) {
			if n == 1 {
				firstHalf(w, "")
			}
			answer206(w, "", exportHalf, exportV2[exportHalf:], false)
		}, "the server gave no strong validator to resume on"},
		"a range shorter than asked": {func(w http.ResponseWriter, _ *http.Request, n int) {
			if n == 1 {
				firstHalf(w, `"v1"`)
			}
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", exportHalf, exportHalf+99, len(exportV1)))
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusPartialContent)
			_, _ = w.Write(exportV1[exportHalf : exportHalf+100])
		}, fmt.Sprintf("the server sent bytes %d to %d", exportHalf, exportHalf+99)},
		"a wrong first byte": {func(w http.ResponseWriter, _ *http.Request, n int) {
			if n == 1 {
				firstHalf(w, `"v1"`)
			}
			answer206(w, `"v1"`, exportHalf-100, exportV1[exportHalf-100:], false)
		}, fmt.Sprintf("asked for the rest from byte %d, the server sent it from byte %d", exportHalf, exportHalf-100)},
		"a body that ends before its range": {func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				firstHalf(w, `"v1"`)
			}
			var from int
			_, _ = fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &from)
			answer206(w, `"v1"`, from, exportV1[from:from+1000], true)
		}, "attempts the retry policy allows are spent"},
	} {
		t.Run(name, func(t *testing.T) {
			flags := exportServer(t, tc.serve)
			out := filepath.Join(t.TempDir(), "page.xlsx")
			stderr := hostileRun(t, out, append([]string{"export", "page", "--result", "5", "--page", "1", "-o", out}, flags...)...)
			assert.Contains(t, stderr, "exportDashboardPage: writing "+out+": ")
			assert.Contains(t, stderr, tc.reason)
		})
	}
}

// Findings 1 and 9 through the CLI: scm export dashboard refuses a zip
// bomb naming the limit and the flag that raises it, refuses a cell it
// cannot hold and a sheet whose XML breaks off, and stops at --timeout in
// the middle of a page of a million rows.
func TestHostileExportDashboard(t *testing.T) {
	rows := `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c><c><v>2</v></c><c><v>3</v></c><c><v>4</v></c><c><v>5</v></c><c><v>6</v></c></row>`
	rows = strings.Repeat(" ", 256-len(rows)) + rows
	for name, tc := range map[string]struct {
		book  func(t *testing.T) dashboardtest.Book
		flags []string
		want  []string
	}{
		"a page of 1 MiB inflating to 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t,
					"xl/worksheets/sheet1.xml", `<worksheet `+dashboardtest.MainNS+`><sheetData>`, " ", 1<<30, "</sheetData></worksheet>")}}
			},
			want: []string{"scm export dashboard: page 1 (Data): ", "exceeds the limit of 268435456 bytes: --max-inflated-mib raises it if the server is trusted to send more"},
		},
		"a cell of 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t,
					"xl/worksheets/sheet1.xml", `<worksheet `+dashboardtest.MainNS+`><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`, "a", 1<<30, "</t></is></c></row></sheetData></worksheet>")}}
			},
			flags: []string{"--max-inflated-mib", "2048"},
			want:  []string{`sheet "Data": the value of cell A1 exceeds 32767, the most a workbook holds`},
		},
		"a sheet whose XML breaks off": {
			book: func(*testing.T) dashboardtest.Book {
				xml := dashboardtest.SheetXML(dashboardtest.NumberRows(50))
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: xml[:strings.Index(xml, `<row r="25"`)]}}}
			},
			want: []string{`sheet "Data": malformed page workbook at byte`, "the XML breaks off after row 24"},
		},
		"a page of a million rows past --timeout": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t,
					"xl/worksheets/sheet1.xml", `<worksheet `+dashboardtest.MainNS+`><sheetData>`, rows, 250<<20, "</sheetData></worksheet>")}}
			},
			flags: []string{"--timeout", "200ms"},
			want:  []string{"--timeout 200ms passed"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			data := tc.book(t).Bytes(t)
			flags := exportServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Content-Length", strconv.Itoa(len(data)))
				_, _ = w.Write(data)
			})
			out := filepath.Join(t.TempDir(), "dashboard.xlsx")
			args := append([]string{"export", "dashboard", "--result", "5", "-o", out}, tc.flags...)
			stderr := hostileRun(t, out, append(args, flags...)...)
			for _, want := range tc.want {
				assert.Contains(t, stderr, want)
			}
		})
	}
}
