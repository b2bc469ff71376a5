package dashboard

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// The merged workbook opens with excelize and holds one sheet per page,
// named after it, with the cells of the page's own export, each of the
// page's sheets as a section; each page is reported downloading, merging
// and written, in that order.
func TestExportMergesEveryPage(t *testing.T) {
	srv, c := newFake(t, fake.WithResultSize(3, 2, 7))
	result := runSync(t, c, 10101)
	var progress []Progress
	var out bytes.Buffer
	err := Export(testCtx(t), c, result, &out, &Options{Progress: func(p Progress) { progress = append(progress, p) }})
	require.NoError(t, err)
	assert.Equal(t, 3, srv.Calls("exportDashboardPage"), "one export per page")

	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	pages, err := c.Dashboards.Pages(testCtx(t), result)
	require.NoError(t, err)
	var names []string
	for _, p := range pages {
		names = append(names, p.Name)
	}
	require.Equal(t, names, merged.GetSheetList())
	for _, p := range pages {
		got, err := merged.GetRows(p.Name, excelize.Options{RawCellValue: true})
		require.NoError(t, err)
		assert.Equal(t, pageSections(t, c, result, p.Id), got, "page %s", p.Name)
	}
	cell, err := merged.GetCellType(pages[0].Name, "C3")
	require.NoError(t, err)
	assert.True(t, isNumberCell(cell), "numbers stay numbers, got cell type %v", cell)
	checkStages(t, progress, 3)
}

// checkStages: each page goes downloading (from 0 bytes), merging with all
// its bytes, written, and the pages go in order.
func checkStages(t *testing.T, progress []Progress, total int) {
	t.Helper()
	var seen []string
	for _, p := range progress {
		assert.Equal(t, total, p.Total)
		step := fmt.Sprintf("%d %s", p.Index, p.Stage)
		if len(seen) == 0 || seen[len(seen)-1] != step {
			seen = append(seen, step)
		}
		if p.Stage != Downloading {
			assert.Equal(t, p.Size, p.Bytes, "page %d %s: all its bytes", p.Index, p.Stage)
		}
	}
	var want []string
	for i := 1; i <= total; i++ {
		want = append(want, fmt.Sprintf("%d downloading", i), fmt.Sprintf("%d merging", i), fmt.Sprintf("%d written", i))
	}
	assert.Equal(t, want, seen)
}

// pageSections is what the merged sheet of a page must hold: for each sheet
// of the page's own export, a row naming it, its rows, an empty row.
func pageSections(t *testing.T, c *facade.Client, resultID ids.ExperimentResultID, pageID ids.PageID) [][]string {
	t.Helper()
	d, err := c.Dashboards.ExportPage(testCtx(t), resultID, pageID)
	require.NoError(t, err)
	b, err := d.ReadAll(nil)
	require.NoError(t, err)
	page, err := excelize.OpenReader(bytes.NewReader(b))
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

// isNumberCell: a number cell has no type attribute or t="n".
func isNumberCell(t excelize.CellType) bool {
	return t == excelize.CellTypeUnset || t == excelize.CellTypeNumber
}

// onePageBook is a page's workbook of one sheet with a row at B2.
func onePageBook(t *testing.T, v string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetRow("Sheet1", "B2", &[]any{v, 42.5, "00123"}))
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// pagesStub answers the dashboard pages listed and each page's workbook.
func pagesStub(t *testing.T, list string) *facade.Client {
	return newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, list)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(onePageBook(t, "page "+r.URL.Query().Get("pageId")))
	})
}

// A page workbook of one sheet is copied cell for cell; the sheet names
// Excel accepts are made from page names that it does not.
func TestExportSingleSheetPagesAndNames(t *testing.T) {
	long := strings.Repeat("Costs by region and month ", 3)
	c := pagesStub(t, fmt.Sprintf(`[{"id":1,"name":%q},{"id":2,"name":%q},{"id":3,"name":"a/b:c"},{"id":4,"name":""},{"id":5,"name":"COSTS BY REGION AND MONTH COSTS"}]`, long, long))
	var out bytes.Buffer
	require.NoError(t, Export(testCtx(t), c, 5, &out, nil))
	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	sheets := merged.GetSheetList()
	assert.Equal(t, []string{long[:31], long[:27] + " (2)", "a_b_c", "Page 4", "COSTS BY REGION AND MONTH C (3)"}, sheets)
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

var tabSelected = regexp.MustCompile(`tabSelected="(1|true)"`)

// Only the first sheet is selected, so a spreadsheet opens on it and not
// on a group of sheets; the content types part comes first.
func TestExportSelectsTheFirstSheet(t *testing.T) {
	c := pagesStub(t, `[{"id":1,"name":"A"},{"id":2,"name":"B"},{"id":3,"name":"C"}]`)
	var out bytes.Buffer
	require.NoError(t, Export(testCtx(t), c, 5, &out, nil))
	zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	require.NoError(t, err)
	assert.Equal(t, "[Content_Types].xml", zr.File[0].Name)
	selected := map[string]bool{}
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "xl/worksheets/") {
			continue
		}
		r, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		selected[f.Name] = tabSelected.Match(b)
	}
	assert.Equal(t, map[string]bool{"xl/worksheets/sheet1.xml": true, "xl/worksheets/sheet2.xml": false, "xl/worksheets/sheet3.xml": false}, selected)
}

// A result without pages is ErrNoPages, with nothing written: it was a
// workbook of one empty sheet, taken for an empty result.
func TestExportWithoutPages(t *testing.T) {
	c := pagesStub(t, `[]`)
	var out bytes.Buffer
	err := Export(testCtx(t), c, 5, &out, nil)
	require.ErrorIs(t, err, ErrNoPages)
	assert.Contains(t, err.Error(), "dashboard: the result lists no dashboard pages: experimentResultId 5")
	assert.Zero(t, out.Len(), "nothing written")
}

// recorder is a writer that remembers how much it held at each progress
// report.
type recorder struct {
	bytes.Buffer
	at []int // w's length at each report
}

// Bytes reach w when the package doc says: the parts naming the sheets
// before any page is fetched, a page's sheet once it is merged (reported
// written), nothing while a page downloads or merges, and the zip's
// directory at the end.
func TestExportWritesEachPageWhenItIsMerged(t *testing.T) {
	srv, c := newFake(t, fake.WithResultSize(3, 2, 50))
	result := runSync(t, c, 10101)
	var w recorder
	var progress []Progress
	err := Export(testCtx(t), c, result, &w, &Options{Progress: func(p Progress) {
		progress = append(progress, p)
		w.at = append(w.at, w.Len())
	}})
	require.NoError(t, err)
	require.Equal(t, 3, srv.Calls("exportDashboardPage"))
	require.NotEmpty(t, progress)
	assert.Positive(t, w.at[0], "the parts naming the sheets are written before the first page is fetched")
	before := w.at[0]
	for i, p := range progress {
		switch p.Stage {
		case Downloading, Merging:
			assert.Equal(t, before, w.at[i], "page %d %s: nothing of it reached w", p.Index, p.Stage)
		case Written:
			assert.Greater(t, w.at[i], before+1000, "page %d written: its sheet reached w", p.Index)
			before = w.at[i]
		}
	}
	assert.Greater(t, w.Len(), before, "the zip's directory ends the workbook")
}

// A page whose answer breaks off is fetched again from its first byte (the
// fake takes no Range requests), its progress starting over at 0.
func TestExportFetchesABrokenPageAgain(t *testing.T) {
	srv, c := newFake(t, fake.WithResultSize(2, 1, 20))
	result := runSync(t, c, 10101)
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})
	var progress []Progress
	var out bytes.Buffer
	err := Export(testCtx(t), c, result, &out, &Options{Progress: func(p Progress) { progress = append(progress, p) }})
	require.NoError(t, err)
	assert.Equal(t, 3, srv.Calls("exportDashboardPage"), "two pages, the first fetched twice")
	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	assert.Len(t, merged.GetSheetList(), 2)
	var starts []int64 // page 1's bytes at each report that starts a download
	for i, p := range progress {
		if p.Index == 1 && p.Stage == Downloading && p.Bytes == 0 && i > 0 {
			starts = append(starts, progress[i-1].Bytes)
		}
	}
	require.Len(t, starts, 1, "page 1 started over once")
	assert.Positive(t, starts[0], "after some of its bytes had arrived")
	checkStages(t, progress, 2)
}

// A page that cannot be exported ends the export with an error naming the
// page; w then holds a workbook cut off, which no reader takes for whole.
func TestExportFailsOnAPage(t *testing.T) {
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, `[{"id":1,"name":"Overview"}]`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"message":"Cannot invoke \"getCharts()\" because \"dashboardPage\" is null"}`)
	})
	var out bytes.Buffer
	err := Export(testCtx(t), c, 5, &out, nil)
	assert.ErrorContains(t, err, `dashboard: page 1 (Overview): facade: exportDashboardPage: Cannot invoke "getCharts()"`)
	_, err = zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	assert.Error(t, err, "a workbook cut off is no zip")
}

// Bad input is refused before anything is sent, naming the field.
func TestExportRefusesBadInput(t *testing.T) {
	srv, c := newFake(t)
	for name, tc := range map[string]struct {
		c      *facade.Client
		result ids.ExperimentResultID
		w      io.Writer
		field  string
	}{
		"negative result id": {c, -1, io.Discard, "experimentResultId"},
		"no writer":          {c, 5, nil, "w"},
		"no client":          {nil, 5, io.Discard, "c"},
	} {
		t.Run(name, func(t *testing.T) {
			err := Export(testCtx(t), tc.c, tc.result, tc.w, nil)
			var verr *facade.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.field, verr.Field)
			assert.ErrorIs(t, err, facade.ErrValidation)
		})
	}
	assert.Zero(t, srv.Calls("getExperimentDashboardPages"))
}
