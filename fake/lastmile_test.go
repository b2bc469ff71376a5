package fake_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// tableRows is the row count of a table of scenario 101 (Baseline, whose
// last mile optimization is rcLastMile).
func tableRows(t *testing.T, e *env, tableID string) int64 {
	t.Helper()
	tables, ok := e.srv.ScenarioTables(101)
	require.True(t, ok)
	return tables[tableID]
}

// TestLastMileAddsOnlyTheSelected selects seven orders, deselects one
// shipment and one milk run, and sees exactly the selected ones added.
func TestLastMileAddsOnlyTheSelected(t *testing.T) {
	e := setup(t)
	lmo := &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile}
	chk, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, lmo, gen.ApiIndexColumnSelection{RowIndexes: []int64{0, 2, 4, 6, 8, 10, 12, 14}})
	require.NoError(t, err)
	assert.Equal(t, int64(8), chk.JSON200.SelectedCount)
	un, err := e.c.DeselectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile}, gen.ApiIndexColumnSelection{RowIndexes: []int64{14}})
	require.NoError(t, err)
	assert.Equal(t, int64(7), un.JSON200.SelectedCount)

	ship, err := e.c.DeselectLastMileOptimizationShipmentInShipmentsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcLastMile}, gen.ApiIndexColumnSelection{RowIndexes: []int64{2}})
	require.NoError(t, err)
	assert.Equal(t, int64(6), ship.JSON200.SelectedCount)
	runs, err := e.c.GetLastMileOptimizationMilkRunsTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationMilkRunsTableDataParams{RcId: rcLastMile, Take: 1000})
	require.NoError(t, err)
	require.Len(t, runs.JSON200.EntityList, 3, "7 orders make 2 full milk runs and 1 short one")
	assert.False(t, *runs.JSON200.EntityList[2].Valid)
	valid, err := e.c.GetLastMileOptimizationMilkRunsTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationMilkRunsTableDataParams{RcId: rcLastMile, ShowInvalidRows: ptr(false), Take: 1000})
	require.NoError(t, err)
	assert.Len(t, valid.JSON200.EntityList, 2)
	_, err = e.c.DeselectLastMileOptimizationMilkRunInMilkRunsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcLastMile}, gen.ApiIndexColumnSelection{RowIndexes: []int64{0}})
	require.NoError(t, err)

	_, err = e.c.AddLastMileOptimizationShipmentsToScenarioWithResponse(e.ctx, &gen.AddLastMileOptimizationShipmentsToScenarioParams{RcId: rcLastMile}, gen.ApiShipmentGenerateRequest{})
	require.NoError(t, err)
	_, err = e.c.AddLastMileOptimizationMilkRunsToScenarioWithResponse(e.ctx, &gen.AddLastMileOptimizationMilkRunsToScenarioParams{RcId: rcLastMile}, gen.ApiMilkRunsGenerateRequest{})
	require.NoError(t, err)
	assert.Equal(t, int64(6), tableRows(t, e, "Shipments"))
	assert.Equal(t, int64(2), tableRows(t, e, "MilkRuns"))
}

func TestLastMileAddWithNothingSelected(t *testing.T) {
	e := setup(t)
	r, err := e.c.AddLastMileOptimizationShipmentsToScenarioWithResponse(e.ctx, &gen.AddLastMileOptimizationShipmentsToScenarioParams{RcId: rcLastMile}, gen.ApiShipmentGenerateRequest{})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Contains(t, string(r.Body), `"message":"no shipments are selected; nothing to add"`)
	assert.Equal(t, int64(0), tableRows(t, e, "Shipments"))
}

// TestLastMileSelectionCounts checks the counts every check and uncheck
// answers, on orders and on the shipments and milk runs made from them.
func TestLastMileSelectionCounts(t *testing.T) {
	e := setup(t)
	counts := func(r gen.ApiCheckUncheckResponse) [3]int64 {
		return [3]int64{r.SelectedCount, *r.TotalCount, *r.Changed}
	}
	orders, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{5, 6, 7, 8, 5}})
	require.NoError(t, err)
	assert.Equal(t, [3]int64{4, 40, 4}, counts(*orders.JSON200), "a repeated index changes nothing the second time")

	ship, err := e.c.DeselectLastMileOptimizationShipmentInShipmentsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{0, 3}})
	require.NoError(t, err)
	assert.Equal(t, [3]int64{2, 4, 2}, counts(*ship.JSON200))
	again, err := e.c.SelectLastMileOptimizationShipmentInShipmentsTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{1, 3}})
	require.NoError(t, err)
	assert.Equal(t, [3]int64{3, 4, 1}, counts(*again.JSON200))

	runs, err := e.c.DeselectLastMileOptimizationMilkRunInMilkRunsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{1}})
	require.NoError(t, err)
	assert.Equal(t, [3]int64{1, 2, 1}, counts(*runs.JSON200), "4 orders make a full milk run and a short one")

	shipments, err := e.c.GetLastMileOptimizationShipmentsTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationShipmentsTableDataParams{RcId: rcLastMile, Skip: 2, Take: 1000})
	require.NoError(t, err)
	require.Len(t, shipments.JSON200.EntityList, 2)
	assert.Equal(t, int64(2), shipments.JSON200.EntityList[0].Index)
	assert.Equal(t, `"S8"`, string(*shipments.JSON200.EntityList[0].Cells[0].Value), "the shipment of the third selected order")
	assert.Equal(t, []bool{true, true}, []bool{*shipments.JSON200.EntityList[0].Selected, *shipments.JSON200.EntityList[1].Selected}, "shipment 3 was selected again")

	bad, err := e.c.SelectLastMileOptimizationMilkRunInMilkRunsTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{2}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, bad.StatusCode())
	assert.Contains(t, string(bad.Body), `"message":"body rowIndexes: 2 is outside 0..1"`)
}
