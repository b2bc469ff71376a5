package resultdata_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.uber.org/goleak"

	"github.com/scmodel/scmgo/resultdata"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a regression fails in seconds instead of hanging.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func itoa(i int) string { return strconv.Itoa(i) }

// chartSheet is a chart's sheet in the recorded layout: meta are the
// values of Type:, Statistics: and Chart name: (none when nil), then an
// empty row, the header, and count rows made by rows(i).
type chartSheet struct {
	name   string
	meta   []string
	header []any
	count  int
	rows   func(i int) []any
}

// writeChartSheets writes the sheets into f with excelize's stream writer,
// as the fake and dashboard.Export do (inline strings).
func writeChartSheets(tb testing.TB, f *excelize.File, sheets ...chartSheet) {
	tb.Helper()
	for i, s := range sheets {
		if i == 0 {
			require.NoError(tb, f.SetSheetName("Sheet1", s.name))
		} else {
			_, err := f.NewSheet(s.name)
			require.NoError(tb, err)
		}
		sw, err := f.NewStreamWriter(s.name)
		require.NoError(tb, err)
		row := 1
		set := func(values []any) {
			cell, _ := excelize.CoordinatesToCellName(1, row)
			require.NoError(tb, sw.SetRow(cell, values))
			row++
		}
		if s.meta != nil {
			set([]any{"Type:", s.meta[0]})
			set([]any{"Statistics:", s.meta[1]})
			set([]any{"Chart name:", s.meta[2]})
			row++
		}
		set(s.header)
		for i := range s.count {
			set(s.rows(i))
		}
		require.NoError(tb, sw.Flush())
	}
}

// sheetRows is a sheet given cell by cell: rows of values from A1, a nil
// value an empty cell, an empty row an empty row. It is written with
// excelize's cell setters, so its strings are shared strings.
type sheetRows struct {
	name string
	rows [][]any
}

// workbook writes sheets into a workbook and returns its bytes; edit, when
// not nil, changes the file before it is written.
func workbook(tb testing.TB, edit func(f *excelize.File), sheets ...sheetRows) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if i == 0 {
			require.NoError(tb, f.SetSheetName("Sheet1", s.name))
		} else {
			_, err := f.NewSheet(s.name)
			require.NoError(tb, err)
		}
		for r, values := range s.rows {
			for c, v := range values {
				if v == nil {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				require.NoError(tb, f.SetCellValue(s.name, cell, v))
			}
		}
	}
	if edit != nil {
		edit(f)
	}
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(tb, err)
	return buf.Bytes()
}

// read reads a workbook of page 2, "Costs", of result 5001 and returns
// its rows, cloned, and its notes.
func read(tb testing.TB, data []byte) ([]resultdata.Row, []resultdata.Note) {
	tb.Helper()
	return readAs(tb, data, resultdata.Page{ResultID: 5001, ID: 2, Name: "Costs"})
}

func readAs(tb testing.TB, data []byte, page resultdata.Page) ([]resultdata.Row, []resultdata.Note) {
	tb.Helper()
	var notes []resultdata.Note
	var rows []resultdata.Row
	opts := &resultdata.Options{Notes: func(n resultdata.Note) { notes = append(notes, n) }}
	for row, err := range resultdata.ReadPage(testCtx(tb), bytes.NewReader(data), int64(len(data)), page, opts) {
		require.NoError(tb, err)
		rows = append(rows, row.Clone())
	}
	return rows, notes
}

// values renders rows' values as text, one slice per row.
func values(rows []resultdata.Row) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, v := range r.Values {
			out[i] = append(out[i], v.String())
		}
	}
	return out
}

// columns lists a chart's columns as "name:kind".
func columns(c *resultdata.Chart) []string {
	var out []string
	for _, col := range c.Columns {
		out = append(out, col.Name+":"+col.Kind.String())
	}
	return out
}

// noteTexts renders notes as "kind read cells: text".
func noteTexts(notes []resultdata.Note) []string {
	var out []string
	for _, n := range notes {
		out = append(out, n.Kind.String()+" ("+n.Read.String()+") "+n.Cells+": "+n.Text)
	}
	return out
}
