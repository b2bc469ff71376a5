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

// chartHeader finds the names of a table chart's columns as a user would:
// the latest result of rcID, the dashboard page that lists the chart, and
// row 5 of the chart's sheet in that page's workbook (one export of one
// page). A chart no dashboard page lists by its id is found by its name
// and its page's name on the statistics pages of rcID's result, whose
// chart ids the table data takes.
func (a *app) chartHeader(ctx context.Context, c *facade.Client, rcID ids.RcID, chartID int64) tableHeader {
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
	page, id, ok := chartOnPage(pages, chartID)
	if !ok {
		named, found, err := statisticsChart(ctx, c, rcID, chartID)
		if err != nil {
			return tableHeader{why: fmt.Sprintf("no dashboard page of result %d lists chart %d, and its name could not be read: %s", resultID, chartID, a.errorText(err))}
		}
		if found {
			page, id, ok = named.on(pages)
		}
		if !ok {
			return tableHeader{why: fmt.Sprintf("no dashboard page of result %d lists chart %d", resultID, chartID)}
		}
	}
	names, err := dashboard.ChartHeader(ctx, c, resultID, page, id, nil)
	if err != nil {
		return tableHeader{why: fmt.Sprintf("dashboard page %d (%s) of result %d gave no header for the chart: %s", page.Id, page.Name, resultID, a.errorText(cause(err)))}
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

// chartOnPage finds the dashboard page that lists chart id.
func chartOnPage(pages []gen.ApiDashboardPage, id int64) (gen.ApiDashboardPage, int64, bool) {
	for _, p := range pages {
		for _, ch := range deref(p.Charts) {
			if ch.Id == id {
				return p, id, true
			}
		}
	}
	return gen.ApiDashboardPage{}, 0, false
}

// namedChart is a chart of a statistics page, by name: its page's name,
// its own, and how many charts of that name come before it on the page.
type namedChart struct {
	page, name string
	rank       int
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
