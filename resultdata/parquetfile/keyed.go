package parquetfile

import (
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/scmodel/scmgo/resultdata"
)

// keyedWriter writes the long layout with keys before its columns.
type keyedWriter struct {
	w    *parquet.Writer
	keys []parquet.Value // the keys' values, at their columns
	rows []parquet.Row
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
	return &keyedWriter{w: parquet.NewWriter(w, append(writerOptions(), schema)...), keys: vals}
}

func (w *keyedWriter) Write(r resultdata.Row) error {
	c := r.Chart
	for i, v := range r.Values {
		if v.Kind == resultdata.Empty {
			continue
		}
		w.rows = append(w.rows, w.record(c, r, i, v))
		if len(w.rows) == batchRows {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// record is the record of value v, of column i of row r.
func (w *keyedWriter) record(c *resultdata.Chart, r resultdata.Row, i int, v resultdata.Value) parquet.Row {
	n := len(w.keys)
	row := make(parquet.Row, 0, n+len(resultdata.LongColumns))
	row = append(row, w.keys...)
	str := func(s string, col int) parquet.Value { return parquet.ByteArrayValue([]byte(s)).Level(0, 0, n+col) }
	row = append(row, parquet.Int64Value(int64(c.ResultID)).Level(0, 0, n), parquet.Int64Value(int64(c.PageID)).Level(0, 0, n+1),
		str(c.Page, 2), str(c.Sheet, 3), str(c.Type, 4), str(c.Statistics, 5), str(c.Name, 6),
		parquet.Int64Value(r.Index).Level(0, 0, n+7), parquet.Int64Value(r.SheetRow).Level(0, 0, n+8),
		str(c.Columns[i].Name, 9), str(v.Kind.String(), 10))
	for slot, kind := range []resultdata.Kind{resultdata.Number, resultdata.Time, resultdata.Text, resultdata.Bool} {
		col := n + 11 + slot
		if kind != v.Kind {
			row = append(row, parquet.NullValue().Level(0, 0, col))
			continue
		}
		row = append(row, longValue(v).Level(0, 1, col))
	}
	return row
}

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
	_, err := w.w.WriteRows(w.rows)
	w.rows = w.rows[:0]
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
	var pw *parquet.Writer
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
func copyFile(pw **parquet.Writer, w io.Writer, f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, info.Size(), parquet.SkipBloomFilters(true))
	if err != nil {
		return err
	}
	if *pw == nil {
		*pw = parquet.NewWriter(w, append(writerOptions(), pf.Schema())...)
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
