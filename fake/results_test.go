package fake_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func TestExportDashboardPageIsAWorkbook(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(2, 3, 25))
	_, resultID := e.run(t, rcGFA)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: ids.PageID(resultID + 2 + 4)}) // page 2: after page 1 and its three charts
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode())
	f := openWorkbook(t, r.Body)
	assert.Equal(t, []string{"Costs table 1", "Costs line 2", "Costs table 3"}, f.GetSheetList())
	rows, err := f.GetRows("Costs table 1")
	require.NoError(t, err)
	assert.Len(t, rows, 30, "the layout of the real product's: three metadata rows, an empty row, a header and every row of the table")
	assert.Equal(t, [][]string{{"Type:", "TABLE"}, {"Statistics:", "Average lead time"}, {"Chart name:", "Costs table 1"}, nil, {"Id", "Name", "Amount", "Count"}}, rows[:5])
	graph, err := f.GetRows("Costs line 2", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	assert.Len(t, graph, 29, "metadata, a header and 2 series of 12 points")
	assert.Equal(t, []string{"Statistics name", "Time", "Value"}, graph[4])
	assert.Equal(t, []string{"Plan", "45292"}, graph[5][:2], "a point's week is a date: 2024-01-01 as Excel's day number")
	style, err := f.GetCellStyle("Costs line 2", "B6")
	require.NoError(t, err)
	assert.NotZero(t, style, "the date is formatted as a date")

	table, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 201, Skip: 24, Take: 1000})
	require.NoError(t, err)
	assert.Equal(t, rows[29][0], string(*table.JSON200.EntityList[0].Cells[0].Value)[1:len(*table.JSON200.EntityList[0].Cells[0].Value)-1], "the export holds the table's rows")
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
		r, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Take: 1000})
		require.NoError(t, err)
		return string(r.Body)
	}
	assert.Equal(t, read(7), read(7))
	assert.NotEqual(t, read(7), read(8))
}

func TestPagingPastTheEndIsEmpty(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(1, 1, 1_000_000))
	e.run(t, rcGFA)
	last, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Skip: 999_998, Take: 1000})
	require.NoError(t, err)
	assert.Len(t, last.JSON200.EntityList, 2)
	assert.Equal(t, int64(999_999), last.JSON200.EntityList[1].Index)
	past, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Skip: 2_000_000, Take: 1000})
	require.NoError(t, err)
	assert.Empty(t, past.JSON200.EntityList)
	assert.Equal(t, int64(1_000_000), past.JSON200.TotalEntityCount)
	def, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Take: 1000})
	require.NoError(t, err)
	assert.Len(t, def.JSON200.EntityList, 1000, "take defaults to 1000")
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
	r, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA, Skip: 1, Take: 2})
	require.NoError(t, err)
	chart := func(id int, name string) string {
		return fmt.Sprintf(`{"chart": {"id": %d, "isGroupModeEnabled": false, "layout": {"height": 1, "startCol": 0, "startRow": 0, "width": 2},
			"name": %q, "rcId": %d, "type": "TABLE"}, "className": "ApiExperimentResultTableChartWrapper",
			"data": {"entityList": [], "id": %[1]d, "totalEntityCount": 0, "totalTechnicalRowCount": 0, "type": "TABLE"}}`, id, name, rcGFA)
	}
	assert.JSONEq(t, `{"pages": [
		{"page": {"id": "83002", "name": "Costs"}, "charts": [`+chart(201, "Costs table 1")+`]},
		{"page": {"id": "83003", "name": "Service"}, "charts": [`+chart(301, "Service table 1")+`]}
	]}`, string(r.Body), "the charts as the real server sent them: a wrapper by className, no entities")

	pages, err := e.c.GetExperimentRunResultPagesWithResponse(e.ctx, &gen.GetExperimentRunResultPagesParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, []gen.ApiPage{{Id: "83001", Name: "Overview"}, {Id: "83002", Name: "Costs"}, {Id: "83003", Name: "Service"}, {Id: "83004", Name: "Inventory"}}, *pages.JSON200)
	charts, err := e.c.GetExperimentRunResultPageChartsWithResponse(e.ctx, &gen.GetExperimentRunResultPageChartsParams{RcId: rcGFA, PageId: 83004})
	require.NoError(t, err)
	assert.Equal(t, []gen.ApiChartMetadataShort{{Id: 401, Name: "Inventory table 1", Type: gen.ChartTypeTABLE, RcId: rcGFA,
		Layout: gen.ApiChartLayoutData{Height: 1, Width: 2}}}, *charts.JSON200)
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
	// a run's id, its result's, one unused, then each page's followed by its charts'
	const block = 3 + fake.DefaultPages*(1+fake.DefaultChartsPerPage)
	assert.Equal(t, ids.ExperimentResultID(5001+block+1), resultID, "each run takes a block of ids from one counter, its result the second")

	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: resultID})
	require.NoError(t, err)
	require.Len(t, *pages.JSON200, fake.DefaultPages)
	for i, p := range *pages.JSON200 {
		first := ids.PageID(int64(resultID) + 2 + int64(i*(1+fake.DefaultChartsPerPage)))
		assert.Equal(t, first, p.Id, "the first page is experimentResultId+2, and each page's charts follow it")
		require.Len(t, *p.Charts, fake.DefaultChartsPerPage)
		assert.Equal(t, int64(first)+1, (*p.Charts)[0].Id)
	}
	for id, want := range map[ids.ExperimentResultID]string{5002: "experimentResultId 5002: run 5001 has no result", 999_999: "experimentResultId 999999: no such result"} {
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
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: ids.PageID(resultID + 2)})
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
	assert.Equal(t, ids.ExperimentResultID(10403), id, "the rcId, answered as a result")
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
	for rc, want := range map[ids.RcID]int{rcNO: 5, rcVariation: 5, rcGFA: 0, rcSimulation: 0} {
		e.run(t, rc)
		r, err := e.c.GetExperimentRunResultOptionsWithResponse(e.ctx, &gen.GetExperimentRunResultOptionsParams{RcId: rc, Take: 1000})
		require.NoError(t, err)
		assert.Len(t, *r.JSON200, want, "rcId %d", rc)
		runs, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: ids.ScenarioID(rc / 100)})
		require.NoError(t, err)
		_, resultID := e.lastRun(t, rc)
		i := slices.IndexFunc(*runs.JSON200, func(r gen.ApiBasicRun) bool { return r.RcId == resultID })
		if rc == rcVariation {
			assert.Equal(t, -1, i, "a VARIATION run is not listed")
			continue
		}
		require.GreaterOrEqual(t, i, 0, "rcId %d's run is listed", rc)
		assert.Equal(t, want > 0, (*runs.JSON200)[i].HasOptions, "rcId %d", rc)
	}
}
