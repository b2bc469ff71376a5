// Package parquetfile writes the rows of package resultdata as Parquet
// files, in resultdata's long layout ([NewLong], and [NewKeyedLong] with
// key columns first) or a chart's layout ([NewChart]), through
// github.com/parquet-go/parquet-go; [Concat] joins files of one schema,
// such as the parts of a batch's dataset, into one.
//
// It is a package of its own so that a program that reads results, or
// writes them as CSV or JSON Lines, links no Parquet library.
//
// Files are compressed with Snappy, which every Parquet reader reads and
// whose encoder holds little (parquet-go's zstd encoders held 50 to 90 MiB
// while a result was written, Snappy's writer 17 to 24 MiB in all); text
// columns of few values (page, sheet, chart metadata, column names) are
// dictionary-encoded; rows are grouped by [RowGroupRows], so memory holds
// one row group at a time whatever the number of rows. Times are TIMESTAMP(MICROS) not adjusted to
// UTC, the wall-clock time the workbook shows: DuckDB reads them as
// TIMESTAMP, pandas as datetime64 without a zone.
package parquetfile

import (
	"io"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/scmodel/scmgo/resultdata"
)

// RowGroupRows is the number of records a row group holds at most.
const RowGroupRows = 128 << 10

// batchRows is the number of records handed to the Parquet writer at once.
const batchRows = 1024

// longRecord is a record of the long layout; its fields are
// resultdata.LongColumns, in order.
type longRecord struct {
	ResultID   int64      `parquet:"result_id"`
	PageID     int64      `parquet:"page_id"`
	Page       string     `parquet:"page,dict"`
	Sheet      string     `parquet:"sheet,dict"`
	ChartType  string     `parquet:"chart_type,dict"`
	Statistics string     `parquet:"statistics,dict"`
	ChartName  string     `parquet:"chart_name,dict"`
	Row        int64      `parquet:"row"`
	SheetRow   int64      `parquet:"sheet_row"`
	Column     string     `parquet:"column,dict"`
	Kind       string     `parquet:"kind,dict"`
	Number     *float64   `parquet:"number,optional"`
	Time       *time.Time `parquet:"time,optional,timestamp(microsecond:local)"`
	Text       *string    `parquet:"text,optional"`
	Bool       *bool      `parquet:"bool,optional"`
}

// longWriter writes records in batches; the values that optional fields
// point to live beside the batch.
type longWriter struct {
	w     *parquet.GenericWriter[longRecord]
	batch []longRecord
	vals  []resultdata.Value
}

// NewLong writes the long layout (resultdata.LongColumns) as Parquet to
// w: result_id, page_id, row and sheet_row are INT64; number DOUBLE; time
// TIMESTAMP; bool BOOLEAN; the others strings. Close writes the footer; it
// does not close w.
func NewLong(w io.Writer) resultdata.RowWriter {
	return &longWriter{
		w:     parquet.NewGenericWriter[longRecord](w, writerOptions()...),
		batch: make([]longRecord, 0, batchRows),
		vals:  make([]resultdata.Value, 0, batchRows),
	}
}

func writerOptions() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(RowGroupRows),
		parquet.CreatedBy("scmgo resultdata", "", "")}
}

func (w *longWriter) Write(r resultdata.Row) error {
	c := r.Chart
	for i, v := range r.Values {
		if v.Kind == resultdata.Empty {
			continue
		}
		w.batch = append(w.batch, longRecord{ResultID: int64(c.ResultID), PageID: int64(c.PageID), Page: c.Page, Sheet: c.Sheet,
			ChartType: c.Type, Statistics: c.Statistics, ChartName: c.Name, Row: r.Index, SheetRow: r.SheetRow,
			Column: c.Columns[i].Name, Kind: v.Kind.String()})
		w.vals = append(w.vals, v)
		if len(w.batch) == batchRows {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush points each record's value field at its value and writes the
// batch.
func (w *longWriter) flush() error {
	for i := range w.batch {
		v, rec := &w.vals[i], &w.batch[i]
		switch v.Kind {
		case resultdata.Number:
			rec.Number = &v.Num
		case resultdata.Time:
			rec.Time = &v.Time
		case resultdata.Text:
			rec.Text = &v.Text
		case resultdata.Bool:
			rec.Bool = &v.Bool
		}
	}
	_, err := w.w.Write(w.batch)
	w.batch, w.vals = w.batch[:0], w.vals[:0]
	return err
}

func (w *longWriter) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.w.Close()
}
