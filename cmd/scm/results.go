package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
		format   *string
	)
	cmd := &cobra.Command{
		Use:   "pages RESULT [--charts] [--format table|json]",
		Short: "List the dashboard pages of a result",
		Long: `pages lists the dashboard pages of a result: its experimentResultId is what
scm run --wait or --sync prints. Each page's id is what scm export page takes;
scm export dashboard exports them all into one workbook. --charts lists each
page's charts too, with their ids as the dashboard gives them.`,
		Example: "  scm results pages 5002\n  scm results pages 5002 --charts",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkListFormat(*format); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			pages, err := c.Dashboards.Pages(cmd.Context(), resultID)
			if err != nil {
				return a.resultIDHint(cmd.Context(), c, resultID, err)
			}
			if like := a.rcIDLike(cmd.Context(), c, resultID); like != "" {
				fmt.Fprintf(a.stderr, "scm results pages: note: %s\n", like) // a real server lists pages for an rcId too, of no result
			}
			return a.printList(*format, pages, func() error {
				if charts {
					return a.pageCharts(pages)
				}
				tw := a.table("PAGE", "NAME", "CHARTS")
				for _, p := range pages {
					fmt.Fprintf(tw, "%d\t%s\t%d\n", p.Id, p.Name, len(deref(p.Charts)))
				}
				return tw.Flush()
			})
		},
	}
	idArg(cmd, &resultID, "result")
	format = listFormat(cmd)
	cmd.Flags().BoolVar(&charts, "charts", false, "list each page's charts, with their ids")
	return a.withTimeLimits(cmd)
}

func (a *app) resultsTableCommand() *cobra.Command {
	var (
		rcID         ids.RcID
		chartID      int64
		format       string
		numbered     bool
		keepFormulas bool
		page         facade.PageOptions
	)
	cmd := &cobra.Command{
		Use:   "table RCID --chart CHARTID [--format json|csv|table] [--numbered-columns]",
		Short: "Stream the rows of a table chart",
		Long: `table streams every row of a table chart, a batch at a time: memory stays
constant however long the table is. json writes one object per row (JSON
Lines) keyed by column name, in the columns' order; csv and table start
with the column names. Results are read by rcId (the latest finished run);
chart ids come from the result's pages (scm call
getExperimentRunResultPageCharts --rcId RCID --pageId PAGE).

The table data names no columns, so their names are read where the
dashboard has them: the chart's sheet in the workbook of the dashboard page
that lists it (row 5, as scm export page writes it), from the latest
result of the rcId: one more export, of that one page. When they cannot be
read (no result listed yet, no page lists the chart, the export refused,
the chart's sheet without its header row, a header shorter than the rows)
the columns without a name are numbered column1..N and a note on standard
error says which and why. --numbered-columns numbers every column and makes
no export.

In CSV, a text that begins with =, +, -, @, a tab or a carriage return (a
cell's, or a column's name) is written with a single quote before it, so
that a spreadsheet opening the file shows it rather than runs it as a
formula; numbers are written as they are. --keep-formulas writes every
text as the server sent it.`,
		Example: "  scm results table 10303 --chart 101 --format csv --max 10\n  scm results table 10303 --chart 101 --numbered-columns",
		RunE: func(cmd *cobra.Command, _ []string) error {
			w, err := newRowWriter(format, a.stdout, csvsafe.Options{KeepFormulas: keepFormulas})
			if err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			w.note = func(text string) { fmt.Fprintf(a.stderr, "scm results table: note: %s\n", text) }
			w.header = tableHeader{skipped: true}
			if !numbered {
				w.header = a.chartHeader(cmd.Context(), c, rcID, chartID)
			}
			for b, err := range c.Results.ChartTableBatches(cmd.Context(), rcID, chartID, &page) {
				if err != nil {
					return err
				}
				if err := w.batch(b); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	idArg(cmd, &rcID, "rc")
	f.Int64Var(&chartID, "chart", 0, "chart id (required)")
	f.StringVar(&format, "format", "table", "json, csv or table")
	f.BoolVar(&keepFormulas, "keep-formulas", false, keepFormulasHelp)
	f.BoolVar(&numbered, "numbered-columns", false, "name the columns column1..N, without the export of the chart's dashboard page that reads its header")
	f.IntVar(&page.PageSize, "page-size", facade.DefaultPageSize, "rows per request")
	f.IntVar(&page.MaxItems, "max", 0, "stop after this many rows (0: all)")
	f.IntVar(&page.Prefetch, "prefetch", 2, "batches requested ahead, concurrently")
	_ = cmd.MarkFlagRequired("chart")
	return a.withTimeLimits(cmd)
}

// rowWriter writes the pages of a table in one format. The table data
// names no columns: the header names them as the chart's header does
// (tableHeader), and numbers those it does not name, as many as the
// header or the first row has, whichever is more.
type rowWriter struct {
	format  string
	out     io.Writer
	csv     *csvsafe.Writer
	columns []string
	header  tableHeader
	note    func(string) // says once why columns are numbered
}

func newRowWriter(format string, out io.Writer, csvOpts csvsafe.Options) (*rowWriter, error) {
	switch format {
	case "json", "csv", "table":
	default:
		return nil, usagef("results table: --format %q: want json, csv or table", format)
	}
	return &rowWriter{format: format, out: out, csv: csvsafe.NewWriter(out, csvOpts), note: func(string) {}}, nil
}

func (w *rowWriter) batch(p *gen.ApiStrictTableChartData) error {
	first := w.columns == nil
	if first {
		w.nameColumns(p.EntityList)
	}
	switch w.format {
	case "json":
		return w.jsonRows(p.EntityList)
	case "csv":
		return w.csvRows(p.EntityList, first)
	default:
		return w.tableRows(p.EntityList, first)
	}
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

// jsonRows writes an object per row, its keys in the columns' order.
func (w *rowWriter) jsonRows(rows []gen.Row) error {
	var b bytes.Buffer
	for _, r := range rows {
		b.Reset()
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
		b.WriteString("}\n")
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

// pageCharts lists each page's charts under it: the page, then a line per
// chart with its id and name.
func (a *app) pageCharts(pages []gen.ApiDashboardPage) error {
	tw := a.table("PAGE", "NAME", "CHART", "CHART NAME")
	for _, p := range pages {
		fmt.Fprintf(tw, "%d\t%s\t\t\n", p.Id, p.Name)
		for _, ch := range deref(p.Charts) {
			fmt.Fprintf(tw, "\t\t%d\t%s\n", ch.Id, ch.Name)
		}
	}
	return tw.Flush()
}
