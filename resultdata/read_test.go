package resultdata_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
)

// newFake starts a fake server whose runs finish at once, with results of
// pages pages of charts charts, tables of rows rows, and a client of it.
func newFake(t testing.TB, pages, charts int, rows int64) *facade.Client {
	t.Helper()
	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(0), fake.WithResultSize(pages, charts, rows))
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// runResult runs the GFA experiment of the fake's first scenario and
// returns its experimentResultId.
func runResult(t testing.TB, c *facade.Client) ids.ExperimentResultID {
	t.Helper()
	run, err := c.Experiments.RunSync(testCtx(t), 10101)
	require.NoError(t, err)
	return run.ExperimentResultId
}

// pageNumber is the id of page n (from 1) of a result: the fake numbers
// them from experimentResultId+2, each followed by its charts' ids.
func pageNumber(t testing.TB, c *facade.Client, result ids.ExperimentResultID, n int) ids.PageID {
	t.Helper()
	pages, err := c.Dashboards.Pages(testCtx(t), result)
	require.NoError(t, err)
	require.Greater(t, len(pages), n-1, "result %d has page %d", result, n)
	return pages[n-1].Id
}

// exportPage downloads a page's workbook.
func exportPage(t testing.TB, c *facade.Client, result ids.ExperimentResultID, page ids.PageID) []byte {
	t.Helper()
	d, err := c.Dashboards.ExportPage(testCtx(t), result, page)
	require.NoError(t, err)
	data, err := d.ReadAll(nil)
	require.NoError(t, err)
	return data
}

// A page workbook of the fake, in the recorded layout, is read without a
// note: a chart per sheet with its metadata, its header's columns typed
// (the statistics' Time as times, numbers as numbers, text as text), and
// every data row from row 6 on, marked with the page and the result.
func TestReadPageInTheRecordedLayout(t *testing.T) {
	c := newFake(t, 2, 3, 7)
	result := runResult(t, c)
	rows, notes := read(t, exportPage(t, c, result, pageNumber(t, c, result, 2)))
	assert.Empty(t, notes)
	require.Len(t, rows, 7+24+7, "two tables of 7 rows and a graph of 2 series of 12 points")

	table := rows[0].Chart
	assert.Equal(t, resultdata.Chart{ResultID: 5001, PageID: 2, Page: "Costs", Sheet: "Costs table 1", Type: "TABLE",
		Statistics: "Average lead time", Name: "Costs table 1", HeaderRow: 5, Columns: table.Columns}, *table)
	assert.Equal(t, []string{"Id:text", "Name:text", "Amount:number", "Count:number"}, columns(table))
	assert.Equal(t, int64(1), rows[0].Index)
	assert.Equal(t, int64(6), rows[0].SheetRow, "data start at row 6")
	assert.Equal(t, []string{"R1", "Name 1"}, values(rows[:1])[0][:2])

	graph := rows[7]
	assert.Equal(t, "Costs line 2", graph.Chart.Sheet)
	assert.Equal(t, "LINE", graph.Chart.Type)
	assert.Equal(t, []string{"Statistics name:text", "Time:time", "Value:number"}, columns(graph.Chart))
	assert.Equal(t, resultdata.Time, graph.Values[1].Kind)
	assert.Equal(t, "2024-01-01 00:00:00", graph.Values[1].String())
	assert.Equal(t, "Costs table 3", rows[31].Chart.Sheet)
}

// A merged workbook (dashboard.Export) yields the same charts and values
// as its pages' workbooks: each page's sheet holds its charts as sections
// under a heading naming the chart's sheet. Export copies dates as plain
// numbers; the Time column reads them as times again, and says so.
func TestReadMergedAsItsPages(t *testing.T) {
	c := newFake(t, 3, 3, 5)
	result := runResult(t, c)
	var want []resultdata.Row
	for i, name := range []string{"Overview", "Costs", "Service"} {
		rows, _ := readAs(t, exportPage(t, c, result, pageNumber(t, c, result, i+1)), resultdata.Page{ResultID: result, ID: ids.PageID(i + 1), Name: name})
		want = append(want, rows...)
	}
	var buf bytes.Buffer
	require.NoError(t, dashboard.Export(testCtx(t), c, result, &buf, nil))
	var got []resultdata.Row
	var notes []resultdata.Note
	opts := &resultdata.Options{Notes: func(n resultdata.Note) { notes = append(notes, n) }}
	for row, err := range resultdata.ReadMerged(testCtx(t), bytes.NewReader(buf.Bytes()), int64(buf.Len()), result, opts) {
		require.NoError(t, err)
		got = append(got, row.Clone())
	}
	require.Len(t, got, len(want))
	for i := range want {
		w, g := *want[i].Chart, *got[i].Chart
		w.PageID, w.HeaderRow, g.HeaderRow = 0, 0, 0
		require.Equal(t, w, g, "row %d", i)
		require.Equal(t, values(want[i:i+1]), values(got[i:i+1]), "row %d", i)
	}
	assert.Equal(t, []string{
		"day-numbers (read) column B (Time), rows 19-42: 24 cells of this time column hold numbers without a date format: each was read as a spreadsheet day number",
		"day-numbers (read) column B (Time), rows 19-42: 24 cells of this time column hold numbers without a date format: each was read as a spreadsheet day number",
		"day-numbers (read) column B (Time), rows 19-42: 24 cells of this time column hold numbers without a date format: each was read as a spreadsheet day number",
	}, noteTexts(notes))
	assert.Equal(t, "Costs line 2", notes[1].Chart)
}

var _ = excelize.NewFile
