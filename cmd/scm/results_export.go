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

func (a *app) resultsExportCommand() *cobra.Command {
	var (
		resultID     ids.ExperimentResultID
		keepFormulas bool
		out          *output
	)
	cmd := &cobra.Command{
		Use:   "export RESULT [-o PATH|DIR/] [--format csv|jsonl|parquet]",
		Short: "Write every number of a result as rows: CSV, JSON Lines or Parquet",
		Long: `export reads every dashboard page of a result (its experimentResultId is what
scm run --wait or --sync prints), as the page workbooks the server exports,
and writes their charts' rows.

-o FILE writes one file in the long layout: a row per value, with the
columns result_id, page_id, page, sheet, chart_type, statistics, chart_name,
row, sheet_row, column, kind, and the value in number, time, text or bool.
-o DIR/ (ending in a slash) writes a file per chart, named after its page
and sheet, in the chart layout: the same provenance columns, then the
chart's own columns under its header's names. An -o that names a directory
without the slash is refused: the layout is asked for, never taken from
what is on disk. Without -o (or with -o -) the long layout goes to standard
output. The format is --format's, else the one the file's extension names
(.csv, .jsonl, .parquet), else csv; an extension that names another format
than --format is refused. Parquet is not written to a terminal.

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
saying what was read, what was skipped and where, and at the end a line
that says what was written, to a file or to standard output.`,
		Example: "  scm results export 5002 -o result.parquet\n" +
			"  scm results export 5002 --format csv -o charts/\n" +
			"  scm results export 5002 --format jsonl",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			e := &resultExport{a: a, out: out, format: out.format, ext: out.format.ext(), pageDone: -1, csv: resultdata.CSVOptions{KeepFormulas: keepFormulas}}
			return a.resultIDHint(cmd.Context(), c, resultID, e.run(cmd.Context(), c, resultID))
		},
	}
	idArg(cmd, &resultID, "")
	cmd.Flags().BoolVar(&keepFormulas, "keep-formulas", false, keepFormulasHelp)
	out = a.withOutput(cmd, formatCSV, formatJSONL, formatParquet).withLayouts(cmd)
	return a.withTimeLimits(cmd)
}

// keepFormulasHelp is the help of --keep-formulas.
const keepFormulasHelp = "CSV: write text beginning with =, +, -, @, a tab or a carriage return as sent, without the single quote that keeps a spreadsheet from running it"

// resultExport is one run of scm results export.
type resultExport struct {
	a        *app
	out      *output
	format   format
	ext      string
	csv      resultdata.CSVOptions
	rows     int64
	values   int64 // not empty: a record each in the long layout
	charts   int
	notes    int
	pages    *resultBars
	pageDone ids.PageID // the id of the page read whole last
}

// run writes the rows of a result: a file per chart in -o DIR/, else the
// long layout to standard output (-o's file), and says what it wrote.
func (e *resultExport) run(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID) error {
	e.pages = &resultBars{a: e.a}
	defer e.pages.done()
	opts := &resultdata.ResultOptions{Options: resultdata.Options{Notes: e.note}, Progress: e.progress}
	rows := e.count(resultdata.Result(ctx, c, resultID, opts))
	if e.out.dir {
		if err := e.writeCharts(ctx, rows, e.out.path); err != nil {
			return err
		}
		e.pages.done()
		return e.a.reportWrite(e.out.path, e.format, fmt.Sprintf("%d files, a chart each, of %d rows in all (a record each), %d notes", e.charts, e.rows, e.notes))
	}
	if err := writeRows(ctx, e.stdoutWriter(), rows); err != nil {
		return err
	}
	e.pages.done()
	e.out.summary = func() string {
		return fmt.Sprintf("%d records (a value each) from %d rows of %d charts, %d notes", e.values, e.rows, e.charts, e.notes)
	}
	if e.out.path == "-" {
		return e.a.reportWrite("-", e.format, e.out.summary())
	}
	return nil
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

// stdoutWriter writes the long layout to standard output (or -o's file):
// a text format through the stream, which redacts, Parquet as it is.
func (e *resultExport) stdoutWriter() resultdata.RowWriter {
	switch e.format {
	case formatCSV:
		return e.csv.NewCSV(e.a.stdout)
	case formatJSONL:
		return resultdata.NewJSONL(e.a.stdout)
	}
	return parquetfile.NewLong(e.a.binaryStdout())
}

// chartWriter writes a chart's file in the chart layout, as longWriter
// does the long layout.
func (e *resultExport) chartWriter(w io.Writer, c *resultdata.Chart) resultdata.RowWriter {
	switch e.format {
	case formatCSV:
		return e.a.redactedRows(w, func(w io.Writer) resultdata.RowWriter { return e.csv.NewChartCSV(w, c) })
	case formatJSONL:
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
		if err := e.a.writeFile(path, func(w io.Writer) error { return e.writeChart(ctx, w, chart, cur) }); err != nil {
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
