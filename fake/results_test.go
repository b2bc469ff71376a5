package fake_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func TestExportDashboardPageIsAWorkbook(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(2, 3, 25))
	_, resultID := e.run(t, rcGFA)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: 2})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode())
	f := openWorkbook(t, r.Body)
	assert.Equal(t, []string{"Costs table 1", "Costs graph 2", "Costs table 3"}, f.GetSheetList())
	rows, err := f.GetRows("Costs table 1")
	require.NoError(t, err)
	assert.Len(t, rows, 30, "the layout of the real product's: three metadata rows, an empty row, a header and every row of the table")
	assert.Equal(t, [][]string{{"Type:", "TABLE"}, {"Statistics:", "Average lead time"}, {"Chart name:", "Costs table 1"}, nil, {"Id", "Name", "Amount", "Count"}}, rows[:5])
	graph, err := f.GetRows("Costs graph 2", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	assert.Len(t, graph, 29, "metadata, a header and 2 series of 12 points")
	assert.Equal(t, []string{"Statistics name", "Time", "Value"}, graph[4])
	assert.Equal(t, []string{"Plan", "45292"}, graph[5][:2], "a point's week is a date: 2024-01-01 as Excel's day number")
	style, err := f.GetCellStyle("Costs graph 2", "B6")
	require.NoError(t, err)
	assert.NotZero(t, style, "the date is formatted as a date")

	table, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 201, Skip: ptr(int32(24))})
	require.NoError(t, err)
	assert.Equal(t, rows[29][0], string(*table.JSON200.Rows[0].Cells[0].Value)[1:len(*table.JSON200.Rows[0].Cells[0].Value)-1], "the export holds the table's rows")
}

func TestLastMileExportsAreWorkbooks(t *testing.T) {
	e := setup(t)
	_, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile}, gen.ApiIndexColumnSelection{RowIndexes: []int64{0, 1, 2, 3}})
	require.NoError(t, err)
	s, err := e.c.ExportLastMileOptimizationShipmentsResultsPageWithResponse(e.ctx, &gen.ExportLastMileOptimizationShipmentsResultsPageParams{RcId: rcLastMile})
	require.NoError(t, err)
	rows, err := openWorkbook(t, s.Body).GetRows("Shipments")
	require.NoError(t, err)
	assert.Len(t, rows, 5)
	m, err := e.c.ExportLastMileOptimizationMilkRunsResultsPageWithResponse(e.ctx, &gen.ExportLastMileOptimizationMilkRunsResultsPageParams{RcId: rcLastMile})
	require.NoError(t, err)
	rows, err = openWorkbook(t, m.Body).GetRows("Milk runs")
	require.NoError(t, err)
	assert.Equal(t, []string{"M1", "O1, O2, O3", "3", "TRUE"}, rows[1])
}

func TestResultsAreDeterministicFromTheSeed(t *testing.T) {
	read := func(seed int64) string {
		e := setup(t, fake.WithLicense(), fake.WithSeed(seed))
		e.run(t, rcGFA)
		r, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101})
		require.NoError(t, err)
		return string(r.Body)
	}
	assert.Equal(t, read(7), read(7))
	assert.NotEqual(t, read(7), read(8))
}

func TestPagingPastTheEndIsEmpty(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(1, 1, 1_000_000))
	e.run(t, rcGFA)
	last, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Skip: ptr(int32(999_998))})
	require.NoError(t, err)
	assert.Len(t, last.JSON200.Rows, 2)
	assert.Equal(t, int64(999_999), last.JSON200.Rows[1].Index)
	past, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Skip: ptr(int32(2_000_000))})
	require.NoError(t, err)
	assert.Empty(t, past.JSON200.Rows)
	assert.Equal(t, int64(1_000_000), past.JSON200.TotalRows)
	def, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101})
	require.NoError(t, err)
	assert.Len(t, def.JSON200.Rows, 1000, "take defaults to 1000")
}

func TestResultsNeedAFinishedRun(t *testing.T) {
	e := setup(t)
	r, err := e.c.GetExperimentRunResultPagesWithResponse(e.ctx, &gen.GetExperimentRunResultPagesParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode(), "as the real server answers a run that is not there")
	assert.Equal(t, "rcId 10101: the experiment has no finished run", *r.JSON5XX.Message)
}

// TestRunResultPagesHaveStringIDs reads a result as the real server answers
// it: {pages: [{page: {id, name}, charts}]} paged over the pages, with
// numeric string page ids that differ from the dashboard's integer ids.
func TestRunResultPagesHaveStringIDs(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(4, 1, 10))
	e.run(t, rcGFA)
	r, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA, Skip: ptr(int32(1)), Take: ptr(int32(2))})
	require.NoError(t, err)
	assert.JSONEq(t, `{"pages": [
		{"page": {"id": "83002", "name": "Costs"}, "charts": [{"chart": {"id": 201, "name": "Costs table 1", "chartType": "TABLE"}, "layout": {"x": 0, "y": 0, "width": 6, "height": 4}}]},
		{"page": {"id": "83003", "name": "Service"}, "charts": [{"chart": {"id": 301, "name": "Service table 1", "chartType": "TABLE"}, "layout": {"x": 0, "y": 0, "width": 6, "height": 4}}]}
	]}`, string(r.Body))

	pages, err := e.c.GetExperimentRunResultPagesWithResponse(e.ctx, &gen.GetExperimentRunResultPagesParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, []gen.ApiPage{{Id: "83001", Name: "Overview"}, {Id: "83002", Name: "Costs"}, {Id: "83003", Name: "Service"}, {Id: "83004", Name: "Inventory"}}, *pages.JSON200)
	charts, err := e.c.GetExperimentRunResultPageChartsWithResponse(e.ctx, &gen.GetExperimentRunResultPageChartsParams{RcId: rcGFA, PageId: 83004})
	require.NoError(t, err)
	assert.Equal(t, []gen.ApiChartMetadataShort{{Id: 401, Name: "Inventory table 1", ChartType: ptr("TABLE")}}, *charts.JSON200)
	dashboardID, err := e.c.GetExperimentRunResultPageChartsWithResponse(e.ctx, &gen.GetExperimentRunResultPageChartsParams{RcId: rcGFA, PageId: 4})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, dashboardID.StatusCode(), "a dashboard page id is no statistics page id")
	assert.Equal(t, "pageId 4: the result has pages 83001 to 83004", *dashboardID.JSON5XX.Message)
}

// TestDashboardPagesByResultID reads dashboard pages by a run's id, the
// experimentResultId, and is refused for a stopped run's and an unknown id.
func TestDashboardPagesByResultID(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcNO})
	require.NoError(t, err)
	_, err = e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcNO})
	require.NoError(t, err)
	_, resultID := e.run(t, rcGFA)
	assert.Equal(t, int64(5002), resultID, "runs and results share one counter from 5001")

	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: resultID})
	require.NoError(t, err)
	require.Len(t, *pages.JSON200, fake.DefaultPages)
	for i, p := range *pages.JSON200 {
		assert.Equal(t, int64(i+1), p.Id, "dashboard page ids are 1..N")
		assert.Equal(t, resultID, *p.ExperimentResultId)
	}
	for id, want := range map[int64]string{5001: "experimentResultId 5001: run 5001 has no result", 999_999: "experimentResultId 999999: no such result"} {
		r, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: id})
		require.NoError(t, err)
		assert.Equal(t, http.StatusInternalServerError, r.StatusCode(), "experimentResultId %d", id)
		assert.Equal(t, want, *r.JSON5XX.Message)
	}
}

// TestVariationDashboardIsEmpty: exporting a page of a variation's result
// answers 500 "Dashboard is empty", as the real server did; its pages list.
func TestVariationDashboardIsEmpty(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, resultID := e.run(t, rcVariation)
	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: resultID})
	require.NoError(t, err)
	require.NotEmpty(t, *pages.JSON200)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: 1})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Equal(t, "Dashboard is empty", *r.JSON5XX.Message)
}

// TestHasErrorsResultIsTheRcID: the experimentResultId a synchronous run of
// scenario 104 answers is its rcId, whose dashboard pages list and whose
// export fails with a Java text ending in `because "run" is null`.
func TestHasErrorsResultIsTheRcID(t *testing.T) {
	e := setup(t, fake.WithLicense())
	run, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: 10403})
	require.NoError(t, err)
	require.NotNil(t, run.JSON200, string(run.Body))
	require.Equal(t, gen.ApiExperimentResultValidationStatusHASERRORS, run.JSON200.ValidationStatus)
	id := run.JSON200.ExperimentResultId
	assert.Equal(t, int64(10403), id)
	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: id})
	require.NoError(t, err)
	require.Len(t, *pages.JSON200, fake.DefaultPages)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: id, PageId: (*pages.JSON200)[0].Id})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.True(t, strings.HasSuffix(*r.JSON5XX.Message, `because "run" is null`), *r.JSON5XX.Message)
}

// TestResultOptionsByType: results of network optimization and variation
// have options, as hasOptions says; others have none.
func TestResultOptionsByType(t *testing.T) {
	e := setup(t, fake.WithLicense())
	for rc, want := range map[int64]int{rcNO: 5, rcVariation: 5, rcGFA: 0, rcSimulation: 0} {
		e.run(t, rc)
		r, err := e.c.GetExperimentRunResultOptionsWithResponse(e.ctx, &gen.GetExperimentRunResultOptionsParams{RcId: rc})
		require.NoError(t, err)
		assert.Len(t, *r.JSON200, want, "rcId %d", rc)
		runs, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: rc / 100})
		require.NoError(t, err)
		last := (*runs.JSON200)[len(*runs.JSON200)-1]
		assert.Equal(t, want > 0, last.HasOptions, "rcId %d", rc)
	}
}
