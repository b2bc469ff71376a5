package main

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/testkit/heaptest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/dashboard/dashboardtest"
)

// scm results export against a server that sends pages without end: the
// command ends at --timeout, reading and writing included, exits 1, and
// leaves the file at -o as it was.

// resultsServer lists pages pages, each answered with the workbook data.
func resultsServer(t *testing.T, pages int, data []byte) []string {
	t.Helper()
	list := make([]string, pages)
	for i := range list {
		list[i] = fmt.Sprintf(`{"id":%d,"name":"Page %d"}`, i+1, i+1)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			fmt.Fprint(w, "["+strings.Join(list, ",")+"]")
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			_, _ = w.Write(data)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + "/api/v1", "--api-key", testKey}
}

// A result of 1,000 pages, each 200 KiB inflating to 200 MiB of 51,200
// rows (every page within the reader's limits, the whole far past what
// 5 s read): --timeout 5s ends the command, exit 1, within the timeout and
// a margin a machine ten times slower meets, with the file at -o as it
// was and no temporary file beside it, within bounded memory.
func TestHostileResultsExportTimeout(t *testing.T) {
	row := `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>`
	row = strings.Repeat(" ", 4096-len(row)) + row
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t,
		"xl/worksheets/sheet1.xml", `<worksheet `+dashboardtest.MainNS+`><sheetData>`, row, 200<<20, "</sheetData></worksheet>")}}.Bytes(t)
	flags := resultsServer(t, 1000, page)
	dir := t.TempDir()
	out := filepath.Join(dir, "result.csv")
	require.NoError(t, os.WriteFile(out, []byte("last week's result"), 0o600))

	var r result
	peak, took := heaptest.Peak(func() {
		r = scm(t, "", append([]string{"results", "export", "5", "--format", "csv", "-o", out, "--timeout", "5s", "--quiet"}, flags...)...)
	})
	t.Logf("%v, peak heap growth %.1f MiB; stderr: %s", took.Round(time.Millisecond), float64(peak)/(1<<20), r.stderr)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--timeout 5s passed")
	assert.Less(t, took, 5*time.Second+15*time.Second, "the timeout, and a margin a machine ten times slower meets")
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "last week's result", string(b), "the file at -o is as it was")
	assert.Equal(t, []string{"result.csv"}, dirNames(t, dir), "no partial file left")
	assert.Less(t, peak, uint64(96<<20), "peak heap growth")
}

// A result that lists no pages is an error, exit 1, and no file is
// written (it was a header-only CSV, or a workbook of one empty sheet,
// exit 0), by scm results export and scm export dashboard.
func TestResultsExportWithoutPages(t *testing.T) {
	flags := resultsServer(t, 0, nil)
	dir := t.TempDir()
	out := filepath.Join(dir, "result.csv")
	r := scm(t, "", append([]string{"results", "export", "5", "--format", "csv", "-o", out}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "the result lists no dashboard pages")
	assert.Empty(t, dirNames(t, dir), "no file written")

	r = scm(t, "", append([]string{"export", "dashboard", "5", "-o", filepath.Join(dir, "dashboard.xlsx")}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "the result lists no dashboard pages")
	assert.Empty(t, dirNames(t, dir), "no workbook written (it was one empty sheet, exit 0)")
}

// CSV neutralises text a spreadsheet would run as a formula, by default;
// --keep-formulas writes it as sent. Numbers are written as they are.
func TestResultsExportFormulas(t *testing.T) {
	cell := func(ref, text string) string {
		return `<c r="` + ref + `" t="inlineStr"><is><t>` + text + `</t></is></c>`
	}
	sheet := dashboardtest.SheetXML(`<row r="1">` + cell("A1", "Type:") + cell("B1", "Table") + `</row>` +
		`<row r="5">` + cell("A5", "=Site") + cell("B5", "Value") + `</row>` +
		`<row r="6">` + cell("A6", `=HYPERLINK("http://example.com","x")`) + `<c r="B6"><v>-3</v></c></row>`)
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "+Sheet", XML: sheet}}}.Bytes(t)
	flags := resultsServer(t, 1, page)
	for name, tc := range map[string]struct {
		flags []string
		want  [][]string // the page, sheet, column and text of the first record, and the number of the second
	}{
		"neutralised": {nil, [][]string{{"Page 1", "'+Sheet", "'=Site", `'=HYPERLINK("http://example.com","x")`}, {"-3"}}},
		"kept":        {[]string{"--keep-formulas"}, [][]string{{"Page 1", "+Sheet", "=Site", `=HYPERLINK("http://example.com","x")`}, {"-3"}}},
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "result.csv")
			r := scm(t, "", append(append([]string{"results", "export", "5", "--format", "csv", "-o", out, "--quiet"}, tc.flags...), flags...)...)
			require.Equal(t, 0, r.code, r.stderr)
			f, err := os.Open(out)
			require.NoError(t, err)
			defer f.Close()
			records, err := csv.NewReader(f).ReadAll()
			require.NoError(t, err)
			require.Len(t, records, 3)
			assert.Equal(t, tc.want[0], []string{records[1][2], records[1][3], records[1][9], records[1][13]})
			assert.Equal(t, tc.want[1][0], records[2][11])
		})
	}
}

// scm batch --data with --keep-formulas writes the CSV dataset's text as
// sent; without it, neutralised; the flag changes no other format.
func TestBatchDataKeepFormulas(t *testing.T) {
	for _, tc := range []struct {
		path string
		keep bool
		want *batch.DataFormat
	}{
		{"out.csv", false, batch.CSV}, {"out.csv", true, batch.CSVKeepFormulas}, {"out.jsonl", true, batch.JSONL},
	} {
		d, err := batchDataset(tc.path, "", tc.keep)
		require.NoError(t, err)
		assert.Same(t, tc.want, d.Format, "%s, --keep-formulas %v", tc.path, tc.keep)
	}
}
