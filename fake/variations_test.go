package fake_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

func hasSelected(t *testing.T, e *env, variationID string) bool {
	t.Helper()
	r, err := e.c.DoesVariableParameterHasSelectedDataWithResponse(e.ctx, &gen.DoesVariableParameterHasSelectedDataParams{RcId: rcVariation, ObjectId: 1, VariationId: variationID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return bool(*r.JSON200)
}

func selectCells(t *testing.T, e *env, variationID string, selected bool, rows ...int64) gen.ApiCheckUncheckResponse {
	t.Helper()
	r, err := e.c.UpdateExistingVariableParameterTableDataByIndexWithResponse(e.ctx, variationParams(variationID),
		gen.ApiBaseIndexSelectionValueRequest{Selected: &selected, Selections: []gen.ApiIndexColumnSelection{{ColumnIndex: ptr(int32(1)), RowIndexes: rows}}})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

func TestVariationRules(t *testing.T) {
	e := setup(t)
	assert.False(t, hasSelected(t, e, "new"))
	refused, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, siteCapacity())
	require.NoError(t, err)
	assert.Equal(t, http.StatusConflict, refused.StatusCode(), "rule 1: no creation while no cells are selected")
	assert.Contains(t, *refused.JSON4XX.Message, "no cells are selected")

	assert.Equal(t, int64(2), selectCells(t, e, "new", true, 3, 4).SelectedCount)
	assert.Equal(t, int64(1), selectCells(t, e, "new", false, 4).SelectedCount)
	assert.True(t, hasSelected(t, e, "new"))
	created, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, siteCapacity())
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, created.StatusCode(), string(created.Body))
	id := *created.JSON200.Id
	assert.False(t, hasSelected(t, e, "new"), "the stored selection moved to the variation")
	assert.True(t, hasSelected(t, e, itoa(id)))

	table, err := e.c.GetExistingVariableParameterTableDataWithResponse(e.ctx, &gen.GetExistingVariableParameterTableDataParams{RcId: rcVariation, VariationId: id,
		ObjectTypeId: "SITE", ObjectId: "1", ParameterId: "capacity", VariationType: gen.VariationTypeNUMBERRANGE})
	require.NoError(t, err)
	var selected []int64
	for _, r := range table.JSON200.Rows {
		if *r.Selected {
			selected = append(selected, r.Index)
		}
	}
	assert.Equal(t, []int64{3}, selected)
}

func TestCreateNewVariableParameterNeedsASelection(t *testing.T) {
	e := setup(t)
	req := gen.ApiVariationCreateRequest{RcId: rcVariation, ObjectTypeId: "SITE", ObjectId: "2", ParameterId: "fixedCost", VariationType: gen.VariationTypeNUMBERRANGE}
	r, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, r.StatusCode())
	assert.Contains(t, *r.JSON4XX.Message, "createNewVariableParameter: body tableSelection: no cells are selected")
	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{99}}}
	r, err = e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Contains(t, *r.JSON4XX.Message, "rowIndexes: 99 is outside 0..9")
	req.VariationType = gen.VariationTypeLINKLIST
	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}
	r, err = e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Contains(t, *r.JSON4XX.Message, "variationType: LINK_LIST does not apply to parameter fixedCost")
}

func TestVariationsOnlyOnVariationExperiments(t *testing.T) {
	e := setup(t)
	r, err := e.c.DeleteVariableParameterWithResponse(e.ctx, &gen.DeleteVariableParameterParams{RcId: rcGFA, VariationId: 3001})
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, r.StatusCode())
	assert.Contains(t, *r.JSON4XX.Message, "rcId 10101: a GFA experiment, this operation needs VARIATION")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestCreateVariableParameterNamesTheFirstMissingField(t *testing.T) {
	e := setup(t)
	for range 5 {
		r, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, gen.ApiVariation{ObjectId: ptr("1")})
		require.NoError(t, err)
		assert.Equal(t, http.StatusBadRequest, r.StatusCode())
		assert.Equal(t, "createVariableParameter: body objectTypeId: is required", *r.JSON4XX.Message)
	}
}
