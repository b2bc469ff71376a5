package fake

import (
	"context"
	"strings"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// resultOptionCount is how many result options (iterations) every result has.
const resultOptionCount = 5

// resultKeys are the values of every run result.
var resultKeys = []struct{ key, name, unit string }{
	{"totalCost", "Total cost", "USD"}, {"transportCost", "Transport cost", "USD"},
	{"warehouseCost", "Warehouse cost", "USD"}, {"productionCost", "Production cost", "USD"},
	{"serviceLevel", "Service level", "%"}, {"co2", "CO2 emissions", "t"},
	{"sites", "Open sites", ""}, {"vehicles", "Vehicles used", ""},
	{"distance", "Distance travelled", "km"}, {"leadTime", "Average lead time", "days"},
	{"inventory", "Average inventory", "units"}, {"fillRate", "Fill rate", "%"},
}

var pageNames = []string{"Overview", "Costs", "Service", "Inventory", "Transport"}

// pageName names result page p (1-based).
func pageName(p int64) string {
	if p >= 1 && p <= int64(len(pageNames)) {
		return pageNames[p-1]
	}
	return "Page " + itoa(p)
}

// chart is a chart of a result page: chartId is page*100+index; odd indexes
// are TABLE charts, even ones GRAPH charts.
type chart struct {
	id, page int64
}

func (c chart) index() int64 { return c.id % 100 }
func (c chart) kind() string {
	if c.index()%2 == 1 {
		return "TABLE"
	}
	return "GRAPH"
}
func (c chart) name() string {
	return pageName(c.page) + " " + strings.ToLower(c.kind()) + " " + itoa(c.index())
}

var chartColumns = []column{colID, colName, colAmount, colCount}

// finishedResult locks nothing: the caller holds the lock. It returns the
// experiment and its latest finished run.
func (w *world) finishedResult(rcID int64, now time.Time) (*runConfig, *run, error) {
	rc, err := w.runConfig(rcID)
	if err != nil {
		return nil, nil, err
	}
	r, err := w.finishedRun(rc, now)
	return rc, r, err
}

// readResult checks under the lock that the experiment has a result.
func (w *world) readResult(rcID int64) (*runConfig, *run, error) {
	now := w.lock()
	defer w.unlock()
	return w.finishedResult(rcID, now)
}

// readChart checks that the experiment has a result and finds the chart.
func (w *world) readChart(rcID, chartID int64) (*runConfig, chart, error) {
	rc, _, err := w.readResult(rcID)
	if err != nil {
		return nil, chart{}, err
	}
	c, err := w.chart(chartID)
	return rc, c, err
}

func (w *world) page(pageID int64) error {
	if pageID < 1 || pageID > int64(w.cfg.pages) {
		return notFound("pageId %d: the result has pages 1 to %d", pageID, w.cfg.pages)
	}
	return nil
}

func (w *world) chart(chartID int64) (chart, error) {
	c := chart{id: chartID, page: chartID / 100}
	if w.page(c.page) != nil || c.index() < 1 || c.index() > int64(w.cfg.chartsPerPage) {
		return c, notFound("chartId %d: no such chart (chartId is pageId*100 + 1..%d)", chartID, w.cfg.chartsPerPage)
	}
	return c, nil
}

func (w *world) charts(pageID int64) []chart {
	out := make([]chart, w.cfg.chartsPerPage)
	for i := range out {
		out[i] = chart{id: pageID*100 + int64(i+1), page: pageID}
	}
	return out
}

func (s *service) GetExperimentRunResult(_ context.Context, req gen.GetExperimentRunResultRequestObject) (gen.GetExperimentRunResultResponseObject, error) {
	rc, r, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	from, to := pageBounds(req.Params.Skip, req.Params.Take, int64(len(resultKeys)))
	results := make([]gen.ApiExperimentResult, 0, to-from)
	for i := from; i < to; i++ {
		k := resultKeys[i]
		v := round2(unit(mix(s.w.cfg.seed, rc.id, i)) * 100000)
		results = append(results, gen.ApiExperimentResult{Key: k.key, Name: ptr(k.name), Unit: ptr(k.unit), Value: &v})
	}
	return gen.GetExperimentRunResult200JSONResponse{RcId: rc.id, Id: ptr(r.resultID()), RunId: ptr(r.id),
		ExperimentType: ptr(rc.typ), TotalResults: ptr(int64(len(resultKeys))), Results: results}, nil
}

func (s *service) GetExperimentRunResultOptions(_ context.Context, req gen.GetExperimentRunResultOptionsRequestObject) (gen.GetExperimentRunResultOptionsResponseObject, error) {
	rc, _, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	all := make([]gen.ApiExperimentResultOption, resultOptionCount)
	for i := range all {
		all[i] = gen.ApiExperimentResultOption{Id: int32(i + 1), Name: ptr("Iteration " + itoa(int64(i+1))),
			ObjectiveValue: ptr(round2(unit(mix(s.w.cfg.seed, rc.id, 1000+int64(i))) * 1e6))}
	}
	return gen.GetExperimentRunResultOptions200JSONResponse(pageOf(all, req.Params.Skip, req.Params.Take)), nil
}

func (s *service) GetExperimentRunResultPages(_ context.Context, req gen.GetExperimentRunResultPagesRequestObject) (gen.GetExperimentRunResultPagesResponseObject, error) {
	rc, _, err := s.w.readResult(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return countedList(int64(s.w.cfg.pages), func(p int64) gen.ApiPage {
		return gen.ApiPage{Id: p, Name: pageName(p), RcId: ptr(rc.id)}
	}), nil
}

func (s *service) GetExperimentRunResultPageCharts(_ context.Context, req gen.GetExperimentRunResultPageChartsRequestObject) (gen.GetExperimentRunResultPageChartsResponseObject, error) {
	if _, _, err := s.w.readResult(req.Params.RcId); err != nil {
		return nil, err
	}
	if err := s.w.page(req.Params.PageId); err != nil {
		return nil, err
	}
	return countedList(int64(s.w.cfg.chartsPerPage), func(i int64) gen.ApiChartMetadataShort {
		c := chart{id: req.Params.PageId*100 + i, page: req.Params.PageId}
		return gen.ApiChartMetadataShort{Id: c.id, Name: c.name(), ChartType: ptr(c.kind())}
	}), nil
}

func (s *service) GetExperimentRunResultChartGraphData(_ context.Context, req gen.GetExperimentRunResultChartGraphDataRequestObject) (gen.GetExperimentRunResultChartGraphDataResponseObject, error) {
	rc, c, err := s.w.readChart(req.Params.RcId, req.Params.ChartId)
	if err != nil {
		return nil, err
	}
	return gen.GetExperimentRunResultChartGraphData200JSONResponse{ChartId: ptr(c.id), Name: ptr(c.name()),
		XAxisName: ptr("Week"), YAxisName: ptr("Value"), Graphs: s.w.graphs(rc.id, c)}, nil
}

// graphs generates the series of a chart: "Plan" and "Actual", 12 points.
func (w *world) graphs(rcID int64, c chart) []gen.Graph {
	var out []gen.Graph
	for g, name := range []string{"Plan", "Actual"} {
		points := make([]gen.Point, 12)
		for i := range points {
			x, y := float64(i+1), round2(unit(mix(w.cfg.seed, rcID, c.id, int64(g), int64(i)))*1000)
			points[i] = gen.Point{X: &x, Y: &y}
		}
		out = append(out, gen.Graph{Name: ptr(name), Points: &points})
	}
	return out
}

// GetExperimentRunResultChartTableData generates only the requested page of
// rows, while it is written, so a table of a million rows costs one buffer
// of memory.
func (s *service) GetExperimentRunResultChartTableData(_ context.Context, req gen.GetExperimentRunResultChartTableDataRequestObject) (gen.GetExperimentRunResultChartTableDataResponseObject, error) {
	rc, c, err := s.w.readChart(req.Params.RcId, req.Params.ChartId)
	if err != nil {
		return nil, err
	}
	total := s.w.cfg.rowsPerTable
	from, to := pageBounds(req.Params.Skip, req.Params.Take, total)
	return chartTablePage{chart: c, seed: s.w.cfg.seed, key: chartTableKey(rc.id, c), from: from, to: to, total: total}, nil
}

// chartTableKey keys the generated rows of a table chart of an experiment.
func chartTableKey(rcID int64, c chart) int64 { return rcID*1000 + c.id }

// resultByID finds the finished run of an experimentResultId.
func (w *world) resultByID(resultID int64) (*run, error) {
	now := w.lock()
	defer w.unlock()
	if r := w.runs[resultID-firstResultID+firstRunID]; r != nil && r.finished(now) {
		return r, nil
	}
	return nil, notFound("experimentResultId %d: no such result", resultID)
}

func (w *world) dashboardPage(resultID, pageID int64) gen.ApiDashboardPage {
	var charts []gen.ApiDashboardChartData
	for i, c := range w.charts(pageID) {
		x, y, width, height := int32(i%2*6), int32(i/2*4), int32(6), int32(4)
		charts = append(charts, gen.ApiDashboardChartData{Id: c.id, Name: ptr(c.name()), ChartType: ptr(c.kind()),
			Layout: &gen.ApiChartLayoutData{X: &x, Y: &y, Width: &width, Height: &height}})
	}
	return gen.ApiDashboardPage{Id: pageID, Name: pageName(pageID), ExperimentResultId: &resultID, Charts: &charts}
}

func (s *service) GetExperimentDashboardPages(_ context.Context, req gen.GetExperimentDashboardPagesRequestObject) (gen.GetExperimentDashboardPagesResponseObject, error) {
	r, err := s.w.resultByID(req.Params.ExperimentResultId)
	if err != nil {
		return nil, err
	}
	return countedList(int64(s.w.cfg.pages), func(p int64) gen.ApiDashboardPage {
		return s.w.dashboardPage(r.resultID(), p)
	}), nil
}

// GetExperimentDashboardPage finds a page by name: the whole name, or with
// fullMatch=false a part of it ignoring case.
func (s *service) GetExperimentDashboardPage(_ context.Context, req gen.GetExperimentDashboardPageRequestObject) (gen.GetExperimentDashboardPageResponseObject, error) {
	r, err := s.w.resultByID(req.Params.ExperimentResultId)
	if err != nil {
		return nil, err
	}
	full := req.Params.FullMatch == nil || *req.Params.FullMatch
	for p := int64(1); p <= int64(s.w.cfg.pages); p++ {
		if nameMatches(pageName(p), req.Params.PageName, full) {
			return gen.GetExperimentDashboardPage200JSONResponse(s.w.dashboardPage(r.resultID(), p)), nil
		}
	}
	return nil, notFound("pageName %s: no page matches (fullMatch=%t)", quoteText(req.Params.PageName), full)
}

func (s *service) GetStatisticsConfigurations(_ context.Context, req gen.GetStatisticsConfigurationsRequestObject) (gen.GetStatisticsConfigurationsResponseObject, error) {
	if _, _, err := s.w.readResult(req.Params.RcId); err != nil {
		return nil, err
	}
	out := make(gen.GetStatisticsConfigurations200JSONResponse, 0, len(resultKeys))
	for i, k := range resultKeys {
		out = append(out, gen.ApiStatisticsConfiguration{Key: gen.StatisticsKey{Id: k.key, Group: ptr(pageName(int64(i%len(pageNames)) + 1))},
			Name: ptr(k.name), Unit: ptr(k.unit), Enabled: ptr(i%4 != 3)})
	}
	return out, nil
}
