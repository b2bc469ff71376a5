package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/csvsafe"
)

func (a *app) resultsCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "results", Short: "Read run results", Args: noArgs}
	cmd.AddCommand(a.resultsPagesCommand(), a.resultsTableCommand(), a.resultsExportCommand())
	return cmd
}

func (a *app) resultsPagesCommand() *cobra.Command {
	var (
		resultID ids.ExperimentResultID
		charts   bool
		out      *listOutput
	)
	cmd := &cobra.Command{
		Use:   "pages RESULT [--charts] [--format table|json|jsonl|csv] [-o PATH]",
		Short: "List the dashboard pages of a result",
		Long: `pages lists the dashboard pages of a result: its experimentResultId is what
scm run --wait or --sync prints. Each page's id is what scm export page takes;
scm export dashboard exports them all into one workbook. --charts lists each
page's charts too, with their ids as the dashboard gives them: the ids scm
results table takes.

An rcId given as RESULT is refused (exit 2), naming its latest result: a
server lists dashboard pages for an rcId too, of no result.`,
		Example: "  scm results pages 5002\n  scm results pages 5002 --charts",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			pages, err := c.Dashboards.Pages(cmd.Context(), resultID)
			if err != nil {
				return a.resultIDHint(cmd.Context(), c, resultID, err)
			}
			if err := a.rcIDRefusal(cmd.Context(), c, resultID); err != nil {
				return err
			}
			return out.write(pagesTable(pages, charts, out.format != formatTable))
		},
	}
	idArg(cmd, &resultID, "result")
	cmd.Flags().BoolVar(&charts, "charts", false, "list each page's charts, with their ids")
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

// pagesTable is the table of a result's pages: a row per page, or with
// charts a row per chart, under its page (flat: the page's id and name
// on each chart's row, for csv).
func pagesTable(pages []gen.ApiDashboardPage, charts, flat bool) listTable {
	if !charts {
		l := listTable{items: pages, header: []string{"PAGE", "NAME", "CHARTS"}}
		for _, p := range pages {
			l.add(numberCell(p.Id), textCell(p.Name), intCell(len(deref(p.Charts))))
		}
		return l
	}
	l := listTable{items: pages, header: []string{"PAGE", "NAME", "CHART", "CHART NAME"}}
	for _, p := range pages {
		if !flat {
			l.add(numberCell(p.Id), textCell(p.Name), textCell(""), textCell(""))
		}
		for _, ch := range deref(p.Charts) {
			if flat {
				l.add(numberCell(p.Id), textCell(p.Name), numberCell(chartID(ch.Id)), textCell(ch.Name))
			} else {
				l.add(textCell(""), textCell(""), numberCell(chartID(ch.Id)), textCell(ch.Name))
			}
		}
	}
	return l
}

// chartID is a chart's id, as a cell shows it.
type chartID int64

func (id chartID) String() string { return strconv.FormatInt(int64(id), 10) }

// tableFlags are the settings of scm results table.
type tableFlags struct {
	chartID  int64
	numbered bool
	page     facade.PageOptions
}

func (a *app) resultsTableCommand() *cobra.Command {
	var (
		resultID ids.ExperimentResultID
		f        tableFlags
		out      *listOutput
	)
	cmd := &cobra.Command{
		Use:   "table RESULT --chart CHART [--format table|json|jsonl|csv] [--numbered-columns] [-o PATH]",
		Short: "Stream the rows of a chart of a result",
		Long: `table streams every row of a chart of a result, a batch at a time: memory
stays constant however long the table is. RESULT is an experimentResultId
(what scm run --wait or --sync prints) and CHART a chart id as scm results
pages RESULT --charts lists it. json writes one array of objects, jsonl an
object per line, each keyed by column name in the columns' order; csv and
table start with the column names.

The server's table data (getExperimentRunResultChartTableData) is read by
the rcId of a run configuration and a chart id of the statistics pages of
its latest result, not by the result and the dashboard's chart id. table
finds both: the run configuration from the runs the scenarios list (the run
whose result RESULT is, and the configuration of its type), and the chart
of the same page name, chart name and place among the charts of that name
on the configuration's statistics pages. The table data is the latest
result's: a RESULT that is not its configuration's latest is refused (scm
results export reads any result). An rcId given as RESULT is refused too,
naming its latest result.

The table data names no columns, so their names are read where the
dashboard has them: the chart's sheet in the workbook of the dashboard
page that lists it (row 5, as scm export page writes it): one more export,
of that one page. When they cannot be read (the export refused, the
chart's sheet without its header row, a header shorter than the rows) the
columns without a name are numbered column1..N and a note on standard
error says which and why. --numbered-columns numbers every column and
makes no export.

In CSV, a text that begins with =, +, -, @, a tab or a carriage return (a
cell's, or a column's name) is written with a single quote before it, so
that a spreadsheet opening the file shows it rather than runs it as a
formula; numbers are written as they are. --keep-formulas writes every
text as the server sent it.`,
		Example: "  scm results table 5002 --chart 5005 --format csv --max 10\n  scm results table 5002 --chart 5005 --numbered-columns",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			return a.streamTable(cmd.Context(), c, resultID, f, out)
		},
	}
	idArg(cmd, &resultID, "")
	fl := cmd.Flags()
	fl.Int64Var(&f.chartID, "chart", 0, "chart id, as scm results pages RESULT --charts lists it (required)")
	fl.BoolVar(&f.numbered, "numbered-columns", false, "name the columns column1..N, without the export of the chart's dashboard page that reads its header")
	fl.IntVar(&f.page.PageSize, "page-size", facade.DefaultPageSize, "rows per request")
	fl.IntVar(&f.page.MaxItems, "max", 0, "stop after this many rows (0: all)")
	fl.IntVar(&f.page.Prefetch, "prefetch", 2, "batches requested ahead, concurrently")
	_ = cmd.MarkFlagRequired("chart")
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

// check refuses paging flags the SDK would refuse, before anything is
// sent: finding the chart sends several requests.
func (f tableFlags) check() error {
	const op = "getExperimentRunResultChartTableData"
	switch p := f.page; {
	case p.PageSize < 1 || p.PageSize > math.MaxInt32:
		return usagef("%s: --page-size %d: want 1 to %d rows a request", op, p.PageSize, math.MaxInt32)
	case p.MaxItems < 0:
		return usagef("%s: --max %d is negative", op, p.MaxItems)
	case p.Prefetch < 0 || p.Prefetch > facade.MaxPrefetch:
		return usagef("%s: --prefetch %d: want 0 to %d batches ahead", op, p.Prefetch, facade.MaxPrefetch)
	}
	return nil
}

// streamTable writes the rows of a chart of a result, a batch at a time.
func (a *app) streamTable(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, f tableFlags, out *listOutput) error {
	chart, err := a.locateChart(ctx, c, resultID, f.chartID)
	if err != nil {
		return err
	}
	w := newRowWriter(out.format, a.stdout, csvsafe.Options{KeepFormulas: out.keepFormulas})
	w.note = func(text string) { fmt.Fprintf(a.stderr, "scm results table: note: %s\n", text) }
	w.header = tableHeader{skipped: true}
	if !f.numbered {
		w.header = a.header(ctx, c, chart)
	}
	for b, err := range c.Results.ChartTableBatches(ctx, chart.rcID, chart.dataID, &f.page) {
		if err != nil {
			return err
		}
		if err := w.batch(b); err != nil {
			return err
		}
	}
	return w.end()
}

// rowWriter writes the pages of a table in one format. The table data
// names no columns: the header names them as the chart's header does
// (tableHeader), and numbers those it does not name, as many as the
// header or the first row has, whichever is more.
type rowWriter struct {
	format  format
	rows    int64 // the rows written
	out     io.Writer
	csv     *csvsafe.Writer
	columns []string
	header  tableHeader
	note    func(string) // says once why columns are numbered
}

func newRowWriter(f format, out io.Writer, csvOpts csvsafe.Options) *rowWriter {
	return &rowWriter{format: f, out: out, csv: csvsafe.NewWriter(out, csvOpts), note: func(string) {}}
}

func (w *rowWriter) batch(p *gen.ApiStrictTableChartData) error {
	first := w.columns == nil
	if first {
		w.nameColumns(p.EntityList)
	}
	switch w.format {
	case formatJSON, formatJSONL:
		return w.jsonRows(p.EntityList)
	case formatCSV:
		return w.csvRows(p.EntityList, first)
	default:
		return w.tableRows(p.EntityList, first)
	}
}

// end ends the table: json closes its array (an empty one for a table of
// no rows).
func (w *rowWriter) end() error {
	if w.format != formatJSON {
		return nil
	}
	end := "\n]\n"
	if w.rows == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(w.out, end)
	return err
}

// nameColumns names the columns of a table whose first rows are rows: by
// the chart's header, a name repeated numbered ("Name (2)"), and those it
// does not name by their number. Unless the user asked for numbers, it
// says why a column is numbered.
func (w *rowWriter) nameColumns(rows []gen.Row) {
	n := len(w.header.names)
	if len(rows) > 0 {
		n = max(n, len(rows[0].Cells))
	}
	w.columns = make([]string, n)
	seen := map[string]bool{}
	var numbered []string
	for i := range w.columns {
		name := ""
		if i < len(w.header.names) {
			name = w.header.names[i]
		}
		if name == "" {
			name = "column" + strconv.Itoa(i+1)
			numbered = append(numbered, name)
		}
		w.columns[i] = uniqueColumn(name, seen)
	}
	switch {
	case w.header.skipped:
	case w.header.why != "" && n > 0:
		w.note(fmt.Sprintf("the columns are numbered (%s), not named: %s", numberedRange(n), w.header.why))
	case w.header.why != "":
		w.note("the columns are numbered, not named: " + w.header.why)
	case len(numbered) > 0:
		w.note(fmt.Sprintf("the chart's header names %d of its %d columns: %s numbered", n-len(numbered), n, strings.Join(numbered, ", ")))
	}
}

// numberedRange names the columns numbered 1 to n: "column1",
// "column1, column2", "column1 to column5".
func numberedRange(n int) string {
	switch n {
	case 1:
		return "column1"
	case 2:
		return "column1, column2"
	}
	return "column1 to column" + strconv.Itoa(n)
}

// uniqueColumn is name, or, when a column before has it, name numbered:
// "Name (2)", "Name (3)", ...
func uniqueColumn(name string, seen map[string]bool) string {
	unique := name
	for i := 2; seen[unique]; i++ {
		unique = name + " (" + strconv.Itoa(i) + ")"
	}
	seen[unique] = true
	return unique
}

// jsonRows writes an object per row, its keys in the columns' order: a
// line each for jsonl, the elements of one array for json.
func (w *rowWriter) jsonRows(rows []gen.Row) error {
	var b bytes.Buffer
	for _, r := range rows {
		b.Reset()
		if w.format == formatJSON {
			b.WriteString(map[bool]string{true: "[\n", false: ",\n"}[w.rows == 0])
		}
		w.rows++
		b.WriteByte('{')
		for i, c := range r.Cells {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(w.column(i)) // a string always encodes
			b.Write(key)
			b.WriteByte(':')
			if err := jsonValue(&b, deref(c.Value)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		if w.format == formatJSONL {
			b.WriteByte('\n')
		}
		if _, err := w.out.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// jsonValue writes a cell's value compacted, null when it has none.
func jsonValue(b *bytes.Buffer, raw json.RawMessage) error {
	if len(raw) == 0 {
		b.WriteString("null")
		return nil
	}
	return json.Compact(b, raw)
}

// csvRows writes the rows through csvsafe: the column names and a
// string's cells as text fields, a number's as a number, any other value
// as its JSON text.
func (w *rowWriter) csvRows(rows []gen.Row, header bool) error {
	if header {
		if err := w.csv.WriteText(w.columns...); err != nil {
			return err
		}
	}
	for _, r := range rows {
		for _, c := range r.Cells {
			if text, isString := cellText(c); isString {
				w.csv.Text(text)
			} else {
				w.csv.Number(text)
			}
		}
		if err := w.csv.EndRecord(); err != nil {
			return err
		}
	}
	return w.csv.Flush()
}

// tableRows aligns one page at a time, so memory stays bounded by a page.
func (w *rowWriter) tableRows(rows []gen.Row, header bool) error {
	tw := tabwriter.NewWriter(w.out, 2, 8, 2, ' ', 0)
	if header {
		fmt.Fprintln(tw, strings.Join(w.columns, "\t"))
	}
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(cellStrings(r.Cells), "\t"))
	}
	return tw.Flush()
}

func (w *rowWriter) column(i int) string {
	if i < len(w.columns) {
		return w.columns[i]
	}
	return "column" + strconv.Itoa(i+1)
}

// cellStrings renders cells as text: strings unquoted, other values as the
// server sent them.
func cellStrings(cells []gen.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i], _ = cellText(c)
	}
	return out
}

// cellText is a cell's value as text: a string unquoted (isString), any
// other value as the server sent it.
func cellText(c gen.Cell) (text string, isString bool) {
	raw := deref(c.Value)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	return string(raw), false
}
