package facade

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/scmodel/scmgo/gen"
)

// ResultsService reads run results, statistics pages, charts and tables,
// and exports pages as workbooks.
type ResultsService struct{ service }

func (s *ResultsService) resultSource(rcID int64) pageSource[gen.ApiExperimentResultPageWrapper, *gen.ApiExperimentResultData] {
	return pager(s.c, gen.OpGetExperimentRunResult, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultParams{RcId: rcID, Skip: &skip, Take: &take}
		return newCall(gen.OpGetExperimentRunResult, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultRequest(srv, params)
		})
	}, func(p *gen.ApiExperimentResultData) []gen.ApiExperimentResultPageWrapper { return p.Pages })
}

// Result yields the pages of a run's result, each with its charts (the
// page's id is a numeric string; see [ResultsService.PageCharts]). skip
// and take page through them. opts may be nil.
//
//scm:operation getExperimentRunResult
func (s *ResultsService) Result(ctx context.Context, rcID int64, opts *PageOptions) iter.Seq2[gen.ApiExperimentResultPageWrapper, error] {
	if err := check(gen.OpGetExperimentRunResult).id("rcId", rcID).done(); err != nil {
		return failedSeq[gen.ApiExperimentResultPageWrapper](err)
	}
	return itemsSeq(ctx, s.resultSource(rcID), opts)
}

// ResultPages yields the whole answers behind [ResultsService.Result],
// one per request.
//
//scm:pages getExperimentRunResult
func (s *ResultsService) ResultPages(ctx context.Context, rcID int64, opts *PageOptions) iter.Seq2[*gen.ApiExperimentResultData, error] {
	if err := check(gen.OpGetExperimentRunResult).id("rcId", rcID).done(); err != nil {
		return failedSeq[*gen.ApiExperimentResultData](err)
	}
	return pagesSeq(ctx, s.resultSource(rcID), opts)
}

func (s *ResultsService) resultOptionsSource(rcID int64) pageSource[gen.ApiExperimentResultOption, []gen.ApiExperimentResultOption] {
	return pager(s.c, gen.OpGetExperimentRunResultOptions, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultOptionsParams{RcId: rcID, Skip: &skip, Take: &take}
		return newCall(gen.OpGetExperimentRunResultOptions, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultOptionsRequest(srv, params)
		})
	}, func(p []gen.ApiExperimentResultOption) []gen.ApiExperimentResultOption { return p })
}

// ResultOptions yields the result options (iterations) of a run. opts may
// be nil.
//
//scm:operation getExperimentRunResultOptions
func (s *ResultsService) ResultOptions(ctx context.Context, rcID int64, opts *PageOptions) iter.Seq2[gen.ApiExperimentResultOption, error] {
	if err := check(gen.OpGetExperimentRunResultOptions).id("rcId", rcID).done(); err != nil {
		return failedSeq[gen.ApiExperimentResultOption](err)
	}
	return itemsSeq(ctx, s.resultOptionsSource(rcID), opts)
}

// ResultOptionPages yields the pages behind [ResultsService.ResultOptions].
//
//scm:pages getExperimentRunResultOptions
func (s *ResultsService) ResultOptionPages(ctx context.Context, rcID int64, opts *PageOptions) iter.Seq2[[]gen.ApiExperimentResultOption, error] {
	if err := check(gen.OpGetExperimentRunResultOptions).id("rcId", rcID).done(); err != nil {
		return failedSeq[[]gen.ApiExperimentResultOption](err)
	}
	return pagesSeq(ctx, s.resultOptionsSource(rcID), opts)
}

// Pages lists the statistics pages of a run's result.
//
//scm:operation getExperimentRunResultPages
func (s *ResultsService) Pages(ctx context.Context, rcID int64) ([]gen.ApiPage, error) {
	if err := check(gen.OpGetExperimentRunResultPages).id("rcId", rcID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiPage](ctx, s.c, newCall(gen.OpGetExperimentRunResultPages, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultPagesRequest(srv, &gen.GetExperimentRunResultPagesParams{RcId: rcID})
	}))
}

// PageCharts lists the charts of a statistics page: pageID is the id of
// one of [ResultsService.Pages] (or of a page of [ResultsService.Result]),
// a numeric string, sent as the integer the operation takes.
//
//scm:operation getExperimentRunResultPageCharts
func (s *ResultsService) PageCharts(ctx context.Context, rcID int64, pageID string) ([]gen.ApiChartMetadataShort, error) {
	page, perr := strconv.ParseInt(pageID, 10, 64)
	err := check(gen.OpGetExperimentRunResultPageCharts).id("rcId", rcID).
		ok("pageId", perr == nil && page >= 0, "%q is not a page id (a non-negative integer)", pageID).done()
	if err != nil {
		return nil, err
	}
	params := &gen.GetExperimentRunResultPageChartsParams{RcId: rcID, PageId: page}
	return callList[gen.ApiChartMetadataShort](ctx, s.c, newCall(gen.OpGetExperimentRunResultPageCharts, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultPageChartsRequest(srv, params)
	}))
}

// ChartGraph returns the data of a graph chart.
//
//scm:operation getExperimentRunResultChartGraphData
func (s *ResultsService) ChartGraph(ctx context.Context, rcID, chartID int64) (*gen.ApiGraphChartData, error) {
	if err := check(gen.OpGetExperimentRunResultChartGraphData).id("rcId", rcID).id("chartId", chartID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentRunResultChartGraphDataParams{RcId: rcID, ChartId: chartID}
	return callPtr[gen.ApiGraphChartData](ctx, s.c, newCall(gen.OpGetExperimentRunResultChartGraphData, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultChartGraphDataRequest(srv, params)
	}))
}

func (s *ResultsService) chartTableSource(rcID, chartID int64) pageSource[gen.Row, *gen.ApiStrictTableChartData] {
	return pager(s.c, gen.OpGetExperimentRunResultChartTableData, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultChartTableDataParams{RcId: rcID, ChartId: chartID, Skip: &skip, Take: &take}
		return newCall(gen.OpGetExperimentRunResultChartTableData, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultChartTableDataRequest(srv, params)
		})
	}, tableChartRows)
}

func tableChartRows(p *gen.ApiStrictTableChartData) []gen.Row { return p.Rows }

// ChartTableRows yields the rows of a table chart. opts may be nil.
//
//scm:operation getExperimentRunResultChartTableData
func (s *ResultsService) ChartTableRows(ctx context.Context, rcID, chartID int64, opts *PageOptions) iter.Seq2[gen.Row, error] {
	if err := check(gen.OpGetExperimentRunResultChartTableData).id("rcId", rcID).id("chartId", chartID).done(); err != nil {
		return failedSeq[gen.Row](err)
	}
	return itemsSeq(ctx, s.chartTableSource(rcID, chartID), opts)
}

// ChartTablePages yields the whole pages (with columns and totalRows)
// behind [ResultsService.ChartTableRows].
//
//scm:pages getExperimentRunResultChartTableData
func (s *ResultsService) ChartTablePages(ctx context.Context, rcID, chartID int64, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	if err := check(gen.OpGetExperimentRunResultChartTableData).id("rcId", rcID).id("chartId", chartID).done(); err != nil {
		return failedSeq[*gen.ApiStrictTableChartData](err)
	}
	return pagesSeq(ctx, s.chartTableSource(rcID, chartID), opts)
}

// DashboardPages lists the dashboard pages of a result.
//
//scm:operation getExperimentDashboardPages
func (s *ResultsService) DashboardPages(ctx context.Context, experimentResultID int64) ([]gen.ApiDashboardPage, error) {
	if err := check(gen.OpGetExperimentDashboardPages).id("experimentResultId", experimentResultID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentDashboardPagesParams{ExperimentResultId: experimentResultID}
	return callList[gen.ApiDashboardPage](ctx, s.c, newCall(gen.OpGetExperimentDashboardPages, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentDashboardPagesRequest(srv, params)
	}))
}

// DashboardPage finds a dashboard page of a result by name. opts may be nil.
//
//scm:operation getExperimentDashboardPage
func (s *ResultsService) DashboardPage(ctx context.Context, experimentResultID int64, pageName string, opts *NameMatchOptions) (*gen.ApiDashboardPage, error) {
	err := check(gen.OpGetExperimentDashboardPage).id("experimentResultId", experimentResultID).str("pageName", pageName).done()
	if err != nil {
		return nil, err
	}
	params := &gen.GetExperimentDashboardPageParams{ExperimentResultId: experimentResultID, PageName: pageName, FullMatch: ptr(opts.fullMatch())}
	return callPtr[gen.ApiDashboardPage](ctx, s.c, newCall(gen.OpGetExperimentDashboardPage, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentDashboardPageRequest(srv, params)
	}))
}

// ExportPage streams one dashboard page of a result as a spreadsheet
// workbook: the experimentResultId of a finished run and the id of one of
// its [ResultsService.DashboardPages]. Close the download, or call its
// WriteTo. [ResultsService.ExportDashboard] merges every page into one
// workbook.
//
//scm:operation exportDashboardPage
func (s *ResultsService) ExportPage(ctx context.Context, experimentResultID, pageID int64) (*Download, error) {
	err := check(gen.OpExportDashboardPage).id("experimentResultId", experimentResultID).id("pageId", pageID).done()
	if err != nil {
		return nil, err
	}
	params := &gen.ExportDashboardPageParams{ExperimentResultId: experimentResultID, PageId: pageID}
	return s.c.download(ctx, newCall(gen.OpExportDashboardPage, func(srv string) (*http.Request, error) {
		return gen.NewExportDashboardPageRequest(srv, params)
	}))
}

// Statistics lists the statistic definitions of a running configuration.
//
//scm:operation getStatisticsConfigurations
func (s *ResultsService) Statistics(ctx context.Context, rcID int64) ([]gen.ApiStatisticsConfiguration, error) {
	if err := check(gen.OpGetStatisticsConfigurations).id("rcId", rcID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiStatisticsConfiguration](ctx, s.c, newCall(gen.OpGetStatisticsConfigurations, func(srv string) (*http.Request, error) {
		return gen.NewGetStatisticsConfigurationsRequest(srv, &gen.GetStatisticsConfigurationsParams{RcId: rcID})
	}))
}

// ComparisonResult returns the result table of a comparison experiment.
//
//scm:operation getComparisonResultData
func (s *ResultsService) ComparisonResult(ctx context.Context, rcID int64) (*gen.ApiStrictTableChartData, error) {
	if err := check(gen.OpGetComparisonResultData).id("rcId", rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiStrictTableChartData](ctx, s.c, newCall(gen.OpGetComparisonResultData, func(srv string) (*http.Request, error) {
		return gen.NewGetComparisonResultDataRequest(srv, &gen.GetComparisonResultDataParams{RcId: rcID})
	}))
}

// VariationResult returns the result table of a variation experiment.
//
//scm:operation getVariationResultData
func (s *ResultsService) VariationResult(ctx context.Context, rcID int64) (*gen.ApiStrictTableChartData, error) {
	if err := check(gen.OpGetVariationResultData).id("rcId", rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiStrictTableChartData](ctx, s.c, newCall(gen.OpGetVariationResultData, func(srv string) (*http.Request, error) {
		return gen.NewGetVariationResultDataRequest(srv, &gen.GetVariationResultDataParams{RcId: rcID})
	}))
}
