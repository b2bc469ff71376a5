package parquetfile

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/scmodel/scmgo/resultdata"
)

// chartWriter writes one chart's rows in the chart layout.
type chartWriter struct {
	w      *parquet.GenericWriter[any]
	chart  *resultdata.Chart
	kinds  []resultdata.Kind // each chart column's kind in the file
	rows   []parquet.Row
	notes  func(resultdata.Note)
	misfit []misfits // by chart column
}

// misfits counts the values a column of the file could not hold.
type misfits struct {
	n           int64
	first, last int64
	kinds       map[resultdata.Kind]int64
}

// NewChart writes the rows of chart c in the chart layout
// (resultdata.WideColumns) as Parquet to w. The provenance columns are
// required (result_id, page_id, row, sheet_row INT64, the others strings);
// each chart column is optional, of the type of its kind when NewChart is
// called, at the chart's first row: number DOUBLE, time TIMESTAMP, bool
// BOOLEAN, and text, or a column empty so far, a string.
//
// A value of another kind than its column's is written as text in a text
// column; elsewhere it is left null, and Close hands notes a
// [resultdata.Note] per such column saying how many and in which rows
// (the reader has reported those cells already; the long layout keeps
// them). Columns the reader adds later are left out, as
// resultdata.NewChartCSV says. notes may be nil: the notes are then
// dropped. Close writes the footer; it does not close w.
func NewChart(w io.Writer, c *resultdata.Chart, notes func(resultdata.Note)) resultdata.RowWriter {
	names := resultdata.WideColumns(c)
	kinds := make([]resultdata.Kind, len(c.Columns))
	fields := make([]parquet.Field, 0, len(names))
	for i, name := range names {
		fields = append(fields, field{name: name, Node: provenanceNode(i)})
	}
	for i, col := range c.Columns {
		kinds[i] = col.Kind
		if kinds[i] == resultdata.Empty {
			kinds[i] = resultdata.Text
		}
		fields[len(resultdata.ChartColumns)+i] = field{name: names[len(resultdata.ChartColumns)+i], Node: valueNode(kinds[i])}
	}
	schema := parquet.NewSchema("chart", group(fields))
	if notes == nil {
		notes = func(resultdata.Note) {}
	}
	return &chartWriter{w: parquet.NewGenericWriter[any](w, append(writerOptions(), schema)...), chart: c, kinds: kinds, notes: notes,
		misfit: make([]misfits, len(kinds))}
}

// provenanceNode is the node of the i-th column of the chart layout, when
// it is one of resultdata.ChartColumns.
func provenanceNode(i int) parquet.Node {
	switch resultdata.ChartColumns[min(i, len(resultdata.ChartColumns)-1)] {
	case "result_id", "page_id", "row", "sheet_row":
		return parquet.Leaf(parquet.Int64Type)
	}
	return parquet.String()
}

func valueNode(k resultdata.Kind) parquet.Node {
	switch k {
	case resultdata.Number:
		return parquet.Optional(parquet.Leaf(parquet.DoubleType))
	case resultdata.Time:
		return parquet.Optional(parquet.TimestampAdjusted(parquet.Microsecond, false))
	case resultdata.Bool:
		return parquet.Optional(parquet.Leaf(parquet.BooleanType))
	}
	return parquet.Optional(parquet.String())
}

func (w *chartWriter) Write(r resultdata.Row) error {
	if r.Chart != w.chart {
		return &resultdata.ChartError{Want: w.chart, Got: r.Chart}
	}
	c := r.Chart
	row := make(parquet.Row, 0, len(resultdata.ChartColumns)+len(w.kinds))
	row = append(row, parquet.Int64Value(int64(c.ResultID)).Level(0, 0, 0), parquet.Int64Value(int64(c.PageID)).Level(0, 0, 1))
	for i, s := range []string{c.Page, c.Sheet, c.Type, c.Statistics, c.Name} {
		row = append(row, parquet.ByteArrayValue([]byte(s)).Level(0, 0, 2+i))
	}
	row = append(row, parquet.Int64Value(r.Index).Level(0, 0, 7), parquet.Int64Value(r.SheetRow).Level(0, 0, 8))
	for i, kind := range w.kinds {
		var v resultdata.Value
		if i < len(r.Values) {
			v = r.Values[i]
		}
		row = append(row, w.value(i, kind, v, r.SheetRow, len(resultdata.ChartColumns)+i))
	}
	w.rows = append(w.rows, row)
	if len(w.rows) == batchRows {
		return w.flush()
	}
	return nil
}

// value is v as chart column i, of kind, holds it in the file's column
// index: null when it is empty or cannot be held.
func (w *chartWriter) value(i int, kind resultdata.Kind, v resultdata.Value, sheetRow int64, index int) parquet.Value {
	null := parquet.NullValue().Level(0, 0, index)
	if v.Kind == resultdata.Empty {
		return null
	}
	var out parquet.Value
	switch {
	case kind == resultdata.Text:
		out = parquet.ByteArrayValue([]byte(v.String()))
	case v.Kind != kind:
		w.misfit[i].add(v.Kind, sheetRow)
		return null
	case kind == resultdata.Number:
		out = parquet.DoubleValue(v.Num)
	case kind == resultdata.Time:
		out = parquet.Int64Value(v.Time.UnixMicro())
	default:
		out = parquet.BooleanValue(v.Bool)
	}
	return out.Level(0, 1, index)
}

func (m *misfits) add(k resultdata.Kind, row int64) {
	if m.n++; m.first == 0 {
		m.first, m.kinds = row, map[resultdata.Kind]int64{}
	}
	m.kinds[k]++
	m.last = row
}

func (w *chartWriter) flush() error {
	_, err := w.w.WriteRows(w.rows)
	w.rows = w.rows[:0]
	return err
}

func (w *chartWriter) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	for i, m := range w.misfit {
		if m.n > 0 {
			col := w.chart.Columns[i]
			w.notes(resultdata.Note{Kind: resultdata.OtherType, Page: w.chart.Page, Sheet: w.chart.Sheet, Chart: w.chart.Sheet,
				Cells: fmt.Sprintf("column %s, rows %d-%d", col.Name, m.first, m.last), Read: resultdata.ReadPart,
				Text: fmt.Sprintf("%d values of another kind than the Parquet column's (%s) were left null in this file", m.n, w.kinds[i])})
		}
	}
	return w.w.Close()
}

// group is a group node whose fields keep their order: parquet.Group, a
// map, sorts them by name.
type group []parquet.Field

func (g group) ID() int                 { return 0 }
func (g group) String() string          { return parquet.Group(g.asMap()).String() }
func (g group) Type() parquet.Type      { return parquet.Group{}.Type() }
func (g group) Optional() bool          { return false }
func (g group) Repeated() bool          { return false }
func (g group) Required() bool          { return true }
func (g group) Leaf() bool              { return false }
func (g group) Fields() []parquet.Field { return g }
func (g group) Encoding() encoding.Encoding {
	return nil
}
func (g group) Compression() compress.Codec { return nil }
func (g group) GoType() reflect.Type        { return parquet.Group(g.asMap()).GoType() }

func (g group) asMap() map[string]parquet.Node {
	m := make(map[string]parquet.Node, len(g))
	for _, f := range g {
		m[f.Name()] = f
	}
	return m
}

// field is a named node of a group.
type field struct {
	parquet.Node
	name string
}

func (f field) Name() string { return f.name }

// Value is not used: rows are written as parquet.Row, not from Go values.
func (f field) Value(base reflect.Value) reflect.Value { return reflect.Value{} }
