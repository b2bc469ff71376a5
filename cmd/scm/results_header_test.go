package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// The columns of scm results table carry the names the chart's sheet in
// its dashboard page's workbook has, in every format, in the header's
// order; one page is exported for them.
func TestResultsTableNamesColumnsByTheChartsHeader(t *testing.T) {
	for _, tc := range []struct{ format, golden string }{
		{"table", "results_table_header.txt"},
		{"csv", "results_table_header.csv"},
		{"jsonl", "results_table_header.jsonl"},
		{"json", "results_table_header.json"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			srv, flags := finishedRun(t)
			r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005", "--format", tc.format, "--max", "3"}, flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Empty(t, r.stderr, "no note when the header names every column")
			golden(t, tc.golden, r.stdout)
			assert.Equal(t, 1, srv.Calls("exportDashboardPage"), "one page exported for the header")
		})
	}
}

// --numbered-columns numbers the columns as before and exports nothing.
func TestResultsTableNumberedColumnsExportsNothing(t *testing.T) {
	srv, flags := finishedRun(t)
	r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005", "--format", "csv", "--max", "1", "--numbered-columns"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "column1,column2,column3,column4", strings.SplitN(r.stdout, "\r\n", 2)[0])
	assert.Empty(t, r.stderr)
	assert.Zero(t, srv.Calls("exportDashboardPage"), "no export")
}

// headerProxy stands between scm and the fake: it answers the operations
// whose path ends in a key of answers itself, and passes the rest on.
func headerProxy(t *testing.T, fakeURL string, answers map[string]http.HandlerFunc) []string {
	t.Helper()
	target, err := url.Parse(fakeURL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for suffix, answer := range answers {
			if strings.HasSuffix(r.URL.Path, suffix) {
				answer(w, r)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + target.Path, "--api-key", testKey}
}

// pageWorkbook is a page workbook of one chart's sheet, laid out as the
// real product's, whose header (row 5) is header.
func pageWorkbook(t *testing.T, chartName string, header ...any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for cell, v := range map[string]any{"A1": "Type:", "B1": "TABLE", "A2": "Statistics:", "A3": "Chart name:", "B3": chartName, "A6": "x"} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	require.NoError(t, f.SetSheetRow("Sheet1", "A5", &header))
	var b bytes.Buffer
	_, err := f.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

func serveBytes(data []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		_, _ = w.Write(data)
	}
}

func serveJSON(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// When the header cannot be read, or names fewer columns than the rows
// have, the columns it does not name are numbered and one line on
// standard error says why; the rows are written all the same.
func TestResultsTableNumbersWhatTheHeaderDoesNotName(t *testing.T) {
	for name, tc := range map[string]struct {
		answers    func(t *testing.T) map[string]http.HandlerFunc
		wantHeader string
		wantNote   string
	}{
		"export refused": {
			answers: func(*testing.T) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{"/export-page": serveJSON(500, `{"message":"Cannot invoke \"com.alx.Dashboard.getCharts()\" because \"dashboardPage\" is null","details":{}}`)}
			},
			wantHeader: "column1,column2,column3,column4",
			wantNote:   `scm results table: note: the columns are numbered (column1 to column4), not named: dashboard page 5004 (Overview) of result 5002 gave no header for the chart: exportDashboardPage: Cannot invoke`,
		},
		"a chart's sheet without its header row": {
			answers: func(t *testing.T) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{"/export-page": serveBytes(pageWorkbook(t, "Overview table 1"))}
			},
			wantHeader: "column1,column2,column3,column4",
			wantNote: "scm results table: note: the columns are numbered (column1 to column4), not named: dashboard page 5004 (Overview) of result 5002 gave no header for the chart: " +
				`malformed page workbook: sheet "Sheet1", the chart's, has no header: row 5 names no column` + "\n",
		},
		"a header shorter than the rows, a name empty and one repeated": {
			answers: func(t *testing.T) map[string]http.HandlerFunc {
				return map[string]http.HandlerFunc{"/export-page": serveBytes(pageWorkbook(t, "Overview table 1", "Id", "", "Id"))}
			},
			wantHeader: "Id,column2,Id (2),column4",
			wantNote:   "scm results table: note: the chart's header names 2 of its 4 columns: column2, column4 numbered\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv, _ := finishedRun(t)
			flags := headerProxy(t, srv.URL, tc.answers(t))
			r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005", "--format", "csv", "--max", "2"}, flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\r\n"), "\r\n") // CSV ends records with CRLF
			assert.Equal(t, tc.wantHeader, lines[0])
			assert.Len(t, lines, 3, "the header and the rows")
			if tc.wantNote == "" {
				assert.Empty(t, r.stderr)
				return
			}
			assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
			assert.True(t, strings.HasPrefix(r.stderr, tc.wantNote), "%q\ndoes not begin with\n%q", r.stderr, tc.wantNote)
		})
	}
}

// scm results table takes a result and a chart id as scm results pages
// --charts lists them, and reads the table data the server offers for
// them: that of the chart of the same page, name and place on the
// statistics pages of the result's run configuration (rcId 10303, chart
// 101 in the fake's numbering).
func TestResultsTableReadsTheChartOfTheResult(t *testing.T) {
	_, flags := finishedRun(t)
	r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5006", "--format", "jsonl", "--numbered-columns"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	call := scm(t, "", append([]string{"call", "getExperimentRunResultChartTableData", "--rcId", "10303", "--chartId", "102"}, flags...)...)
	require.Equal(t, exitOK, call.code, call.stderr)
	var data struct {
		EntityList []struct {
			Cells []struct{ Value any } `json:"cells"`
		} `json:"entityList"`
	}
	require.NoError(t, json.Unmarshal([]byte(call.stdout), &data))
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, len(data.EntityList), "a line per row of chart 102's table data")
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	for i, c := range data.EntityList[0].Cells {
		assert.Equal(t, c.Value, first["column"+strconv.Itoa(i+1)], "cell %d of the first row", i+1)
	}
}

// What scm results table cannot read is said before any row: a chart no
// dashboard page of the result lists (a statistics chart id, the former
// form), a result that is not its configuration's latest (the table data
// is the latest's), a result whose run no scenario lists.
func TestResultsTableRefusals(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, flags := newServer(t, fake.WithClock(clock))
	c, err := facade.New(flags[1], facade.WithAPIKey(testKey))
	require.NoError(t, err)
	_, err = c.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	clock.Advance(time.Hour)
	r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "101"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Equal(t, "scm results table: chart 101 is on no dashboard page of result 5002: scm results pages 5002 --charts lists its charts\n", r.stderr)

	unlisted := headerProxy(t, srv.URL, map[string]http.HandlerFunc{"/experiments/results": serveJSON(200, `[]`)})
	r = scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005"}, unlisted...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm results table: result 5002: no scenario lists the run whose result it is (a VARIATION run is never listed): scm results export 5002 reads its rows")

	_, err = c.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	clock.Advance(time.Hour)
	latest, err := c.Experiments.LatestRun(ctx, 10303)
	require.NoError(t, err)
	require.NotEqual(t, 5002, int(latest.RcId), "a second result")
	r = scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, fmt.Sprintf("result 5002 is not the latest of rcId 10303 (%d is)", latest.RcId))
	assert.Empty(t, r.stdout)
	assert.Zero(t, srv.Calls("getExperimentRunResultChartTableData"), "no row read")
}
