package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// tableHeader is what scm results table found of a chart's header: the
// names of its columns, or why it has none.
type tableHeader struct {
	names   []string
	why     string // why no names were found; "" when they were, or not looked for
	skipped bool   // --numbered-columns: not looked for
}

// tableChart is a chart of a result's dashboard, as scm results pages
// --charts lists it, and the ids the table data takes for it.
type tableChart struct {
	result ids.ExperimentResultID
	page   gen.ApiDashboardPage // the dashboard page that lists the chart
	id     int64                // the chart's id on the page
	run    *resultRun           // the run the result came from
	// rcID and dataID are what getExperimentRunResultChartTableData takes:
	// the run configuration, and the chart's id among the statistics
	// pages of its latest result.
	rcID   ids.RcID
	dataID int64
}

// locateChart finds chart id among the dashboard pages of a result, the
// run configuration the result came from (which must be its latest
// result: the table data is the latest result's), and the chart of the
// same page, name and place among the charts of that name on the
// statistics pages of that configuration, whose ids the table data
// takes.
func (a *app) locateChart(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, chartID int64) (*tableChart, error) {
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return nil, a.resultIDHint(ctx, c, resultID, err)
	}
	page, ok := dashboardPageOf(pages, chartID)
	if !ok {
		if err := a.rcIDRefusal(ctx, c, resultID); err != nil {
			return nil, err
		}
		return nil, usagef("chart %d is on no dashboard page of result %d: scm results pages %d --charts lists its charts", chartID, resultID, resultID)
	}
	run, err := findResultRun(ctx, c, resultID, maxScenariosSearched)
	if err != nil {
		if refusal := a.rcIDRefusal(ctx, c, resultID); refusal != nil {
			return nil, refusal
		}
		return nil, err
	}
	if run.latest != resultID {
		return nil, usagef("result %d is not the latest of rcId %d (%d is), and the table data the server offers is the latest result's: "+
			"scm results export %d writes the rows of any result", resultID, run.rcID, run.latest, resultID)
	}
	t := &tableChart{result: resultID, page: page, id: chartID, run: run}
	return t, t.findData(ctx, c)
}

// findData finds the chart among the statistics pages of the run's
// configuration: on the page of its page's name, the chart of its name in
// the same place among those of that name.
func (t *tableChart) findData(ctx context.Context, c *facade.Client) error {
	want := namedChartOf(t.page, t.id)
	for p, err := range c.Results.Result(ctx, t.run.rcID, nil) {
		if err != nil {
			return fmt.Errorf("reading the statistics pages of rcId %d for chart %d: %w", t.run.rcID, t.id, err)
		}
		if p.Page.Name != want.page {
			continue
		}
		rank := want.rank
		for _, w := range p.Charts {
			m := w.Chart()
			if m == nil || m.Name != want.name {
				continue
			}
			if rank--; rank < 0 {
				t.dataID, t.rcID = m.Id, m.RcId
				if t.rcID == 0 {
					t.rcID = t.run.rcID
				}
				return nil
			}
		}
	}
	return fmt.Errorf("chart %d (%q on page %q) of result %d has no table data: no statistics page of rcId %d has a chart of that name there",
		t.id, want.name, want.page, t.result, t.run.rcID)
}

// header finds the names of the chart's columns as a user would: row 5
// of the chart's sheet in the workbook of its dashboard page (one export
// of one page).
func (a *app) header(ctx context.Context, c *facade.Client, t *tableChart) tableHeader {
	names, err := dashboard.ChartHeader(ctx, c, t.result, t.page, t.id, nil)
	if err != nil {
		return tableHeader{why: fmt.Sprintf("dashboard page %d (%s) of result %d gave no header for the chart: %s", t.page.Id, t.page.Name, t.result, a.errorText(cause(err)))}
	}
	return tableHeader{names: names}
}

// cause is what err wraps, or err when it wraps nothing: the text of the
// failure without the page and chart the message names already.
func cause(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// dashboardPageOf finds the dashboard page that lists chart id.
func dashboardPageOf(pages []gen.ApiDashboardPage, id int64) (gen.ApiDashboardPage, bool) {
	for _, p := range pages {
		for _, ch := range deref(p.Charts) {
			if ch.Id == id {
				return p, true
			}
		}
	}
	return gen.ApiDashboardPage{}, false
}

// namedChart is a chart by name: its page's name, its own, and how many
// charts of that name come before it on the page.
type namedChart struct {
	page, name string
	rank       int
}

// namedChartOf names chart id of page.
func namedChartOf(page gen.ApiDashboardPage, id int64) namedChart {
	charts := deref(page.Charts)
	for i, ch := range charts {
		if ch.Id != id {
			continue
		}
		n := namedChart{page: page.Name, name: ch.Name}
		for _, before := range charts[:i] {
			if before.Name == ch.Name {
				n.rank++
			}
		}
		return n
	}
	return namedChart{page: page.Name}
}
