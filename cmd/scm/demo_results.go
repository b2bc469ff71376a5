package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// results reads the simulation's result: its statistics pages by rcId (with
// string ids), the dashboard pages by experimentResultId, and a page's
// charts, a table paged through.
func (d *demo) results() error {
	if d.resultID == 0 {
		d.say("No finished run of rcId %d: nothing to read.", d.rcID)
		return nil
	}
	var (
		statPage ids.PageID
		found    bool
	)
	for p, err := range d.c.Results.Result(d.ctx, d.rcID, &facade.PageOptions{MaxItems: 3}) {
		if err != nil {
			return err
		}
		d.say("Result page %-8s %-24s (%d charts)", p.Page.Id, p.Page.Name, len(p.Charts))
		if !found {
			if statPage, err = ids.Parse[ids.PageID](p.Page.Id); err != nil {
				return fmt.Errorf("result page %q: %w", p.Page.Name, err)
			}
			found = true
		}
	}
	pages, err := d.c.Dashboards.Pages(d.ctx, d.resultID)
	if err != nil {
		return err
	}
	for _, p := range pages {
		d.say("Dashboard page %d  %s (%d charts)", p.Id, p.Name, len(deref(p.Charts)))
	}
	if len(pages) == 0 {
		return errors.New("the result has no dashboard pages")
	}
	return d.charts(statPage)
}

func (d *demo) charts(pageID ids.PageID) error {
	charts, err := d.c.Results.StatisticsPageCharts(d.ctx, d.rcID, pageID)
	if err != nil {
		return err
	}
	for _, ch := range charts {
		d.say("Chart %d  %-28s %s", ch.Id, ch.Name, ch.Type)
		if ch.Type == gen.ChartTypeTABLE {
			err = d.table(ch.Id)
		} else {
			err = d.graph(ch.Id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) graph(chartID int64) error {
	g, err := d.c.Results.ChartGraph(d.ctx, d.rcID, chartID)
	if err != nil {
		return err
	}
	points := 0
	for _, s := range g.EntityList {
		points += len(deref(s.Points))
	}
	d.say("  %d series, %d points.", len(g.EntityList), points)
	return nil
}

// table pages through a table chart with the iterator, 20 rows a request,
// and shows the first rows under the chart's own column names, as scm
// results table does.
func (d *demo) table(chartID int64) error {
	header := d.statisticsChartHeader(d.ctx, d.c, d.rcID, chartID)
	n := 0
	for row, err := range d.c.Results.ChartTableRows(d.ctx, d.rcID, chartID, &facade.PageOptions{PageSize: 20}) {
		if err != nil {
			return err
		}
		if n < 2 {
			d.say("  row %d: %s", row.Index, cellsText(header.names, row.Cells))
		}
		n++
	}
	d.rows += n
	d.say("  %d rows, read 20 at a time.", n)
	return nil
}

// cellsText shows a row's cells as name=value, numbering a cell its
// chart's header does not name.
func cellsText(names []string, cells []gen.Cell) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		name := "column" + strconv.Itoa(i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		out[i] = name + "=" + string(deref(c.Value))
	}
	return strings.Join(out, ", ")
}

// export writes every dashboard page of the result into one workbook in
// the working directory, a sheet per page.
func (d *demo) export() error {
	if d.resultID == 0 {
		d.say("No finished run of rcId %d: nothing to export.", d.rcID)
		return nil
	}
	name := "scm-demo-dashboard-" + d.resultID.String() + ".xlsx"
	if err := d.exportDashboard(d.ctx, d.c, d.resultID, name); err != nil {
		return err
	}
	abs, _ := filepath.Abs(name)
	d.exported = abs
	sheets, err := workbookSheets(abs)
	if err != nil {
		return err
	}
	d.pages = len(sheets)
	d.say("Wrote %s: a sheet per dashboard page %v.", abs, sheets)
	return nil
}

// workbookSheets opens a workbook and lists its sheets: proof it is one.
func workbookSheets(path string) ([]string, error) {
	f, err := excelize.OpenFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s is not a workbook: %w", path, err)
	}
	defer f.Close()
	return f.GetSheetList(), nil
}

// finish leaves the session as the demo found it where it can: it drops
// only the license it requested, and closes the project unless the user
// had it open, reopening the project the user had open before.
func (d *demo) finish() error {
	if err := d.dropLicense(); err != nil {
		return err
	}
	switch {
	case d.openBefore == d.projectID:
		d.say("Left project %d open, as it was before the demo.", d.projectID)
	case d.openBefore != 0:
		p, err := d.c.Projects.Open(d.ctx, d.openBefore)
		if err != nil {
			return err
		}
		d.say("Reopened project %d %q, which you had open before the demo.", p.Id, p.Name)
	default:
		closed, err := d.c.Projects.Close(d.ctx)
		if err != nil {
			return err
		}
		d.say("Closed project %d.", closed.Id)
	}
	return nil
}

func (d *demo) dropLicense() error {
	if !d.tookLicense {
		d.say("Left the license as it was: the demo requested none.")
		return nil
	}
	drop, err := d.c.User.DropLicense(d.ctx)
	if err != nil {
		return err
	}
	d.say("Dropped the license the demo requested: %t.", drop.Dropped)
	return nil
}

// statisticsChartHeader finds the names of the columns of a chart of rcID's
// statistics pages as a user would: the latest result of rcID, the
// dashboard page that lists the chart of the same page name, chart name
// and place among the charts of that name, and row 5 of the chart's sheet
// in that page's workbook (one export of one page).
func (a *app) statisticsChartHeader(ctx context.Context, c *facade.Client, rcID ids.RcID, chartID int64) tableHeader {
	latest, err := c.Experiments.LatestRun(ctx, rcID)
	switch {
	case err != nil:
		return tableHeader{why: "the latest result of rcId " + rcID.String() + " could not be read: " + a.errorText(err)}
	case latest == nil:
		return tableHeader{why: fmt.Sprintf("rcId %d lists no run, so no dashboard page to read the chart's header from", rcID)}
	}
	resultID := latest.RcId
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return tableHeader{why: fmt.Sprintf("the dashboard pages of result %d could not be listed: %s", resultID, a.errorText(err))}
	}
	page, ok := dashboardPageOf(pages, chartID) // a server whose two kinds of chart ids are one
	id := chartID
	if !ok {
		named, found, err := statisticsChart(ctx, c, rcID, chartID)
		if err == nil && found {
			page, id, ok = named.on(pages)
		}
	}
	if !ok {
		return tableHeader{why: fmt.Sprintf("no dashboard page of result %d lists chart %d", resultID, chartID)}
	}
	names, err := dashboard.ChartHeader(ctx, c, resultID, page, id, nil)
	if err != nil {
		return tableHeader{why: fmt.Sprintf("dashboard page %d (%s) of result %d gave no header for the chart: %s", page.Id, page.Name, resultID, a.errorText(cause(err)))}
	}
	return tableHeader{names: names}
}

// statisticsChart finds chart id on the statistics pages of rcID's result
// (getExperimentRunResult); found is false when no page has it.
func statisticsChart(ctx context.Context, c *facade.Client, rcID ids.RcID, id int64) (n namedChart, found bool, err error) {
	for p, err := range c.Results.Result(ctx, rcID, nil) {
		if err != nil {
			return namedChart{}, false, err
		}
		before := map[string]int{}
		for _, w := range p.Charts {
			m := w.Chart()
			if m == nil {
				continue
			}
			if m.Id == id {
				return namedChart{page: p.Page.Name, name: m.Name, rank: before[m.Name]}, true, nil
			}
			before[m.Name]++
		}
	}
	return namedChart{}, false, nil
}

// on finds the chart on the dashboard pages: on the page of its page's
// name, the chart of its name in the same place among those of that name.
func (n namedChart) on(pages []gen.ApiDashboardPage) (gen.ApiDashboardPage, int64, bool) {
	for _, p := range pages {
		if p.Name != n.page {
			continue
		}
		rank := n.rank
		for _, ch := range deref(p.Charts) {
			if ch.Name != n.name {
				continue
			}
			if rank == 0 {
				return p, ch.Id, true
			}
			rank--
		}
	}
	return gen.ApiDashboardPage{}, 0, false
}
