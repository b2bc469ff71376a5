package facade

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// TestExportDashboardMergesEveryPage: the merged workbook opens with
// excelize and holds one sheet per page, named after it, with the cells of
// the page's own export, each of the page's sheets as a section.
func TestExportDashboardMergesEveryPage(t *testing.T) {
	srv, c := newFake(t, fake.WithRunDuration(0), fake.WithResultSize(3, 2, 7))
	run, err := c.Experiments.RunSync(ctxBG, 10101)
	require.NoError(t, err)
	var progress []PageProgress
	var out bytes.Buffer
	err = c.Results.ExportDashboard(ctxBG, run.ExperimentResultId, &out, &ExportDashboardOptions{Progress: func(p PageProgress) { progress = append(progress, p) }})
	require.NoError(t, err)
	assert.Equal(t, 3, srv.Calls("exportDashboardPage"), "one export per page")

	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	pages, err := c.Results.DashboardPages(ctxBG, run.ExperimentResultId)
	require.NoError(t, err)
	var names []string
	for _, p := range pages {
		names = append(names, p.Name)
	}
	require.Equal(t, names, merged.GetSheetList())

	for _, p := range pages {
		got, err := merged.GetRows(p.Name, excelize.Options{RawCellValue: true})
		require.NoError(t, err)
		assert.Equal(t, pageSections(t, c, run.ExperimentResultId, p.Id), got, "page %s", p.Name)
	}
	cell, err := merged.GetCellType(pages[0].Name, "C3")
	require.NoError(t, err)
	assert.True(t, isNumberCell(cell), "numbers stay numbers, got cell type %v", cell)

	require.NotEmpty(t, progress)
	var done []int
	for _, p := range progress {
		assert.Equal(t, 3, p.Total)
		if p.Done {
			done = append(done, p.Index)
			assert.Equal(t, p.Size, p.Bytes, "a written page reports all its bytes")
		}
	}
	assert.Equal(t, []int{1, 2, 3}, done)
}

// pageSections is what the merged sheet of a page must hold: for each sheet
// of the page's own export, a row naming it, its rows, an empty row.
func pageSections(t *testing.T, c *Client, resultID, pageID int64) [][]string {
	t.Helper()
	d, err := c.Results.ExportPage(ctxBG, resultID, pageID)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = d.WriteTo(&buf)
	require.NoError(t, err)
	page, err := excelize.OpenReader(&buf)
	require.NoError(t, err)
	defer page.Close()
	var want [][]string
	for _, sheet := range page.GetSheetList() {
		rows, err := page.GetRows(sheet, excelize.Options{RawCellValue: true})
		require.NoError(t, err)
		want = append(want, []string{sheet})
		want = append(want, rows...)
		want = append(want, nil)
	}
	return want[:len(want)-1] // GetRows drops the trailing empty row
}

// A page workbook of one sheet is copied cell for cell; the sheet names
// Excel accepts are made from page names that it does not.
func TestExportDashboardSingleSheetPagesAndNames(t *testing.T) {
	page := func(v string) []byte {
		f := excelize.NewFile()
		defer f.Close()
		require.NoError(t, f.SetSheetRow("Sheet1", "B2", &[]any{v, 42.5, "00123"}))
		var buf bytes.Buffer
		_, err := f.WriteTo(&buf)
		require.NoError(t, err)
		return buf.Bytes()
	}
	long := strings.Repeat("Costs by region and month ", 3)
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprintf(w, `[{"id":1,"name":%q},{"id":2,"name":%q},{"id":3,"name":"a/b:c"},{"id":4,"name":""}]`, long, long)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(page("page " + r.URL.Query().Get("pageId")))
	})
	var out bytes.Buffer
	require.NoError(t, c.Results.ExportDashboard(ctxBG, 5, &out, nil))
	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	sheets := merged.GetSheetList()
	assert.Equal(t, []string{long[:31], long[:27] + " (2)", "a_b_c", "Page 4"}, sheets)
	rows, err := merged.GetRows(sheets[1])
	require.NoError(t, err)
	assert.Equal(t, [][]string{nil, {"", "page 2", "42.5", "00123"}}, rows, "cell for cell, at the same positions")
	typ, err := merged.GetCellType(sheets[1], "D2")
	require.NoError(t, err)
	assert.False(t, isNumberCell(typ), `"00123" stays text`)
	typ, err = merged.GetCellType(sheets[1], "C2")
	require.NoError(t, err)
	assert.True(t, isNumberCell(typ), "42.5 stays a number")
}

// isNumberCell: a number cell has no type attribute or t="n".
func isNumberCell(t excelize.CellType) bool {
	return t == excelize.CellTypeUnset || t == excelize.CellTypeNumber
}

// A page that cannot be exported ends the export with an error naming the
// page; nothing is written to w.
func TestExportDashboardFailsOnAPage(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, `[{"id":1,"name":"Overview"}]`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"message":"Cannot invoke \"getCharts()\" because \"dashboardPage\" is null"}`)
	}, WithClock(faketest.NewInstantClock()))
	var out bytes.Buffer
	err := c.Results.ExportDashboard(ctxBG, 5, &out, nil)
	assert.ErrorContains(t, err, `page 1 (Overview): facade: exportDashboardPage: Cannot invoke "getCharts()"`)
	assert.Zero(t, out.Len())

	err = c.Results.ExportDashboard(ctxBG, -1, io.Discard, nil)
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "experimentResultId", verr.Field)
}
