package resultdata_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/internal/testkit/ziptest"
	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/resultdata"
)

// meta are the recorded layout's rows above a header: the three metadata
// rows and the empty row.
func meta(typ, statistics, name string) [][]any {
	return [][]any{{"Type:", typ}, {"Statistics:", statistics}, {"Chart name:", name}, {}}
}

func rowsOf(parts ...[][]any) [][]any {
	var out [][]any
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// A sheet without metadata rows (the header in row 1, as scmgo's fake
// wrote them before) is read whole; its chart's metadata is empty, and a
// note says so.
func TestOddNoMetadataRows(t *testing.T) {
	data := workbook(t, nil, sheetRows{name: "Costs", rows: [][]any{{"Site", "Cost"}, {"Berlin", 10.5}, {"Paris", 20}}})
	rows, notes := read(t, data)
	require.Len(t, rows, 2)
	assert.Equal(t, []string{"Site:text", "Cost:number"}, columns(rows[0].Chart))
	assert.Equal(t, [][]string{{"Berlin", "10.5"}, {"Paris", "20"}}, values(rows))
	assert.Equal(t, "", rows[0].Chart.Type+rows[0].Chart.Statistics+rows[0].Chart.Name)
	assert.Equal(t, []string{"no-metadata (read) row 1: no Type:, Statistics:, Chart name: row above the header: the chart's metadata is empty"}, noteTexts(notes))
	assert.Equal(t, "Costs", notes[0].Sheet)

	partial := workbook(t, nil, sheetRows{name: "Costs", rows: [][]any{{"Chart name:", "Cost by site"}, {}, {"Site", "Cost"}, {"Berlin", 1}}})
	rows, notes = read(t, partial)
	require.Len(t, rows, 1)
	assert.Equal(t, "Cost by site", rows[0].Chart.Name)
	assert.Equal(t, []string{"no-metadata (read) row 3: no Type:, Statistics: row above the header: the chart's metadata is empty"}, noteTexts(notes))
}

// A header of two rows (group names above, names below: the row below
// the header holds text over columns of numbers) names each column by
// both; a row that repeats the header further down is skipped. Both are
// noted.
func TestOddSecondHeaderRow(t *testing.T) {
	data := workbook(t, nil, sheetRows{name: "Iterations", rows: rowsOf(meta("Table", "Costs", "Cost by period"), [][]any{
		{"Iteration", "Period", "Cost", "Cost"},
		{nil, nil, "Plan", "Actual"},
		{1, "P1", 10, 11},
		{1, "P2", 12, 13},
		{"Iteration", "Period", "Cost", "Cost"},
		{2, "P1", 14, 15},
	})})
	rows, notes := read(t, data)
	require.Len(t, rows, 3)
	assert.Equal(t, []string{"Iteration:number", "Period:text", "Cost Plan:number", "Cost Actual:number"}, columns(rows[0].Chart))
	assert.Equal(t, [][]string{{"1", "P1", "10", "11"}, {"1", "P2", "12", "13"}, {"2", "P1", "14", "15"}}, values(rows))
	assert.Equal(t, []int64{7, 8, 10}, []int64{rows[0].SheetRow, rows[1].SheetRow, rows[2].SheetRow})
	assert.Equal(t, []int64{1, 2, 3}, []int64{rows[0].Index, rows[1].Index, rows[2].Index})
	assert.Equal(t, []string{
		`second-header (read) rows 5-6: row 6 is a second header row (C="Plan", D="Actual"): the columns are named by both rows`,
		"repeated-header (not read) row 9: the row repeats the header; skipped",
	}, noteTexts(notes))
}

// Empty sheets are reported and the other sheets read: a sheet without
// cells, one of metadata without a header, and a chart with a header but
// no data.
func TestOddEmptySheets(t *testing.T) {
	data := workbook(t, nil,
		sheetRows{name: "Blank"},
		sheetRows{name: "Only metadata", rows: meta("Table", "Costs", "Nothing")},
		sheetRows{name: "Header only", rows: rowsOf(meta("Table", "Costs", "No rows"), [][]any{{"Site", "Cost"}})},
		sheetRows{name: "Data", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 3}})},
	)
	rows, notes := read(t, data)
	require.Len(t, rows, 1)
	assert.Equal(t, "Data", rows[0].Chart.Sheet)
	var where []string
	for _, n := range notes {
		where = append(where, n.Sheet)
	}
	assert.Equal(t, []string{"Blank", "Only metadata", "Header only"}, where)
	assert.Equal(t, []string{
		"empty-sheet (not read) : the sheet has no cells; nothing to read",
		"empty-sheet (not read) rows 1-3: metadata rows without a header below them; nothing to read",
		"no-data (read) row 5: a header without data rows below it; the chart has no rows",
	}, noteTexts(notes))
}

// Cells of another type than their column's are read as what they hold,
// and reported per column with their rows: text in a column of numbers, a
// number in a column of times (the header says Time), a time column's text
// that is no time. Text that is a time in a time column is a time.
func TestOddCellsOfAnotherType(t *testing.T) {
	day := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	data := workbook(t, nil, sheetRows{name: "Statistics", rows: rowsOf(meta("Line chart", "Total cost", "Cost over time"), [][]any{
		{"Statistics name", "Time", "Value"},
		{"Total cost", day, 100.5},
		{"Total cost", "2024-03-02 08:00:00", "n/a"},
		{"Total cost", 7, true},
		{"Total cost", "soon", 3},
	})})
	rows, notes := read(t, data)
	require.Len(t, rows, 4)
	assert.Equal(t, []string{"Statistics name:text", "Time:time", "Value:number"}, columns(rows[0].Chart))
	kinds := func(i int) []resultdata.Kind {
		return []resultdata.Kind{rows[i].Values[1].Kind, rows[i].Values[2].Kind}
	}
	assert.Equal(t, []resultdata.Kind{resultdata.Time, resultdata.Number}, kinds(0))
	assert.Equal(t, []resultdata.Kind{resultdata.Time, resultdata.Text}, kinds(1))
	assert.Equal(t, []resultdata.Kind{resultdata.Number, resultdata.Bool}, kinds(2))
	assert.Equal(t, []resultdata.Kind{resultdata.Text, resultdata.Number}, kinds(3))
	assert.Equal(t, [][]string{
		{"Total cost", "2024-03-01 12:30:00", "100.5"}, {"Total cost", "2024-03-02 08:00:00", "n/a"},
		{"Total cost", "7", "true"}, {"Total cost", "soon", "3"},
	}, values(rows))
	assert.Equal(t, []string{
		"other-type (read) column B (Time), rows 8-9: 1 number, 1 text cells where the column holds times: each was read as what it holds",
		"other-type (read) column C (Value), rows 7-8: 1 text, 1 bool cells where the column holds numbers: each was read as what it holds",
	}, noteTexts(notes))
}

// Merged cells: the value of a range's first cell is read in each of its
// cells (a statistics name merged down rows 6 to 8, a group header merged
// across two columns), and each range is noted.
func TestOddMergedCells(t *testing.T) {
	data := workbook(t, func(f *excelize.File) {
		require.NoError(t, f.MergeCell("Costs", "C5", "D5"))
		require.NoError(t, f.MergeCell("Costs", "A7", "A9"))
	}, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost by site"), [][]any{
		{"Statistics name", "Site", "Cost"},
		{nil, nil, "Plan", "Actual"},
		{"Total cost", "Rome", 1, 2},
		{nil, "Oslo", 3, 4},
		{nil, "Bern", 5, 6},
	})})
	rows, notes := read(t, data)
	require.Len(t, rows, 3)
	assert.Equal(t, []string{"Statistics name:text", "Site:text", "Cost Plan:number", "Cost Actual:number"}, columns(rows[0].Chart))
	assert.Equal(t, [][]string{{"Total cost", "Rome", "1", "2"}, {"Total cost", "Oslo", "3", "4"}, {"Total cost", "Bern", "5", "6"}}, values(rows))
	assert.Equal(t, []string{
		"merged-cells (read) C5:D5: merged cells: the value of C5, when it has one, is read in each of them",
		"merged-cells (read) A7:A9: merged cells: the value of A7, when it has one, is read in each of them",
		`second-header (read) rows 5-6: row 6 is a second header row (C="Plan", D="Actual"): the columns are named by both rows`,
	}, noteTexts(notes))
}

// Header cells that are empty, repeat a name, or cells right of the header
// name their columns by letter or number, and are noted.
func TestOddUnnamedColumns(t *testing.T) {
	data := workbook(t, nil, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{
		{"Site", nil, "Cost", "cost"},
		{"Rome", "x", 1, 2},
		{"Oslo", "y", 3, 4, "extra"},
	})})
	rows, notes := read(t, data)
	require.Len(t, rows, 2)
	assert.Equal(t, []string{"Site:text", "B:text", "Cost:number", "cost (2):number", "E:text"}, columns(rows[1].Chart))
	assert.Len(t, rows[0].Values, 4, "the row read before the column was added")
	assert.Equal(t, "extra", rows[1].Values[4].Text)
	assert.Equal(t, []string{
		"unnamed-column (read) row 5: header cells are empty in columns B: those columns are named by their letter",
		`unnamed-column (read) row 5: the header repeats cost: a repeated name is numbered, "Name (2)"`,
		"unnamed-column (read) E7: cells right of the header, from row 7 on: the column is named E",
	}, noteTexts(notes))
}

// A sheet whose XML breaks off is read up to the break and reported; the
// next sheet is read.
func TestOddUnreadableSheet(t *testing.T) {
	data := workbook(t, nil,
		sheetRows{name: "Broken", rows: rowsOf(meta("Table", "Costs", "Broken"), [][]any{{"Site", "Cost"}, {"Rome", 1}, {"Oslo", 2}})},
		sheetRows{name: "Fine", rows: rowsOf(meta("Table", "Costs", "Fine"), [][]any{{"Site", "Cost"}, {"Bern", 3}})},
	)
	data = rewritePart(t, data, "xl/worksheets/sheet1.xml", func(b []byte) []byte {
		i := bytes.Index(b, []byte(`<row r="7"`))
		require.Positive(t, i)
		return b[:i+12] // cut inside row 7
	})
	rows, notes := read(t, data)
	assert.Equal(t, [][]string{{"Rome", "1"}, {"Bern", "3"}}, values(rows))
	require.Len(t, notes, 1)
	assert.Equal(t, resultdata.Unreadable, notes[0].Kind)
	assert.Equal(t, resultdata.ReadPart, notes[0].Read)
	assert.Equal(t, "Broken", notes[0].Sheet)
	assert.Equal(t, "after row 6", notes[0].Cells)
	assert.Contains(t, notes[0].Text, "could not be read from here on")
}

// rewritePart returns the workbook data with one part changed by edit.
func rewritePart(t *testing.T, data []byte, name string, edit func([]byte) []byte) []byte {
	t.Helper()
	return ziptest.Rewrite(t, data, func(part string, b []byte) []byte {
		if part == name {
			return edit(b)
		}
		return b
	})
}

// A workbook past a limit ends the iteration with a *limits.Error naming it.
func TestLimitsAreErrors(t *testing.T) {
	data := workbook(t, nil, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}, {"Oslo", 2}})})
	long := workbook(t, func(f *excelize.File) {
		require.NoError(t, f.SetCellValue("Costs", "A7", strings.Repeat("x", 30000)))
	}, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}})})
	cases := map[string]struct {
		data   []byte
		limits resultdata.Limits
		want   string
	}{
		"rows":           {data, resultdata.Limits{RowsPerSheet: 6}, "RowsPerSheet"},
		"columns":        {data, resultdata.Limits{ColumnsPerRow: 1}, "ColumnsPerRow"},
		"part":           {data, resultdata.Limits{PartBytes: 100}, "PartBytes"},
		"shared strings": {data, resultdata.Limits{SharedStringBytes: 10}, "SharedStringBytes"},
		"sheets":         {data, resultdata.Limits{Sheets: 1}, ""},
		"token":          {long, resultdata.Limits{TokenBytes: 4096, SharedStringBytes: 1 << 20}, "TokenBytes"},
		"token within":   {long, resultdata.Limits{TokenBytes: 40000}, ""},
		"merged ranges":  {data, resultdata.Limits{MergedRanges: 1}, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got error
			for _, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(tc.data), int64(len(tc.data)), resultdata.Page{}, &resultdata.Options{Limits: tc.limits, Notes: func(resultdata.Note) {}}) {
				if err != nil {
					got = err
				}
			}
			if tc.want == "" {
				assert.NoError(t, got, "within the limit")
				return
			}
			require.ErrorIs(t, got, limits.ErrLimit)
			var le *limits.Error
			require.ErrorAs(t, got, &le)
			assert.Equal(t, "Limits."+tc.want, le.Limit)
			assert.True(t, strings.Contains(got.Error(), "Limits."+tc.want), got.Error())
		})
	}
}

// Notes of one sheet past Limits.NotesPerSheet are counted in one last
// note, not listed.
func TestNotesPerSheetAreBounded(t *testing.T) {
	data := workbook(t, func(f *excelize.File) {
		for _, r := range []string{"A7", "A8", "A9", "A10", "A11"} {
			require.NoError(t, f.MergeCell("Costs", r, strings.Replace(r, "A", "B", 1)))
		}
	}, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}})})
	var notes []resultdata.Note
	for _, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(data), int64(len(data)), resultdata.Page{}, &resultdata.Options{
		Limits: resultdata.Limits{NotesPerSheet: 2}, Notes: func(n resultdata.Note) { notes = append(notes, n) }}) {
		require.NoError(t, err)
	}
	require.Len(t, notes, 3)
	assert.Equal(t, resultdata.TooManyNotes, notes[2].Kind)
	assert.Equal(t, "3 more notes past the limit Limits.NotesPerSheet (2) are not listed", notes[2].Text)
}

// Without Notes, the notes go to the Logger given, and nowhere when none
// is: the package never logs to slog.Default.
func TestNotesGoOnlyToTheLoggerGiven(t *testing.T) {
	data := workbook(t, func(f *excelize.File) {
		require.NoError(t, f.MergeCell("Costs", "A7", "B7"))
	}, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}})})
	var global, given strings.Builder
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&global, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	for _, opts := range []*resultdata.Options{nil, {Logger: slog.New(slog.NewTextHandler(&given, nil))}} {
		for _, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(data), int64(len(data)), resultdata.Page{}, opts) {
			require.NoError(t, err)
		}
	}
	assert.Empty(t, global.String(), "logged to slog.Default")
	assert.Contains(t, given.String(), "resultdata: ", "the note, to the logger given")
}
