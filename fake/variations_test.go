package fake_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func hasSelected(t *testing.T, e *env, variationID string) bool {
	t.Helper()
	r, err := e.c.DoesVariableParameterHasSelectedDataWithResponse(e.ctx, &gen.DoesVariableParameterHasSelectedDataParams{RcId: rcVariation, ObjectId: "1", VariationId: variationID})
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

// numberRange is the request a real client sends to create a NUMBER_RANGE
// variation: {rcId, apiVariation: {objectType, object, parameter,
// variationType, data: {body: {min, max, step}}}}.
func numberRange(objectType, object, parameter string) gen.ApiVariationCreateRequest {
	return gen.ApiVariationCreateRequest{RcId: rcVariation, ApiVariation: gen.ApiVariation{
		ObjectType: idName(objectType), Object: idName(object), Parameter: idName(parameter), VariationType: idName(string(gen.VariationTypeNUMBERRANGE)),
		Data: &gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(10.0), Max: ptr(50.0), Step: ptr(10.0)}}}}
}

// TestVariationOptionsAsObserved lists object types, objects and parameters
// as ApiOptionList {list} with the ids a real server answered.
func TestVariationOptionsAsObserved(t *testing.T) {
	e := setup(t)
	types, err := e.c.GetVariableParameterObjectTypesWithResponse(e.ctx, &gen.GetVariableParameterObjectTypesParams{ScenarioId: 103})
	require.NoError(t, err)
	assert.JSONEq(t, `{"list": [{"id": "DemandData_SIM_FULL", "name": "Demand"}, {"id": "SiteData_SIM_FULL", "name": "Sites"},
		{"id": "ProductData_SIM_FULL", "name": "Products"}]}`, string(types.Body))

	objects, err := e.c.GetVariableParameterObjectsWithResponse(e.ctx, &gen.GetVariableParameterObjectsParams{ScenarioId: 103, ObjectTypeId: "SiteData_SIM_FULL",
		Skip: 10, Take: 5})
	require.NoError(t, err)
	assert.JSONEq(t, `{"list": [{"id": "111", "name": "Site 11"}, {"id": "112", "name": "Site 12"}]}`, string(objects.Body), "paged, numeric-string ids")

	var params []string
	for _, typ := range []string{demand, "SiteData_SIM_FULL", "ProductData_SIM_FULL"} {
		r, err := e.c.GetVariableParameterParametersWithResponse(e.ctx, &gen.GetVariableParameterParametersParams{ScenarioId: 103, ObjectTypeId: typ, ObjectId: ids.ObjectID(firstObject[typ])})
		require.NoError(t, err)
		require.NotNil(t, r.JSON200, string(r.Body))
		for _, p := range r.JSON200.List {
			params = append(params, p.Id)
		}
	}
	assert.Subset(t, params, []string{"period", "quantity", "revenue", "minSplitRatio", "expectedLeadTime"})

	for param, want := range map[string]string{"quantity": `[{"id": "NUMBER_RANGE", "name": "i18n-Variation_NumberRange"}]`,
		"period": `[{"id": "LINK_LIST", "name": "i18n-Variation_LinkList"}, {"id": "MULTIPLE_LINK_LIST", "name": "i18n-Variation_MultipleLinkList"}]`} {
		r, err := e.c.GetVariableParameterVariationTypesWithResponse(e.ctx, &gen.GetVariableParameterVariationTypesParams{ScenarioId: 103, ObjectTypeId: demand, ObjectId: "1", ParameterId: param})
		require.NoError(t, err)
		assert.JSONEq(t, `{"list": `+want+`}`, string(r.Body), param)
	}
}

var firstObject = map[string]string{demand: "1", "SiteData_SIM_FULL": "101", "ProductData_SIM_FULL": "201"}

// TestCreateNumberRangeAsObserved sends the request a real client sends and
// gets an ApiVariation with an id; a NUMBER_RANGE needs no table selection.
func TestCreateNumberRangeAsObserved(t *testing.T) {
	e := setup(t)
	r, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, numberRange(demand, "2", "quantity"))
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	assert.JSONEq(t, `{"id": 3001, "rcId": 10105, "name": "quantity of 2", "objectType": {"id": "DemandData_SIM_FULL", "name": "Demand"},
		"object": {"id": "2", "name": "Demand 2"}, "parameter": {"id": "quantity", "name": "Quantity"},
		"variationType": {"id": "NUMBER_RANGE", "name": "i18n-Variation_NumberRange"}, "data": {"body": {"min": 10, "max": 50, "step": 10}}}`,
		string(r.Body), "the four descriptive fields are {id, name}, as the real server answered")

	bad := numberRange(demand, "2", "quantity")
	bad.ApiVariation.Data.Body.Min = ptr(60.0)
	refused, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, bad)
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, refused.StatusCode())
	assert.Equal(t, "body data.body: min 60 is above max 50", *refused.JSON5XX.Message)
}

// TestTablesOnlyForLinkDataTypes: a parameter that is not of a link data
// type has no table, as the real server answered.
func TestTablesOnlyForLinkDataTypes(t *testing.T) {
	e := setup(t)
	v, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, numberRange(demand, "1", "revenue"))
	require.NoError(t, err)
	require.NotNil(t, v.JSON200, string(v.Body))
	for name, call := range map[string]func() (int, *gen.ApiError, error){
		"new table": func() (int, *gen.ApiError, error) {
			r, err := e.c.GetNewVariableParameterTableDataWithResponse(e.ctx, &gen.GetNewVariableParameterTableDataParams{RcId: rcVariation,
				ObjectTypeId: demand, ObjectId: "1", ParameterId: "revenue", VariationType: gen.VariationTypeNUMBERRANGE, Take: 1000})
			return r.StatusCode(), r.JSON5XX, err
		},
		"existing table": func() (int, *gen.ApiError, error) {
			r, err := e.c.GetExistingVariableParameterTableDataWithResponse(e.ctx, &gen.GetExistingVariableParameterTableDataParams{RcId: rcVariation,
				VariationId: *v.JSON200.Id, ObjectTypeId: demand, ObjectId: "1", ParameterId: "revenue", VariationType: gen.VariationTypeNUMBERRANGE, Take: 1000})
			return r.StatusCode(), r.JSON5XX, err
		},
		"select cells": func() (int, *gen.ApiError, error) {
			params := variationParams("new")
			params.ParameterId = "revenue"
			r, err := e.c.UpdateExistingVariableParameterTableDataByIndexWithResponse(e.ctx, params,
				gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}})
			return r.StatusCode(), r.JSON5XX, err
		},
	} {
		status, apiErr, err := call()
		require.NoError(t, err, name)
		assert.Equal(t, http.StatusInternalServerError, status, name)
		require.NotNil(t, apiErr, name)
		assert.Equal(t, "Tables exist only for link data types", *apiErr.Message, name)
	}
}

// TestVariationRules follows the reference's rules for a table variation:
// no creation while no cells are selected, and the selection moves to the
// variation created.
func TestVariationRules(t *testing.T) {
	e := setup(t)
	assert.False(t, hasSelected(t, e, "new"))
	refused, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, demandPeriod())
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, refused.StatusCode(), "rule 1: no creation while no cells are selected")
	assert.Contains(t, *refused.JSON5XX.Message, "no cells are selected")

	assert.Equal(t, int64(2), selectCells(t, e, "new", true, 3, 4).SelectedCount)
	assert.Equal(t, int64(1), selectCells(t, e, "new", false, 4).SelectedCount)
	assert.True(t, hasSelected(t, e, "new"))
	created, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, demandPeriod())
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, created.StatusCode(), string(created.Body))
	id := *created.JSON200.Id
	assert.False(t, hasSelected(t, e, "new"), "the stored selection moved to the variation")
	assert.True(t, hasSelected(t, e, id.String()))

	table, err := e.c.GetExistingVariableParameterTableDataWithResponse(e.ctx, &gen.GetExistingVariableParameterTableDataParams{RcId: rcVariation, VariationId: id,
		ObjectTypeId: demand, ObjectId: "1", ParameterId: "period", VariationType: gen.VariationTypeLINKLIST, Take: 1000})
	require.NoError(t, err)
	var selected []int64
	for _, r := range table.JSON200.Rows {
		if *r.Selected {
			selected = append(selected, r.Index)
		}
	}
	assert.Equal(t, []int64{3}, selected)
}

func TestCreateNewTableVariationNeedsASelection(t *testing.T) {
	e := setup(t)
	req := gen.ApiVariationCreateRequest{RcId: rcVariation, ApiVariation: demandPeriod()}
	r, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Equal(t, "body tableSelection: no cells are selected; a LINK_LIST variation can be created only with selected cells", *r.JSON5XX.Message)
	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{99}}}
	r, err = e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "body selections[0].rowIndexes: 99 is outside 0..9", *r.JSON5XX.Message)
	req.ApiVariation.VariationType = idName(string(gen.VariationTypeNUMBERRANGE))
	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}
	r, err = e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "variationType: NUMBER_RANGE does not apply to parameter period", *r.JSON5XX.Message)
	req.ApiVariation.VariationType = idName(string(gen.VariationTypeLINKLIST))
	r, err = e.c.CreateNewVariableParameterWithResponse(e.ctx, req)
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	assert.True(t, hasSelected(t, e, r.JSON200.Id.String()))
}

func TestVariationsOnlyOnVariationExperiments(t *testing.T) {
	e := setup(t)
	r, err := e.c.DeleteVariableParameterWithResponse(e.ctx, &gen.DeleteVariableParameterParams{RcId: rcGFA, VariationId: 3001})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Contains(t, string(r.Body), `"message":"rcId 10101: a GFA experiment, this operation needs VARIATION"`)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestCreateVariableParameterNamesTheFirstMissingField(t *testing.T) {
	e := setup(t)
	for range 5 {
		r, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, gen.ApiVariation{Object: idName("1")})
		require.NoError(t, err)
		assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
		assert.Equal(t, "body objectType.id: is required", *r.JSON5XX.Message)
	}
}
