package main

import (
	"encoding/csv"
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
		rcID    ids.RcID
		chartID int64
		format  string
		page    facade.PageOptions
	)
	cmd := &cobra.Command{
		Use:   "table RCID --chart CHARTID [--format json|csv|table]",
		Short: "Stream the rows of a table chart",
		Long: `table streams every row of a table chart, a batch at a time: memory stays
constant however long the table is. json writes one object per row (JSON
Lines) keyed by column name; csv and table start with the column names.
Results are read by rcId (the latest finished run); chart ids come from the
result's pages (scm call getExperimentRunResultPageCharts --rcId RCID --pageId
PAGE).`,
		Example: "  scm results table 10303 --chart 101 --format csv --max 10",
		RunE: func(cmd *cobra.Command, _ []string) error {
			w, err := newRowWriter(format, a.stdout)
			if err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
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
	f.IntVar(&page.PageSize, "page-size", facade.DefaultPageSize, "rows per request")
	f.IntVar(&page.MaxItems, "max", 0, "stop after this many rows (0: all)")
	f.IntVar(&page.Prefetch, "prefetch", 2, "batches requested ahead, concurrently")
	_ = cmd.MarkFlagRequired("chart")
	return a.withTimeLimits(cmd)
}

// rowWriter writes the pages of a table in one format. The table data
// names no columns, so the header numbers them, as many as the first row
// has cells.
type rowWriter struct {
	format  string
	out     io.Writer
	csv     *csv.Writer
	columns []string
}

func newRowWriter(format string, out io.Writer) (*rowWriter, error) {
	switch format {
	case "json", "csv", "table":
	default:
		return nil, usagef("results table: --format %q: want json, csv or table", format)
	}
	return &rowWriter{format: format, out: out, csv: csv.NewWriter(out)}, nil
}

func (w *rowWriter) batch(p *gen.ApiStrictTableChartData) error {
	first := w.columns == nil
	if first {
		w.columns = []string{}
		if len(p.EntityList) > 0 {
			for i := range p.EntityList[0].Cells {
				w.columns = append(w.columns, "column"+strconv.Itoa(i+1))
			}
		}
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

func (w *rowWriter) jsonRows(rows []gen.Row) error {
	enc := json.NewEncoder(w.out)
	for _, r := range rows {
		obj := make(map[string]json.RawMessage, len(r.Cells))
		for i, c := range r.Cells {
			obj[w.column(i)] = deref(c.Value)
		}
		if err := enc.Encode(obj); err != nil {
			return err
		}
	}
	return nil
}

func (w *rowWriter) csvRows(rows []gen.Row, header bool) error {
	if header {
		if err := w.csv.Write(w.columns); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := w.csv.Write(cellStrings(r.Cells)); err != nil {
			return err
		}
	}
	w.csv.Flush()
	return w.csv.Error()
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
		raw := deref(c.Value)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[i] = s
		} else {
			out[i] = string(raw)
		}
	}
	return out
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
