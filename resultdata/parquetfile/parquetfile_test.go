package parquetfile_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// chart is a chart of a column of each kind and one empty at its first
// row; rows holds a row that fits and one whose number and time columns
// hold other kinds.
func chart() (*resultdata.Chart, []resultdata.Row) {
	c := &resultdata.Chart{ResultID: 5001, PageID: 2, Page: "Costs", Sheet: "Sites", Columns: []resultdata.Column{
		{Name: "Site", Kind: resultdata.Text}, {Name: "Day", Kind: resultdata.Time}, {Name: "Cost", Kind: resultdata.Number},
		{Name: "Open", Kind: resultdata.Bool}, {Name: "Note"}}}
	day := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	return c, []resultdata.Row{
		{Chart: c, Index: 1, SheetRow: 6, Values: []resultdata.Value{{Kind: resultdata.Text, Text: "Rome"},
			{Kind: resultdata.Time, Time: day}, {Kind: resultdata.Number, Num: 2.5}, {Kind: resultdata.Bool, Bool: true}, {}}},
		{Chart: c, Index: 2, SheetRow: 7, Values: []resultdata.Value{{Kind: resultdata.Number, Num: 7},
			{Kind: resultdata.Text, Text: "soon"}, {Kind: resultdata.Text, Text: "n/a"}, {}, {Kind: resultdata.Number, Num: 3}}},
	}
}

// The chart layout in Parquet: a column per chart column of its kind's
// type, in the header's order; a value another kind than its column's is
// text in a text column, null elsewhere, and Close notes how many, where.
func TestChartLayout(t *testing.T) {
	c, rows := chart()
	var buf bytes.Buffer
	var notes []resultdata.Note
	w := parquetfile.NewChart(&buf, c, func(n resultdata.Note) { notes = append(notes, n) })
	for _, r := range rows {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())

	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	var names []string
	for _, field := range f.Schema().Fields() {
		names = append(names, field.Name()+":"+typeName(field.Type()))
	}
	assert.Equal(t, []string{"result_id:INT(64,true)", "page_id:INT(64,true)", "page:STRING", "sheet:STRING", "chart_type:STRING",
		"statistics:STRING", "chart_name:STRING", "row:INT(64,true)", "sheet_row:INT(64,true)", "Site:STRING",
		"Day:TIMESTAMP(isAdjustedToUTC=false,unit=MICROS)", "Cost:DOUBLE", "Open:BOOLEAN", "Note:STRING"}, names)

	got := readRows(t, buf.Bytes())
	require.Len(t, got, 2)
	assert.Equal(t, "Rome", got[0]["Site"])
	assert.Equal(t, 2.5, got[0]["Cost"])
	assert.Equal(t, true, got[0]["Open"])
	assert.Nil(t, got[0]["Note"])
	assert.Equal(t, "7", got[1]["Site"], "a number in a text column is its text")
	assert.Nil(t, got[1]["Day"])
	assert.Nil(t, got[1]["Cost"])
	assert.Equal(t, "3", got[1]["Note"], "a column empty at the first row is text")
	require.Len(t, notes, 2)
	assert.Equal(t, `page "Costs", sheet "Sites", column Day, rows 7-7: 1 values of another kind than the Parquet column's (time) were left null in this file`, notes[0].String())
	assert.Equal(t, resultdata.ReadPart, notes[1].Read)
}

// The long layout in Parquet: a record per value, in its kind's column.
func TestLongLayout(t *testing.T) {
	_, rows := chart()
	var buf bytes.Buffer
	w := parquetfile.NewLong(&buf)
	for _, r := range rows {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	got := readRows(t, buf.Bytes())
	require.Len(t, got, 8, "the values that are not empty")
	assert.Equal(t, "Cost", got[2]["column"])
	assert.Equal(t, 2.5, got[2]["number"])
	assert.Nil(t, got[2]["text"])
	assert.Equal(t, "n/a", got[6]["text"])
	assert.Equal(t, int64(7), got[7]["sheet_row"])
}

// typeName is a column's logical type, or its physical one.
func typeName(t parquet.Type) string {
	if lt := t.LogicalType(); lt != nil {
		return lt.String()
	}
	return t.Kind().String()
}

// readRows reads a file's rows as maps of column name to value: nil for
// null, else int64, float64, bool, or string for byte arrays.
func readRows(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	fields := f.Schema().Fields()
	r := parquet.NewReader(f)
	defer r.Close()
	var out []map[string]any
	rows := make([]parquet.Row, 16)
	for {
		n, err := r.ReadRows(rows)
		for _, row := range rows[:n] {
			m := map[string]any{}
			for _, v := range row {
				m[fields[v.Column()].Name()] = goValue(v)
			}
			out = append(out, m)
		}
		if err != nil {
			return out
		}
	}
}

func goValue(v parquet.Value) any {
	switch {
	case v.IsNull():
		return nil
	case v.Kind() == parquet.Int64:
		return v.Int64()
	case v.Kind() == parquet.Double:
		return v.Double()
	case v.Kind() == parquet.Boolean:
		return v.Boolean()
	}
	return string(v.ByteArray())
}

// Parquet keeps every text exactly as the server sent it, a text a
// spreadsheet would take for a formula too: only CSV neutralises them.
func TestLongLayoutKeepsFormulas(t *testing.T) {
	c := &resultdata.Chart{ResultID: 5001, PageID: 2, Page: "=page", Sheet: "+sheet", Type: "-type", Statistics: "@stats", Name: "\tname",
		Columns: []resultdata.Column{{Name: "\rSite", Kind: resultdata.Text}, {Name: "=Cost", Kind: resultdata.Number}}}
	row := resultdata.Row{Chart: c, Index: 1, SheetRow: 6, Values: []resultdata.Value{
		{Kind: resultdata.Text, Text: `=HYPERLINK("http://example.com/x","click")`}, {Kind: resultdata.Number, Num: -3}}}
	var buf bytes.Buffer
	w := parquetfile.NewLong(&buf)
	require.NoError(t, w.Write(row))
	require.NoError(t, w.Close())
	got := readRows(t, buf.Bytes())
	require.Len(t, got, 2)
	for col, want := range map[string]any{"page": "=page", "sheet": "+sheet", "chart_type": "-type", "statistics": "@stats", "chart_name": "\tname",
		"column": "\rSite", "text": `=HYPERLINK("http://example.com/x","click")`} {
		assert.Equal(t, want, got[0][col], col)
	}
	assert.Equal(t, "=Cost", got[1]["column"])
	assert.Equal(t, -3.0, got[1]["number"])
}
