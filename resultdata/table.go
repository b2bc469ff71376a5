package resultdata

import (
	"context"
	"encoding/json"
	"iter"
	"strconv"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// TableSource is a table chart read through the JSON operations, a batch
// of rows at a time. It is an interface because the model of a table's
// data is not settled: the real server's answers seen so far held no rows
// at all, in a model (entityList, totalEntityCount) other than the one the
// spec infers (columns, rows of cells). [ChartTable] reads the spec's.
type TableSource interface {
	// Batches yields the table's rows a batch at a time, each batch with
	// the table's columns.
	Batches(ctx context.Context) iter.Seq2[TableBatch, error]
}

// TableBatch is a batch of a table's rows.
type TableBatch struct {
	Columns []string    // the columns' names, in order
	Rows    [][]RawCell // each row's cells, in the columns' order
}

// RawCell is a cell as the JSON answer has it: its value as JSON, and the
// type the server declares ("" when none).
type RawCell struct {
	Type  string
	Value json.RawMessage
}

// ReadTable yields the rows of a table read through the JSON operations,
// each marked with chart (its Columns are made from the table's). Values
// are typed by their JSON type: numbers, booleans, strings (a string of a
// time column read as a time when it is one), null as empty; an object or
// array is kept as its JSON text. A table without rows is reported as a
// [Note] of kind NoRows; values of another kind than their column's as
// OtherType. opts may be nil.
func ReadTable(ctx context.Context, src TableSource, chart Chart, opts *Options) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		o := opts.orDefaults()
		notes := &noter{emit: o.Notes, page: chart.Page, sheet: chart.Sheet, limit: o.Limits.NotesPerSheet}
		defer notes.close()
		r := &sheetReader{opts: o, wb: &workbook{}, notes: notes, base: chart, yield: yield, noSheetRows: true}
		var n int64
		for batch, err := range src.Batches(ctx) {
			if err != nil {
				yield(Row{}, err)
				return
			}
			if r.chart == nil {
				r.tableHeader(batch.Columns)
			}
			for _, cells := range batch.Rows {
				n++
				if !r.emit(n, tableCells(cells)) {
					return
				}
			}
		}
		r.endTable()
	}
}

// tableHeader makes the chart of a table from its columns' names.
func (r *sheetReader) tableHeader(names []string) {
	h := &heldRow{}
	for i, name := range names {
		h.cells = append(h.cells, cell{col: i, v: Value{Kind: Text, Text: name}})
	}
	r.header, r.inData = h, true
	r.meta.seen = [3]bool{true, true, true} // a table has no metadata rows to miss
	r.makeChart(nil)
}

// endTable reports an empty table and the values of other kinds.
func (r *sheetReader) endTable() {
	switch {
	case r.chart == nil:
		r.notes.add(Note{Kind: NoRows, Chart: r.base.Sheet, Read: ReadAll, Text: "the table holds no rows and names no columns"})
		return
	case r.rows == 0:
		r.notes.add(Note{Kind: NoRows, Chart: r.chart.Sheet, Read: ReadAll, Text: "the table holds no rows"})
	}
	r.reportTypes()
}

// tableCells types a row's cells by their JSON values.
func tableCells(raw []RawCell) []cell {
	out := make([]cell, 0, len(raw))
	for i, c := range raw {
		if v := jsonValue(c.Value); v.Kind != Empty {
			out = append(out, cell{col: i, v: v})
		}
	}
	return out
}

func jsonValue(raw json.RawMessage) Value {
	if len(raw) == 0 {
		return Value{}
	}
	switch raw[0] {
	case 'n':
		return Value{}
	case 't', 'f':
		return Value{Kind: Bool, Bool: raw[0] == 't'}
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return Value{Kind: Text, Text: s}
		}
		return Value{}
	case '{', '[':
		return Value{Kind: Text, Text: string(raw)}
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return Value{Kind: Number, Num: f}
	}
	return Value{Kind: Text, Text: string(raw)}
}

// ChartTable is the table chart chartID of the result of rcID (its latest
// finished run), read with getExperimentRunResultChartTableData in pages
// of opts (nil for the defaults), in the model the spec infers.
func ChartTable(c *facade.Client, rcID ids.RcID, chartID int64, opts *facade.PageOptions) TableSource {
	return chartTable{c: c, rcID: rcID, chartID: chartID, opts: opts}
}

type chartTable struct {
	c       *facade.Client
	rcID    ids.RcID
	chartID int64
	opts    *facade.PageOptions
}

func (t chartTable) Batches(ctx context.Context) iter.Seq2[TableBatch, error] {
	return func(yield func(TableBatch, error) bool) {
		for page, err := range t.c.Results.ChartTableBatches(ctx, t.rcID, t.chartID, t.opts) {
			if err != nil {
				yield(TableBatch{}, err)
				return
			}
			if !yield(tableBatch(page), nil) {
				return
			}
		}
	}
}

// tableBatch is a page of a table chart's rows. The real table data names
// no columns (its rows are in entityList), so the columns are numbered, as
// many as the first row has cells.
func tableBatch(p *gen.ApiStrictTableChartData) TableBatch {
	b := TableBatch{Rows: make([][]RawCell, len(p.EntityList))}
	if len(p.EntityList) > 0 {
		for i := range p.EntityList[0].Cells {
			b.Columns = append(b.Columns, "column"+strconv.Itoa(i+1))
		}
	}
	for i, r := range p.EntityList {
		cells := make([]RawCell, len(r.Cells))
		for j, c := range r.Cells {
			if c.Type != nil {
				cells[j].Type = *c.Type
			}
			if c.Value != nil {
				cells[j].Value = json.RawMessage(*c.Value)
			}
		}
		b.Rows[i] = cells
	}
	return b
}
