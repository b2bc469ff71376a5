package facade

import (
	"context"
	"iter"
	"net/http"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ResultsService reads the result of a run by the rcId of its experiment:
// the result's statistics pages, their charts and tables, the statistic
// definitions, and the result tables of comparisons and variations.
//
// Here a page is a statistics page of a result ([ResultsService.StatisticsPages],
// [ResultsService.StatisticsPageCharts], the items [ResultsService.Result] yields),
// and a batch is the whole answer to one request of a skip/take operation
// (the ...Batches iterators: [ResultsService.ResultBatches],
// [ResultsService.ResultOptionBatches], [ResultsService.ChartTableBatches]).
// Dashboard pages, read by the experimentResultId of a finished run, are
// in [DashboardsService].
type ResultsService struct{ service }

func (s *ResultsService) resultSource(rcID ids.RcID) pageSource[gen.ApiExperimentResultPageWrapper, *gen.ApiExperimentResultData] {
	return pager(s.c, gen.OpGetExperimentRunResult, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultParams{RcId: rcID, Skip: skip, Take: take}
		return newCall(gen.OpGetExperimentRunResult, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultRequest(srv, params)
		})
	}, gen.GetExperimentRunResultPageItems)
}

// Result yields the statistics pages of a run's result, each with its
// charts (the page's id is a numeric string; see
// [ResultsService.StatisticsPageCharts]), read in batches by skip and take. opts may
// be nil.
//
//scm:operation getExperimentRunResult
func (s *ResultsService) Result(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[gen.ApiExperimentResultPageWrapper, error] {
	if err := check(gen.OpGetExperimentRunResult).rc(rcID).done(); err != nil {
		return failedSeq[gen.ApiExperimentResultPageWrapper](err)
	}
	return itemsSeq(ctx, s.resultSource(rcID), opts)
}

// ResultBatches yields the whole answers behind [ResultsService.Result],
// one per request (a batch of statistics pages).
//
//scm:pages getExperimentRunResult
func (s *ResultsService) ResultBatches(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[*gen.ApiExperimentResultData, error] {
	if err := check(gen.OpGetExperimentRunResult).rc(rcID).done(); err != nil {
		return failedSeq[*gen.ApiExperimentResultData](err)
	}
	return pagesSeq(ctx, s.resultSource(rcID), opts)
}

func (s *ResultsService) resultOptionsSource(rcID ids.RcID) pageSource[gen.ApiExperimentResultOption, []gen.ApiExperimentResultOption] {
	return pager(s.c, gen.OpGetExperimentRunResultOptions, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultOptionsParams{RcId: rcID, Skip: skip, Take: take}
		return newCall(gen.OpGetExperimentRunResultOptions, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultOptionsRequest(srv, params)
		})
	}, func(p []gen.ApiExperimentResultOption) []gen.ApiExperimentResultOption { return p })
}

// ResultOptions yields the result options (iterations) of a run. opts may
// be nil.
//
//scm:operation getExperimentRunResultOptions
func (s *ResultsService) ResultOptions(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[gen.ApiExperimentResultOption, error] {
	if err := check(gen.OpGetExperimentRunResultOptions).rc(rcID).done(); err != nil {
		return failedSeq[gen.ApiExperimentResultOption](err)
	}
	return itemsSeq(ctx, s.resultOptionsSource(rcID), opts)
}

// ResultOptionBatches yields the whole answers behind
// [ResultsService.ResultOptions], one per request.
//
//scm:pages getExperimentRunResultOptions
func (s *ResultsService) ResultOptionBatches(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[[]gen.ApiExperimentResultOption, error] {
	if err := check(gen.OpGetExperimentRunResultOptions).rc(rcID).done(); err != nil {
		return failedSeq[[]gen.ApiExperimentResultOption](err)
	}
	return pagesSeq(ctx, s.resultOptionsSource(rcID), opts)
}

// StatisticsPages lists the statistics pages of a run's result.
//
//scm:operation getExperimentRunResultPages
func (s *ResultsService) StatisticsPages(ctx context.Context, rcID ids.RcID) ([]gen.ApiPage, error) {
	if err := check(gen.OpGetExperimentRunResultPages).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiPage](ctx, s.c, newCall(gen.OpGetExperimentRunResultPages, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultPagesRequest(srv, &gen.GetExperimentRunResultPagesParams{RcId: rcID})
	}))
}

// StatisticsPageCharts lists the charts of a statistics page: pageID is the id of
// one of [ResultsService.StatisticsPages] (or of a page of [ResultsService.Result]),
// which lists it as a numeric string: [ids.Parse] reads it.
//
//scm:operation getExperimentRunResultPageCharts
func (s *ResultsService) StatisticsPageCharts(ctx context.Context, rcID ids.RcID, pageID ids.PageID) ([]gen.ApiChartMetadataShort, error) {
	if err := check(gen.OpGetExperimentRunResultPageCharts).rc(rcID).page(pageID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentRunResultPageChartsParams{RcId: rcID, PageId: pageID}
	return callList[gen.ApiChartMetadataShort](ctx, s.c, newCall(gen.OpGetExperimentRunResultPageCharts, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultPageChartsRequest(srv, params)
	}))
}

// ChartGraph returns the data of a graph chart.
//
//scm:operation getExperimentRunResultChartGraphData
func (s *ResultsService) ChartGraph(ctx context.Context, rcID ids.RcID, chartID int64) (*gen.ApiGraphChartData, error) {
	if err := check(gen.OpGetExperimentRunResultChartGraphData).rc(rcID).id("chartId", chartID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentRunResultChartGraphDataParams{RcId: rcID, ChartId: chartID}
	return callPtr[gen.ApiGraphChartData](ctx, s.c, newCall(gen.OpGetExperimentRunResultChartGraphData, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunResultChartGraphDataRequest(srv, params)
	}))
}

func (s *ResultsService) chartTableSource(rcID ids.RcID, chartID int64) pageSource[gen.Row, *gen.ApiStrictTableChartData] {
	return pager(s.c, gen.OpGetExperimentRunResultChartTableData, func(skip, take int32) call {
		params := &gen.GetExperimentRunResultChartTableDataParams{RcId: rcID, ChartId: chartID, Skip: skip, Take: take}
		return newCall(gen.OpGetExperimentRunResultChartTableData, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentRunResultChartTableDataRequest(srv, params)
		})
	}, gen.GetExperimentRunResultChartTableDataPageItems)
}

// ChartTableRows yields the rows of a table chart. opts may be nil.
//
//scm:operation getExperimentRunResultChartTableData
func (s *ResultsService) ChartTableRows(ctx context.Context, rcID ids.RcID, chartID int64, opts *PageOptions) iter.Seq2[gen.Row, error] {
	if err := check(gen.OpGetExperimentRunResultChartTableData).rc(rcID).id("chartId", chartID).done(); err != nil {
		return failedSeq[gen.Row](err)
	}
	return itemsSeq(ctx, s.chartTableSource(rcID, chartID), opts)
}

// ChartTableBatches yields the whole answers (with columns and totalRows)
// behind [ResultsService.ChartTableRows], one per request.
//
//scm:pages getExperimentRunResultChartTableData
func (s *ResultsService) ChartTableBatches(ctx context.Context, rcID ids.RcID, chartID int64, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	if err := check(gen.OpGetExperimentRunResultChartTableData).rc(rcID).id("chartId", chartID).done(); err != nil {
		return failedSeq[*gen.ApiStrictTableChartData](err)
	}
	return pagesSeq(ctx, s.chartTableSource(rcID, chartID), opts)
}

// Statistics lists the statistic definitions of a running configuration.
//
//scm:operation getStatisticsConfigurations
func (s *ResultsService) Statistics(ctx context.Context, rcID ids.RcID) ([]gen.ApiStatisticsConfiguration, error) {
	if err := check(gen.OpGetStatisticsConfigurations).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiStatisticsConfiguration](ctx, s.c, newCall(gen.OpGetStatisticsConfigurations, func(srv string) (*http.Request, error) {
		return gen.NewGetStatisticsConfigurationsRequest(srv, &gen.GetStatisticsConfigurationsParams{RcId: rcID})
	}))
}

// ComparisonResult returns the result table of a comparison experiment.
//
//scm:operation getComparisonResultData
func (s *ResultsService) ComparisonResult(ctx context.Context, rcID ids.RcID) (*gen.ApiStrictTableChartData, error) {
	if err := check(gen.OpGetComparisonResultData).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiStrictTableChartData](ctx, s.c, newCall(gen.OpGetComparisonResultData, func(srv string) (*http.Request, error) {
		return gen.NewGetComparisonResultDataRequest(srv, &gen.GetComparisonResultDataParams{RcId: rcID})
	}))
}

// VariationResult returns the result table of a variation experiment.
//
//scm:operation getVariationResultData
func (s *ResultsService) VariationResult(ctx context.Context, rcID ids.RcID) (*gen.ApiStrictTableChartData, error) {
	if err := check(gen.OpGetVariationResultData).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiStrictTableChartData](ctx, s.c, newCall(gen.OpGetVariationResultData, func(srv string) (*http.Request, error) {
		return gen.NewGetVariationResultDataRequest(srv, &gen.GetVariationResultDataParams{RcId: rcID})
	}))
}
