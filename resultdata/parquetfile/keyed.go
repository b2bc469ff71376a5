package parquetfile

import (
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/scmodel/scmgo/resultdata"
)

// keyedWriter writes the long layout with keys before its columns. The
// rows of a batch are reused from batch to batch, and the texts of a
// chart (its provenance and its columns' names) are made bytes once, at
// its first row: the writer copies what it is given.
type keyedWriter struct {
	w     *parquet.GenericWriter[any]
	keys  []parquet.Value // the keys' values, at their columns
	rows  []parquet.Row   // the batch: rows[:n] are in use
	n     int
	chart *resultdata.Chart // the chart of texts
	texts [][]byte          // its page, sheet, type, statistics and name, then its columns' names
}

// NewKeyedLong writes the long layout as Parquet to w, as [NewLong] does,
// with the keys' columns first (resultdata.KeyedColumns) and their values
// in every record: an integer key INT64, a text key a dictionary-encoded
// string. The long layout's columns have the types NewLong gives them.
// Close writes the footer; it does not close w.
func NewKeyedLong(w io.Writer, keys []resultdata.Key) resultdata.RowWriter {
	long := parquet.SchemaOf(longRecord{}).Fields()
	fields := make(group, 0, len(keys)+len(long))
	vals := make([]parquet.Value, len(keys))
	for i, k := range keys {
		node := parquet.Leaf(parquet.Int64Type)
		vals[i] = parquet.Int64Value(k.Int).Level(0, 0, i)
		if k.IsText {
			node = parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
			vals[i] = parquet.ByteArrayValue([]byte(k.Text)).Level(0, 0, i)
		}
		fields = append(fields, field{name: k.Name, Node: node})
	}
	for _, f := range long {
		fields = append(fields, field{name: f.Name(), Node: f})
	}
	schema := parquet.NewSchema("long", fields)
	return &keyedWriter{w: parquet.NewGenericWriter[any](w, append(writerOptions(), schema)...), keys: vals}
}

func (w *keyedWriter) Write(r resultdata.Row) error {
	c := r.Chart
	for i, v := range r.Values {
		if v.Kind == resultdata.Empty {
			continue
		}
		w.record(c, r, i, v)
		if w.n == batchRows {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// record adds the record of value v, of column i of row r, to the batch.
func (w *keyedWriter) record(c *resultdata.Chart, r resultdata.Row, i int, v resultdata.Value) {
	texts := w.chartTexts(c)
	n := len(w.keys)
	if w.n == len(w.rows) {
		w.rows = append(w.rows, make(parquet.Row, 0, n+len(resultdata.LongColumns)))
	}
	row := append(w.rows[w.n][:0], w.keys...)
	str := func(b []byte, col int) parquet.Value { return parquet.ByteArrayValue(b).Level(0, 0, n+col) }
	row = append(row, parquet.Int64Value(int64(c.ResultID)).Level(0, 0, n), parquet.Int64Value(int64(c.PageID)).Level(0, 0, n+1),
		str(texts[0], 2), str(texts[1], 3), str(texts[2], 4), str(texts[3], 5), str(texts[4], 6),
		parquet.Int64Value(r.Index).Level(0, 0, n+7), parquet.Int64Value(r.SheetRow).Level(0, 0, n+8),
		str(texts[provenanceTexts+i], 9), str(kindNames[v.Kind], 10))
	for slot, kind := range []resultdata.Kind{resultdata.Number, resultdata.Time, resultdata.Text, resultdata.Bool} {
		col := n + 11 + slot
		if kind != v.Kind {
			row = append(row, parquet.NullValue().Level(0, 0, col))
			continue
		}
		row = append(row, longValue(v).Level(0, 1, col))
	}
	w.rows[w.n] = row
	w.n++
}

// provenanceTexts are the texts of a chart before its columns' names.
const provenanceTexts = 5

// chartTexts returns the texts of chart c as bytes, made at its first row;
// a column the reader adds to c later gets its name's when it comes.
func (w *keyedWriter) chartTexts(c *resultdata.Chart) [][]byte {
	if c != w.chart {
		w.chart, w.texts = c, w.texts[:0]
		for _, s := range [provenanceTexts]string{c.Page, c.Sheet, c.Type, c.Statistics, c.Name} {
			w.texts = append(w.texts, []byte(s))
		}
	}
	for i := len(w.texts) - provenanceTexts; i < len(c.Columns); i++ {
		w.texts = append(w.texts, []byte(c.Columns[i].Name))
	}
	return w.texts
}

// kindNames are the kinds' names, as the kind column holds them.
var kindNames = [...][]byte{resultdata.Number: []byte("number"), resultdata.Time: []byte("time"),
	resultdata.Text: []byte("text"), resultdata.Bool: []byte("bool")}

// longValue is v as its kind's column of the long layout holds it.
func longValue(v resultdata.Value) parquet.Value {
	switch v.Kind {
	case resultdata.Number:
		return parquet.DoubleValue(v.Num)
	case resultdata.Time:
		return parquet.Int64Value(v.Time.UnixMicro())
	case resultdata.Bool:
		return parquet.BooleanValue(v.Bool)
	}
	return parquet.ByteArrayValue([]byte(v.Text))
}

func (w *keyedWriter) flush() error {
	_, err := w.w.WriteRows(w.rows[:w.n])
	w.n = 0
	return err
}

func (w *keyedWriter) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.w.Close()
}

// Concat writes the Parquet files at paths to w as one file, in order: the
// row groups of each, copied as they are (their compressed pages spliced in
// where the files were written as this package writes them), so memory
// holds one row group at a time. The files must have one schema, as the
// parts of a batch's dataset written by [NewKeyedLong] with the same keys'
// names and types have; a file of another schema fails naming it. paths
// must not be empty. The file written ends with its footer; w is not
// closed.
func Concat(w io.Writer, paths []string) error {
	if len(paths) == 0 {
		return fmt.Errorf("parquetfile: nothing to concatenate")
	}
	var pw *parquet.GenericWriter[any]
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = copyFile(&pw, w, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("parquetfile: %s: %w", path, err)
		}
	}
	return pw.Close()
}

// copyFile copies the row groups of the Parquet file f to *pw, made at
// the first file with its schema.
func copyFile(pw **parquet.GenericWriter[any], w io.Writer, f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, info.Size(), parquet.SkipBloomFilters(true))
	if err != nil {
		return err
	}
	if *pw == nil {
		*pw = parquet.NewGenericWriter[any](w, append(writerOptions(), pf.Schema())...)
	}
	if !parquet.EqualNodes((*pw).Schema(), pf.Schema()) {
		return fmt.Errorf("its schema differs from the first file's:\n%s\nwant\n%s", pf.Schema(), (*pw).Schema())
	}
	for _, rg := range pf.RowGroups() {
		if _, err := (*pw).WriteRowGroup(rg); err != nil {
			return err
		}
	}
	return nil
}
