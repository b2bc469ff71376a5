package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// parquetData is the Parquet format of a batch's dataset.
var parquetData = &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}

// dataFormats are the formats of scm batch --data-format.
var dataFormats = map[string]*batch.DataFormat{"csv": batch.CSV, "jsonl": batch.JSONL, "parquet": parquetData}

// batchDataset is the dataset of scm batch --data PATH [--data-format F]:
// the format named, or the one PATH's extension names; nil without --data.
// keepFormulas (--keep-formulas) writes CSV's text as sent.
func batchDataset(path, format string, keepFormulas bool) (*batch.Dataset, error) {
	switch {
	case path == "" && format != "":
		return nil, usagef("batch: --data-format %s without --data: name the dataset's file", format)
	case path == "":
		return nil, nil
	}
	f, ok := dataFormats[format]
	byExt := extensions[strings.ToLower(filepath.Ext(path))]
	switch {
	case format != "" && !ok:
		return nil, usagef("batch: --data-format %q: want csv, jsonl or parquet", format)
	case format != "" && byExt != "" && string(byExt) != format:
		return nil, usagef("batch: --data-format %s and --data %s disagree: %s is the extension of %s; drop one, or make them agree",
			format, path, filepath.Ext(path), byExt)
	case format == "":
		f = dataFormats[strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")]
		if f == nil {
			f = batch.FormatOf(path)
		}
	}
	if f == nil {
		return nil, usagef("batch: --data %s: its extension names no format (.csv, .jsonl, .parquet); give one with --data-format", path)
	}
	if keepFormulas && f == batch.CSV {
		f = batch.CSVKeepFormulas
	}
	return &batch.Dataset{Path: path, Format: f}, nil
}

// redactedFormat is f writing its parts through the client's Redactor,
// as standard output is, when f is a text format (CSV, JSON Lines);
// Parquet is written as it is.
func (a *app) redactedFormat(f *batch.DataFormat) *batch.DataFormat {
	if f == nil || f == parquetData || a.redactor == nil {
		return f
	}
	text := *f
	text.NewWriter = func(w io.Writer, keys []resultdata.Key) resultdata.RowWriter {
		return a.redactedRows(w, func(w io.Writer) resultdata.RowWriter { return f.NewWriter(w, keys) })
	}
	return &text
}

// writeDataSummary says what the dataset holds, after the summary.
func writeDataSummary(out io.Writer, d *batch.DataSummary, items int) error {
	if d == nil || d.Err != nil {
		return nil
	}
	what := "Wrote"
	if !d.Written {
		what = "Unchanged"
	}
	_, err := fmt.Fprintf(out, "%s %s: %d records (%d rows) of %d of %d items.\n", what, d.Path, d.Records, d.Rows, d.Items, items)
	return err
}

// note shows a note of the reader of an item's workbooks, on a line of its
// own: never silent, even with --quiet.
func (d *batchDisplay) note(item string, n resultdata.Note) {
	if d.live {
		d.clear()
	}
	fmt.Fprintf(d.errOut, "%s: note: %s (%s)\n", item, n, n.Read)
	if d.live {
		d.redraw()
	}
}
