package fake_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func TestExportDashboardPageIsAWorkbook(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(2, 3, 25))
	e.run(t, rcGFA)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: e.resultOf(t, rcGFA), PageId: 2})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode())
	f := openWorkbook(t, r.Body)
	assert.Equal(t, []string{"Costs table 1", "Costs graph 2", "Costs table 3"}, f.GetSheetList())
	rows, err := f.GetRows("Costs table 1")
	require.NoError(t, err)
	assert.Len(t, rows, 26, "a header and every row of the table")
	assert.Equal(t, []string{"Id", "Name", "Amount", "Count"}, rows[0])
	graph, err := f.GetRows("Costs graph 2")
	require.NoError(t, err)
	assert.Len(t, graph, 25, "a header and 2 series of 12 points")

	table, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 201, Skip: ptr(int32(24))})
	require.NoError(t, err)
	assert.Equal(t, rows[25][0], string(*table.JSON200.Rows[0].Cells[0].Value)[1:len(*table.JSON200.Rows[0].Cells[0].Value)-1], "the export holds the table's rows")
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
		r, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA})
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
	assert.Equal(t, "getExperimentRunResultPages: rcId 10101: the experiment has no finished run", *r.JSON5XX.Message)
}

// TestDashboardPagesByResultID reads dashboard pages by the result id a
// finished run reports, and is refused for a stopped run's and an unknown id.
func TestDashboardPagesByResultID(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcNO})
	require.NoError(t, err)
	_, err = e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcNO})
	require.NoError(t, err)
	e.run(t, rcGFA)
	runs, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 101})
	require.NoError(t, err)
	require.Len(t, *runs.JSON200, 2)
	stopped, finished := (*runs.JSON200)[0], (*runs.JSON200)[1]
	assert.Nil(t, stopped.ExperimentResultId, "a stopped run has no result")
	require.NotNil(t, finished.ExperimentResultId)

	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: *finished.ExperimentResultId})
	require.NoError(t, err)
	require.Len(t, *pages.JSON200, fake.DefaultPages)
	assert.Equal(t, *finished.ExperimentResultId, *(*pages.JSON200)[0].ExperimentResultId)
	for _, id := range []int64{*finished.ExperimentResultId - 1, 1} {
		r, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: id})
		require.NoError(t, err)
		assert.Equal(t, http.StatusInternalServerError, r.StatusCode(), "experimentResultId %d", id)
	}
}
