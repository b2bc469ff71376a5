package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// exportFormats are the formats of scm results export, with their file
// extensions.
var exportFormats = map[string]string{"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}

func (a *app) resultsExportCommand() *cobra.Command {
	var (
		format, output string
		resultID       ids.ExperimentResultID
		keepFormulas   bool
	)
	cmd := &cobra.Command{
		Use:   "export RESULT -o PATH [--format csv|jsonl|parquet]",
		Short: "Write every number of a result as rows: CSV, JSON Lines or Parquet",
		Long: `export reads every dashboard page of a result (its experimentResultId is what
scm run --wait or --sync prints), as the page workbooks the server exports,
and writes their charts' rows.

-o FILE writes one file in the long layout: a row per value, with the
columns result_id, page_id, page, sheet, chart_type, statistics, chart_name,
row, sheet_row, column, kind, and the value in number, time, text or bool.
-o DIR/ (ending in a slash, or a directory that exists) writes a file per
chart, named after its page and sheet, in the chart layout: the same
provenance columns, then the chart's own columns under its header's names.
-o - writes the long layout to standard output (the summary then goes to
standard error). --format is taken from the file's extension (.csv, .jsonl,
.parquet) when it is not given; a directory and standard output need it.

In CSV, a text that begins with =, +, -, @, a tab or a carriage return (a
cell's, or a page's, sheet's, chart's or column's name) is written with a
single quote before it, so that a spreadsheet opening the file shows it
rather than runs it as a formula; numbers are written as they are.
--keep-formulas writes every text as the server sent it. JSON Lines and
Parquet always keep the text as sent.

Each file is replaced whole, or left as it was when the export fails,
--timeout passing included: it bounds the reading and the writing. A
result that lists no pages is an error (exit 1), and writes no file.

Progress goes to standard error, a line per page; so does a note for each
sheet, or part of one, that was not laid out as the recorded workbooks are,
saying what was read, what was skipped and where.`,
		Example: "  scm results export 5002 -o result.parquet\n" +
			"  scm results export 5002 --format csv -o charts/\n" +
			"  scm results export 5002 --format jsonl -o -",
		Args: oneID(&resultID),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format == "" {
				format = strings.TrimPrefix(filepath.Ext(output), ".")
				if output == "-" || isDir(output) || exportFormats[format] == "" {
					return usagef("--format is needed: -o %s names no format by its extension (.csv, .jsonl, .parquet)", output)
				}
			}
			ext, ok := exportFormats[format]
			if !ok {
				return usagef("--format %q: want csv, jsonl or parquet", format)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			e := &resultExport{a: a, format: format, ext: ext, pageDone: -1, csv: resultdata.CSVOptions{KeepFormulas: keepFormulas}}
			return a.resultIDHint(cmd.Context(), c, resultID, e.run(cmd.Context(), c, resultID, output))
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", "csv, jsonl or parquet (default: the extension of -o)")
	f.StringVarP(&output, "output", "o", "", "file to write, a directory for a file per chart, or - for standard output (required)")
	f.BoolVar(&keepFormulas, "keep-formulas", false, keepFormulasHelp)
	_ = cmd.MarkFlagRequired("output")
	return a.withTimeLimits(cmd)
}

// keepFormulasHelp is the help of --keep-formulas.
const keepFormulasHelp = "CSV: write text beginning with =, +, -, @, a tab or a carriage return as sent, without the single quote that keeps a spreadsheet from running it"

// resultExport is one run of scm results export.
type resultExport struct {
	a           *app
	format, ext string
	csv         resultdata.CSVOptions
	rows        int64
	values      int64 // not empty: a record each in the long layout
	charts      int
	notes       int
	pages       *resultBars
	pageDone    ids.PageID // the id of the page read whole last
}

func (e *resultExport) run(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, output string) error {
	e.pages = &resultBars{a: e.a}
	defer e.pages.done()
	opts := &resultdata.ResultOptions{Options: resultdata.Options{Notes: e.note}, Progress: e.progress}
	rows := e.count(resultdata.Result(ctx, c, resultID, opts))
	var err error
	summary := e.a.stdout
	switch {
	case output == "-":
		summary = e.a.stderr
		err = writeRows(ctx, e.stdoutWriter(), rows)
	case isDir(output):
		err = e.writeCharts(ctx, rows, output)
	default:
		err = writeFileWith(output, func(w io.Writer) error { return writeRows(ctx, e.longWriter(w), rows) })
	}
	if err != nil {
		return err
	}
	e.pages.done()
	if isDir(output) {
		abs, _ := filepath.Abs(output)
		_, err = fmt.Fprintf(summary, "Wrote %s: %d files, a chart each, of %d rows in all (a record each), %d notes.\n", abs, e.charts, e.rows, e.notes)
		return err
	}
	where := "standard output"
	if output != "-" {
		where, _ = filepath.Abs(output)
	}
	_, err = fmt.Fprintf(summary, "Wrote %s: %d records (a value each) from %d rows of %d charts, %d notes.\n", where, e.values, e.rows, e.charts, e.notes)
	return err
}

// count counts the rows and charts going by.
func (e *resultExport) count(rows iter.Seq2[resultdata.Row, error]) iter.Seq2[resultdata.Row, error] {
	return func(yield func(resultdata.Row, error) bool) {
		var last *resultdata.Chart
		for row, err := range rows {
			if err == nil {
				for _, v := range row.Values {
					if v.Kind != resultdata.Empty {
						e.values++
					}
				}
				if e.rows++; row.Chart != last {
					e.charts, last = e.charts+1, row.Chart
				}
			}
			if !yield(row, err) {
				return
			}
		}
	}
}

func (e *resultExport) progress(p resultdata.PageProgress) {
	if p.Stage == resultdata.Done {
		e.pageDone = p.Page.Id
	}
	e.pages.update(p)
}

// note prints a note on standard error: never silent, even with --quiet.
func (e *resultExport) note(n resultdata.Note) {
	e.notes++
	e.pages.interrupt()
	fmt.Fprintf(e.a.stderr, "scm results export: note: %s (%s)\n", n, n.Read)
}

// isDir tells an output that is a directory: one that ends in a slash or
// names a directory.
func isDir(path string) bool {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return true
	}
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// stdoutWriter writes the long layout to standard output: a text format
// through the stream, which redacts, Parquet as it is.
func (e *resultExport) stdoutWriter() resultdata.RowWriter {
	switch e.format {
	case "csv":
		return e.csv.NewCSV(e.a.stdout)
	case "jsonl":
		return resultdata.NewJSONL(e.a.stdout)
	}
	return parquetfile.NewLong(e.a.binaryStdout())
}

// longWriter writes the long layout to a file: a text format through the
// client's Redactor, as standard output is; Parquet as it is.
func (e *resultExport) longWriter(w io.Writer) resultdata.RowWriter {
	switch e.format {
	case "csv":
		return e.a.redactedRows(w, e.csv.NewCSV)
	case "jsonl":
		return e.a.redactedRows(w, resultdata.NewJSONL)
	}
	return parquetfile.NewLong(w)
}

// chartWriter writes a chart's file in the chart layout, as longWriter
// does the long layout.
func (e *resultExport) chartWriter(w io.Writer, c *resultdata.Chart) resultdata.RowWriter {
	switch e.format {
	case "csv":
		return e.a.redactedRows(w, func(w io.Writer) resultdata.RowWriter { return e.csv.NewChartCSV(w, c) })
	case "jsonl":
		return e.a.redactedRows(w, func(w io.Writer) resultdata.RowWriter { return resultdata.NewChartJSONL(w, c) })
	}
	return parquetfile.NewChart(w, c, e.note)
}

// writeRows writes every row to rw and closes it, within ctx: its end
// (--timeout) ends the writing too.
func writeRows(ctx context.Context, rw resultdata.RowWriter, rows iter.Seq2[resultdata.Row, error]) error {
	for row, err := range rows {
		if err == nil {
			err = context.Cause(ctx)
		}
		if err != nil {
			return err
		}
		if err := rw.Write(row); err != nil {
			return err
		}
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return rw.Close()
}

// writeCharts writes each chart's rows to a file of its own in dir, each
// replaced whole as its chart ends: a failure leaves the files of the
// charts before it, whole, and none of the chart it happened in. A chart
// ends with the next chart's first row, or with its page: a failure after
// its page was read whole leaves its file.
func (e *resultExport) writeCharts(ctx context.Context, rows iter.Seq2[resultdata.Row, error], dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	next, stop := iter.Pull2(rows)
	defer stop()
	cur := &rowCursor{next: next}
	names := map[string]bool{}
	for cur.advance(); cur.ok && cur.err == nil; {
		chart := cur.row.Chart
		path := filepath.Join(dir, uniqueFile(names, e.fileName(chart))+e.ext)
		if err := writeFileWith(path, func(w io.Writer) error { return e.writeChart(ctx, w, chart, cur) }); err != nil {
			return err
		}
	}
	return cur.err
}

// fileName is the name of a chart's file: resultdata.FileName of its page
// and sheet without the client's secrets, which a name is no place for.
func (e *resultExport) fileName(c *resultdata.Chart) string {
	named := *c
	named.Page, named.Sheet = e.a.redactor.Redact(c.Page), e.a.redactor.Redact(c.Sheet)
	return resultdata.FileName(&named)
}

// rowCursor is the row a pulled iteration is at.
type rowCursor struct {
	next func() (resultdata.Row, error, bool)
	row  resultdata.Row
	err  error
	ok   bool
}

func (c *rowCursor) advance() { c.row, c.err, c.ok = c.next() }

// writeChart writes the rows of chart from cur on, up to the next chart's
// first row. An error before the chart's end is returned; one after its
// page was read whole is left in cur for the caller.
func (e *resultExport) writeChart(ctx context.Context, w io.Writer, chart *resultdata.Chart, cur *rowCursor) error {
	rw := e.chartWriter(w, chart)
	for ; cur.ok && cur.err == nil && cur.row.Chart == chart; cur.advance() {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		if err := rw.Write(cur.row); err != nil {
			return err
		}
	}
	if cur.err != nil && chart.PageID != e.pageDone {
		return cur.err
	}
	return rw.Close()
}

// uniqueFile is name, numbered " (2)", " (3)", ... when a file of the
// export has it already, ignoring case.
func uniqueFile(names map[string]bool, name string) string {
	out := name
	for i := 2; names[strings.ToLower(out)]; i++ {
		out = name + " (" + strconv.Itoa(i) + ")"
	}
	names[strings.ToLower(out)] = true
	return out
}

// resultBars shows a progress display per dashboard page: a bar on a
// terminal, a line per page when it is read otherwise.
type resultBars struct {
	a     *app
	index int
	bar   *progress
}

func (b *resultBars) update(p resultdata.PageProgress) {
	if p.Index != b.index {
		b.done()
		b.index = p.Index
		b.bar = b.a.newProgress(fmt.Sprintf("page %d/%d %s", p.Index, p.Total, p.Page.Name))
	}
	switch {
	case p.Stage == resultdata.Done:
		b.bar.update(fmt.Sprintf("%d rows", p.Rows), 100)
	case b.bar.bar == nil:
		// plain lines: one per page, when it is read
	case p.Stage == resultdata.Reading:
		b.bar.update(fmt.Sprintf("%d rows", p.Rows), 50)
	case p.Size > 0:
		b.bar.update("download", min(49, float64(p.Bytes)*49/float64(p.Size)))
	default:
		b.bar.update("download", 0)
	}
}

// interrupt ends the current bar's line so that a note starts on a line
// of its own.
func (b *resultBars) interrupt() {
	if b.bar != nil && b.bar.bar != nil {
		fmt.Fprintln(b.a.stderr)
	}
}

func (b *resultBars) done() {
	if b.bar != nil {
		b.bar.done()
		b.bar = nil
	}
}
