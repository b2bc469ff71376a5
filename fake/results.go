package fake

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// resultOptionCount is how many result options (iterations) a result of
// an experiment type with options has (see hasOptions).
const resultOptionCount = 5

// statisticsPageBase numbers the statistics pages of a result (ApiPage):
// page i has the id "83001"-style string statisticsPageBase+i, which differs
// from its dashboard page id i, as the real server's ids differ.
const statisticsPageBase = 83000

// resultKeys are the statistics of every run result.
var resultKeys = []struct{ key, name, unit string }{
	{"totalCost", "Total cost", "USD"}, {"transportCost", "Transport cost", "USD"},
	{"warehouseCost", "Warehouse cost", "USD"}, {"productionCost", "Production cost", "USD"},
	{"serviceLevel", "Service level", "%"}, {"co2", "CO2 emissions", "t"},
	{"sites", "Open sites", ""}, {"vehicles", "Vehicles used", ""},
	{"distance", "Distance travelled", "km"}, {"leadTime", "Average lead time", "days"},
	{"inventory", "Average inventory", "units"}, {"fillRate", "Fill rate", "%"},
}

var pageNames = []string{"Overview", "Costs", "Service", "Inventory", "Transport"}

// pageName names result page p (1-based), the same on the statistics and
// the dashboard.
func pageName(p int64) string {
	if p >= 1 && p <= int64(len(pageNames)) {
		return pageNames[p-1]
	}
	return "Page " + itoa(p)
}

// chart is a chart of a statistics page of a result: chartId is
// page*100+index; odd indexes are TABLE charts, even ones graph charts of
// the other types the real server showed.
type chart struct {
	id, page int64
}

// graphTypes are the types of graph charts, as recorded.
var graphTypes = []gen.ChartType{gen.ChartTypeLINE, gen.ChartTypeBAR, gen.ChartTypeHISTOGRAM, gen.ChartTypeBMWLINE}

func (c chart) index() int64 { return c.id % 100 }
func (c chart) kind() gen.ChartType {
	if c.index()%2 == 1 {
		return gen.ChartTypeTABLE
	}
	return graphTypes[(c.index()/2-1)%int64(len(graphTypes))]
}
func (c chart) table() bool { return c.kind() == gen.ChartTypeTABLE }
func (c chart) name() string {
	return pageName(c.page) + " " + strings.ToLower(string(c.kind())) + " " + itoa(c.index())
}

var chartColumns = []column{colID, colName, colAmount, colCount}

// finishedResult locks nothing: the caller holds the lock. It returns the
// experiment and its latest finished run.
func (w *world) finishedResult(rcID ids.RcID, now time.Time) (*runConfig, *run, error) {
	rc, err := w.runConfig(rcID)
	if err != nil {
		return nil, nil, err
	}
	r, err := w.finishedRun(rc, now)
	return rc, r, err
}

// readResult checks under the lock that the experiment has a result.
func (w *world) readResult(rcID ids.RcID) (*runConfig, *run, error) {
	now := w.lock()
	defer w.unlock()
	return w.finishedResult(rcID, now)
}

// readChart checks that the experiment has a result and finds the chart.
func (w *world) readChart(rcID ids.RcID, chartID int64) (*runConfig, chart, error) {
	rc, _, err := w.readResult(rcID)
	if err != nil {
		return nil, chart{}, err
	}
	c, err := w.chart(chartID)
	return rc, c, err
}

// pageID is the id of dashboard page p (from 1) of a run's result: the
// first is experimentResultId+2, and each page's charts' ids follow it.
func (w *world) pageID(r *run, p int) ids.PageID {
	return ids.PageID(int64(r.resultID) + 2 + int64(p-1)*int64(1+w.cfg.chartsPerPage))
}

// dashboardPages is how many dashboard pages a run's result has.
func (w *world) dashboardPages(*run) int { return w.cfg.pages }

// dashboardPageNumber finds the page (from 1) of a run's result that
// pageID names.
func (w *world) dashboardPageNumber(r *run, pageID ids.PageID) (int64, error) {
	off, step := int64(pageID-w.pageID(r, 1)), int64(1+w.cfg.chartsPerPage)
	if off < 0 || off%step != 0 || off/step >= int64(w.dashboardPages(r)) {
		return 0, notFound("pageId %d: no such page of experimentResultId %d", pageID, r.resultID)
	}
	return off/step + 1, nil
}

// statisticsPage turns a statistics page id (83001, ...) into the page's
// number.
func (w *world) statisticsPage(pageID ids.PageID) (int64, error) {
	p := int64(pageID) - statisticsPageBase
	if p < 1 || p > int64(w.cfg.pages) {
		return 0, notFound("pageId %d: the result has pages %d to %d", pageID, statisticsPageBase+1, statisticsPageBase+w.cfg.pages)
	}
	return p, nil
}

// statisticsPageRef is the ApiPage of page p.
func statisticsPageRef(p int64) gen.ApiPage {
	return gen.ApiPage{Id: strconv.FormatInt(statisticsPageBase+p, 10), Name: pageName(p)}
}

// layout places chart i of a page on a grid of three columns of width 2,
// as the real server laid out its charts.
func layout(i int) gen.ApiChartLayoutData {
	return gen.ApiChartLayoutData{Height: 1, StartCol: int32(i % 3 * 2), StartRow: int32(i / 3), Width: 2}
}

func (w *world) chart(chartID int64) (chart, error) {
	c := chart{id: chartID, page: chartID / 100}
	if c.page < 1 || c.page > int64(w.cfg.pages) || c.index() < 1 || c.index() > int64(w.cfg.chartsPerPage) {
		return c, notFound("chartId %d: no such chart (chartId is pageId*100 + 1..%d)", chartID, w.cfg.chartsPerPage)
	}
	return c, nil
}

func (w *world) charts(page int64) []chart {
	out := make([]chart, w.cfg.chartsPerPage)
	for i := range out {
		out[i] = chart{id: page*100 + int64(i+1), page: page}
	}
	return out
}

// GetExperimentRunResult answers the result's pages, each with its charts,
// paged over the pages. Each chart comes in the wrapper its type takes, with
// the data the real server sent: no entities, totals 0.
func (s *service) GetExperimentRunResult(_ context.Context, req genserver.GetExperimentRunResultRequestObject) (genserver.GetExperimentRunResultResponseObject, error) {
	rc, _, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	from, to := pageBounds(req.Params.Skip, req.Params.Take, int64(s.w.cfg.pages))
	pages := make([]gen.ApiExperimentResultPageWrapper, 0, to-from)
	for p := from + 1; p <= to; p++ {
		var charts []gen.ApiExperimentResultChartWrapper
		for i, c := range s.w.charts(p) {
			charts = append(charts, c.wrapper(rc.id, i))
		}
		pages = append(pages, gen.ApiExperimentResultPageWrapper{Page: statisticsPageRef(p), Charts: charts})
	}
	return genserver.GetExperimentRunResult200JSONResponse{Pages: pages}, nil
}

// wrapper is the chart as a result page holds it, the i-th of its page.
func (c chart) wrapper(rcID ids.RcID, i int) gen.ApiExperimentResultChartWrapper {
	meta := c.metadata(rcID, i)
	if c.table() {
		return gen.ApiExperimentResultChartWrapper{Table: &gen.ApiExperimentResultTableChartWrapper{Chart: meta,
			ClassName: "ApiExperimentResultTableChartWrapper", Data: emptyTable(c.id)}}
	}
	return gen.ApiExperimentResultChartWrapper{Graph: &gen.ApiExperimentResultGraphChartWrapper{Chart: meta,
		ClassName: "ApiExperimentResultGraphChartWrapper",
		Data:      gen.ApiGraphChartData{EntityList: []gen.Graph{}, Id: c.id, ShowX: ptr(true), Type: string(c.kind())}}}
}

// emptyTable is table data without rows, as the real server answered.
func emptyTable(id int64) gen.ApiStrictTableChartData {
	return gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Id: id, Type: "TABLE"}
}

// metadata describes the chart, the i-th of its page.
func (c chart) metadata(rcID ids.RcID, i int) gen.ApiChartMetadataShort {
	return gen.ApiChartMetadataShort{Id: c.id, IsGroupModeEnabled: false, Layout: layout(i), Name: c.name(), RcId: rcID, Type: c.kind()}
}

// GetExperimentRunResultOptions answers the result's options (iterations):
// five for network optimization and variation, none for other types.
func (s *service) GetExperimentRunResultOptions(_ context.Context, req genserver.GetExperimentRunResultOptionsRequestObject) (genserver.GetExperimentRunResultOptionsResponseObject, error) {
	rc, _, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	all := []gen.ApiExperimentResultOption{}
	for i := range resultOptionCount {
		if !hasOptions(rc.typ) {
			break
		}
		all = append(all, gen.ApiExperimentResultOption{Id: int32(i + 1), Name: ptr("Iteration " + itoa(int64(i+1))),
			ObjectiveValue: ptr(round2(unit(mix(s.w.cfg.seed, int64(rc.id), 1000+int64(i))) * 1e6))})
	}
	return genserver.GetExperimentRunResultOptions200JSONResponse(pageOf(all, req.Params.Skip, req.Params.Take)), nil
}

// GetExperimentRunResultPages lists the statistics pages, with string ids.
func (s *service) GetExperimentRunResultPages(_ context.Context, req genserver.GetExperimentRunResultPagesRequestObject) (genserver.GetExperimentRunResultPagesResponseObject, error) {
	if _, _, err := s.w.readResult(req.Params.RcId); err != nil {
		return nil, err
	}
	return countedList(int64(s.w.cfg.pages), statisticsPageRef), nil
}

// GetExperimentRunResultPageCharts lists the charts of a statistics page,
// named by its id as an integer (83001).
func (s *service) GetExperimentRunResultPageCharts(_ context.Context, req genserver.GetExperimentRunResultPageChartsRequestObject) (genserver.GetExperimentRunResultPageChartsResponseObject, error) {
	rc, _, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	p, err := s.w.statisticsPage(req.Params.PageId)
	if err != nil {
		return nil, err
	}
	return countedList(int64(s.w.cfg.chartsPerPage), func(i int64) gen.ApiChartMetadataShort {
		return chart{id: p*100 + i, page: p}.metadata(rc.id, int(i-1))
	}), nil
}

func (s *service) GetExperimentRunResultChartGraphData(_ context.Context, req genserver.GetExperimentRunResultChartGraphDataRequestObject) (genserver.GetExperimentRunResultChartGraphDataResponseObject, error) {
	rc, c, err := s.w.readChart(req.Params.RcId, req.Params.ChartId)
	if err != nil {
		return nil, err
	}
	graphs := s.w.graphs(rc.id, c)
	n := int64(len(graphs))
	return genserver.GetExperimentRunResultChartGraphData200JSONResponse{EntityList: graphs, Id: c.id, ShowX: ptr(true),
		TotalEntityCount: n, TotalTechnicalRowCount: n, Type: string(c.kind())}, nil
}

// graphs generates the series of a chart: "Plan" and "Actual", 12 points.
func (w *world) graphs(rcID ids.RcID, c chart) []gen.Graph {
	var out []gen.Graph
	for g, name := range []string{"Plan", "Actual"} {
		points := make([]gen.Point, 12)
		for i := range points {
			x, y := float64(i+1), round2(unit(mix(w.cfg.seed, int64(rcID), c.id, int64(g), int64(i)))*1000)
			points[i] = gen.Point{X: &x, Y: &y}
		}
		out = append(out, gen.Graph{Name: ptr(name), Points: &points})
	}
	return out
}

// GetExperimentRunResultChartTableData generates only the requested page of
// rows, while it is written, so a table of a million rows costs one buffer
// of memory.
func (s *service) GetExperimentRunResultChartTableData(_ context.Context, req genserver.GetExperimentRunResultChartTableDataRequestObject) (genserver.GetExperimentRunResultChartTableDataResponseObject, error) {
	rc, c, err := s.w.readChart(req.Params.RcId, req.Params.ChartId)
	if err != nil {
		return nil, err
	}
	if !c.table() {
		return s.w.graphTable(rc.id, c, req.Params.Skip, req.Params.Take), nil
	}
	total := s.w.cfg.rowsPerTable
	from, to := pageBounds(req.Params.Skip, req.Params.Take, total)
	return chartTablePage{chart: c, seed: s.w.cfg.seed, key: chartTableKey(rc.id, c), from: from, to: to, total: total}, nil
}

// graphTable is the table data of a graph chart: a row per point, as its
// sheet in the page workbook has them under "Statistics name | Time |
// Value" (graphRows), the week's date as text; so the names the workbook
// gives its columns name the table's.
func (w *world) graphTable(rcID ids.RcID, c chart, skip, take int32) genserver.GetExperimentRunResultChartTableData200JSONResponse {
	var rows []gen.Row
	for v := range graphRows(w.graphs(rcID, c)) {
		week := v[1].(time.Time).Format(time.DateOnly)
		rows = append(rows, gen.Row{Index: int64(len(rows)), Cells: []gen.Cell{cell("STRING", v[0]), cell("STRING", week), cell("DOUBLE", v[2])}})
	}
	n := int64(len(rows))
	return genserver.GetExperimentRunResultChartTableData200JSONResponse{EntityList: pageOf(rows, skip, take), Id: c.id,
		TotalEntityCount: n, TotalTechnicalRowCount: n, Type: string(c.kind())}
}

// chartTableKey keys the generated rows of a table chart of an experiment.
func chartTableKey(rcID ids.RcID, c chart) int64 { return int64(rcID)*1000 + c.id }

// dashboard is what an experimentResultId names: the finished run whose
// result it is, or, when no run has the id but a run configuration has,
// that configuration without a run. A synchronous run of a scenario with
// validation errors answers its rcId as experimentResultId: a real server
// listed that id's dashboard pages, and failed to export them.
type dashboard struct {
	id  ids.ExperimentResultID
	run *run // nil for an rcId
}

func (w *world) resultByID(resultID ids.ExperimentResultID) (dashboard, error) {
	now := w.lock()
	defer w.unlock()
	if r := w.results[resultID]; r != nil {
		if r.finished(now) {
			return dashboard{id: resultID, run: r}, nil
		}
		return dashboard{}, notFound("experimentResultId %d: run %d has no result", resultID, r.id)
	}
	if w.rcs[ids.RcID(resultID)] != nil { // the same number: an rcId answered as a result
		return dashboard{id: resultID}, nil
	}
	return dashboard{}, notFound("experimentResultId %d: no such result", resultID)
}

// dashboardPageList lists the dashboard pages of what an id names, while
// they are written: those of a run's result, or, for an rcId, pages
// numbered from rcId+2 in the same way. A result of 200,000 pages costs a
// buffer.
func (w *world) dashboardPageList(d dashboard) jsonList[gen.ApiDashboardPage] {
	r := d.run
	if r == nil {
		r = &run{resultID: d.id}
	}
	return countedList(int64(w.dashboardPages(r)), func(p int64) gen.ApiDashboardPage {
		id := w.pageID(r, int(p))
		charts := make([]gen.ApiDashboardChartData, w.cfg.chartsPerPage)
		for j := range charts {
			c := chart{id: p*100 + int64(j+1), page: p}
			charts[j] = gen.ApiDashboardChartData{Id: int64(id) + int64(j+1), Name: c.name()}
		}
		return gen.ApiDashboardPage{Id: id, Name: pageName(p), Charts: &charts}
	})
}

// GetExperimentDashboardPages lists the dashboard pages of a result: the
// first has the id experimentResultId+2, and its charts' ids follow it.
func (s *service) GetExperimentDashboardPages(_ context.Context, req genserver.GetExperimentDashboardPagesRequestObject) (genserver.GetExperimentDashboardPagesResponseObject, error) {
	d, err := s.w.resultByID(req.Params.ExperimentResultId)
	if err != nil {
		return nil, err
	}
	return s.w.dashboardPageList(d), nil
}

// GetExperimentDashboardPage finds a page by name: the whole name, or with
// fullMatch=false a part of it ignoring case.
func (s *service) GetExperimentDashboardPage(_ context.Context, req genserver.GetExperimentDashboardPageRequestObject) (genserver.GetExperimentDashboardPageResponseObject, error) {
	d, err := s.w.resultByID(req.Params.ExperimentResultId)
	if err != nil {
		return nil, err
	}
	full := req.Params.FullMatch
	for p := range s.w.dashboardPageList(d) {
		if nameMatches(p.Name, req.Params.PageName, full) {
			return genserver.GetExperimentDashboardPage200JSONResponse(p), nil
		}
	}
	return nil, notFound("pageName %s: no page matches (fullMatch=%t)", quoteText(req.Params.PageName), full)
}

func (s *service) GetStatisticsConfigurations(_ context.Context, req genserver.GetStatisticsConfigurationsRequestObject) (genserver.GetStatisticsConfigurationsResponseObject, error) {
	if _, _, err := s.w.readResult(req.Params.RcId); err != nil {
		return nil, err
	}
	out := make(genserver.GetStatisticsConfigurations200JSONResponse, 0, len(resultKeys))
	for i, k := range resultKeys {
		out = append(out, gen.ApiStatisticsConfiguration{Key: gen.StatisticsKey{Id: k.key, Group: ptr(pageName(int64(i%len(pageNames)) + 1))},
			Name: ptr(k.name), Unit: ptr(k.unit), Enabled: ptr(i%4 != 3)})
	}
	return out, nil
}
