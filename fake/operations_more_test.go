package fake_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func experimentCases() map[string]opCase {
	return map[string]opCase{
		"getExperiments": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: 101})
			return r, r.JSON200, err
		},
		"getExperiment": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentWithResponse(e.ctx, &gen.GetExperimentParams{ScenarioId: 102, ExperimentType: gen.ExperimentTypeSAFETYSTOCK})
			return r, r.JSON200, err
		},
		"getExperimentOptions": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentOptionsWithResponse(e.ctx, &gen.GetExperimentOptionsParams{Skip: 5, Take: 5}, gen.ApiOptionRequest{OptionName: ptr("roadNetwork")})
			return r, r.JSON200, err
		},
		"getExperimentRunConfiguration": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunConfigurationWithResponse(e.ctx, &gen.GetExperimentRunConfigurationParams{RcId: rcSSE})
			return r, r.JSON200, err
		},
		"updateExperimentRunConfiguration": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			got, err := e.c.GetExperimentRunConfigurationWithResponse(e.ctx, &gen.GetExperimentRunConfigurationParams{RcId: rcSSE})
			require.NoError(t, err)
			body := *got.JSON200
			body.Name = ptr("Safety stock 99%")
			r, err := e.c.UpdateExperimentRunConfigurationWithResponse(e.ctx, &gen.UpdateExperimentRunConfigurationParams{RcId: rcSSE}, body)
			return r, r.JSON200, err
		},
		"runExperiment": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcSimulation})
			return r, r.JSON200, err
		},
		"runExperimentSynchronously": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			go func() { e.clock.BlockUntilWaiters(1); e.clock.Advance(fake.DefaultRunDuration) }()
			r, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: rcSimulation})
			return r, r.JSON200, err
		},
		"stopExperiment": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcSimulation})
			require.NoError(t, err)
			r, err := e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcSimulation})
			return r, r.JSON200, err
		},
		"getExperimentStatus": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcGFA})
			return r, r.JSON200, err
		},
		"getExperimentRunsForScenario": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 101})
			return r, r.JSON200, err
		},
		"getScenarioValidationStatus": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetScenarioValidationStatusWithResponse(e.ctx, &gen.GetScenarioValidationStatusParams{ScenarioId: 104})
			return r, r.JSON200, err
		},
		"getValidationErrors": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetValidationErrorsWithResponse(e.ctx, &gen.GetValidationErrorsParams{ScenarioId: 104})
			return r, r.JSON200, err
		},
		"getValidationWarnings": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetValidationWarningsWithResponse(e.ctx, &gen.GetValidationWarningsParams{ScenarioId: 101})
			return r, r.JSON200, err
		},
	}
}

func resultCases() map[string]opCase {
	return map[string]opCase{
		"getExperimentRunResult": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA, Take: 1000})
			return r, r.JSON200, err
		},
		"getExperimentRunResultOptions": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultOptionsWithResponse(e.ctx, &gen.GetExperimentRunResultOptionsParams{RcId: rcNO, Take: 1000})
			return r, r.JSON200, err
		},
		"getExperimentRunResultPages": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultPagesWithResponse(e.ctx, &gen.GetExperimentRunResultPagesParams{RcId: rcGFA})
			return r, r.JSON200, err
		},
		"getExperimentRunResultPageCharts": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultPageChartsWithResponse(e.ctx, &gen.GetExperimentRunResultPageChartsParams{RcId: rcGFA, PageId: 83002})
			return r, r.JSON200, err
		},
		"getExperimentRunResultChartGraphData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultChartGraphDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartGraphDataParams{RcId: rcGFA, ChartId: 102})
			return r, r.JSON200, err
		},
		"getExperimentRunResultChartTableData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: 101, Take: 10})
			return r, r.JSON200, err
		},
		"getExperimentDashboardPages": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: fx.results[rcGFA]})
			return r, r.JSON200, err
		},
		"getExperimentDashboardPage": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.GetExperimentDashboardPageWithResponse(e.ctx, &gen.GetExperimentDashboardPageParams{ExperimentResultId: fx.results[rcGFA], PageName: "Costs"})
			return r, r.JSON200, err
		},
		"exportDashboardPage": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: fx.results[rcGFA], PageId: ids.PageID(fx.results[rcGFA] + 2)})
			return r, r.Body, err
		},
		"getStatisticsConfigurations": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetStatisticsConfigurationsWithResponse(e.ctx, &gen.GetStatisticsConfigurationsParams{RcId: rcGFA})
			return r, r.JSON200, err
		},
		"getComparisonResultData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetComparisonResultDataWithResponse(e.ctx, &gen.GetComparisonResultDataParams{RcId: rcComparison})
			return r, r.JSON200, err
		},
		"getVariationResultData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariationResultDataWithResponse(e.ctx, &gen.GetVariationResultDataParams{RcId: rcVariation})
			return r, r.JSON200, err
		},
	}
}

func variationCases() map[string]opCase {
	return map[string]opCase{
		"getVariableParameterObjectTypes": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariableParameterObjectTypesWithResponse(e.ctx, &gen.GetVariableParameterObjectTypesParams{ScenarioId: 101})
			return r, r.JSON200, err
		},
		"getVariableParameterObjectType": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariableParameterObjectTypeWithResponse(e.ctx, &gen.GetVariableParameterObjectTypeParams{ScenarioId: 101, ParameterName: "Expected lead time"})
			return r, r.JSON200, err
		},
		"getVariableParameterObjects": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariableParameterObjectsWithResponse(e.ctx, &gen.GetVariableParameterObjectsParams{ScenarioId: 101, ObjectTypeId: "ProductData_SIM_FULL", Take: 10})
			return r, r.JSON200, err
		},
		"getVariableParameterParameters": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariableParameterParametersWithResponse(e.ctx, &gen.GetVariableParameterParametersParams{ScenarioId: 101, ObjectTypeId: "SiteData_SIM_FULL", ObjectId: "103"})
			return r, r.JSON200, err
		},
		"getVariableParameterVariationTypes": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetVariableParameterVariationTypesWithResponse(e.ctx, &gen.GetVariableParameterVariationTypesParams{ScenarioId: 101, ObjectTypeId: demand, ObjectId: "1", ParameterId: "period"})
			return r, r.JSON200, err
		},
		"getNewVariableParameterTableData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetNewVariableParameterTableDataWithResponse(e.ctx, &gen.GetNewVariableParameterTableDataParams{RcId: rcVariation, ObjectTypeId: "SiteData_SIM_FULL", ObjectId: "101", ParameterId: "period", VariationType: gen.VariationTypeMULTIPLELINKLIST, Take: 1000})
			return r, r.JSON200, err
		},
		"getExistingVariableParameterTableData": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.GetExistingVariableParameterTableDataWithResponse(e.ctx, &gen.GetExistingVariableParameterTableDataParams{RcId: rcVariation, VariationId: fx.variation, ObjectTypeId: demand, ObjectId: "1", ParameterId: "period", VariationType: gen.VariationTypeLINKLIST, Take: 1000})
			return r, r.JSON200, err
		},
		"updateExistingVariableParameterTableDataByIndex": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.UpdateExistingVariableParameterTableDataByIndexWithResponse(e.ctx, variationParams("new"),
				gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{ColumnIndex: ptr(int32(1)), RowIndexes: []int64{4}}}})
			return r, r.JSON200, err
		},
		"doesVariableParameterHasSelectedData": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.DoesVariableParameterHasSelectedDataWithResponse(e.ctx, &gen.DoesVariableParameterHasSelectedDataParams{RcId: rcVariation, ObjectId: "1", VariationId: "new"})
			return r, r.JSON200, err
		},
		"createNewVariableParameter": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.CreateNewVariableParameterWithResponse(e.ctx, numberRange(demand, "2", "quantity"))
			return r, r.JSON200, err
		},
		"createVariableParameter": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			_, err := e.c.UpdateExistingVariableParameterTableDataByIndexWithResponse(e.ctx, variationParams("new"),
				gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{7}}}})
			require.NoError(t, err)
			r, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, demandPeriod())
			return r, r.JSON200, err
		},
		"updateVariableParameter": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.UpdateVariableParameterWithResponse(e.ctx, &gen.UpdateVariableParameterParams{RcId: rcVariation}, gen.ApiVariation{Id: &fx.variation, Name: ptr("renamed")})
			return r, r.JSON200, err
		},
		"deleteVariableParameter": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.DeleteVariableParameterWithResponse(e.ctx, &gen.DeleteVariableParameterParams{RcId: rcVariation, VariationId: fx.variation})
			return r, nil, err
		},
	}
}

func lastMileCases() map[string]opCase {
	rows := gen.ApiIndexColumnSelection{RowIndexes: []int64{1}}
	return map[string]opCase{
		"getLastMileOptimizationOrdersTableData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetLastMileOptimizationOrdersTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationOrdersTableDataParams{RcId: rcLastMile, Take: 1000})
			return r, r.JSON200, err
		},
		"selectLastMileOptimizationOrderInOrdersTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile}, gen.ApiIndexColumnSelection{RowIndexes: []int64{20}})
			return r, r.JSON200, err
		},
		"deselectLastMileOptimizationOrderInOrdersTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.DeselectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile}, rows)
			return r, r.JSON200, err
		},
		"getLastMileOptimizationShipmentsTableData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetLastMileOptimizationShipmentsTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationShipmentsTableDataParams{RcId: rcLastMile, Take: 1000})
			return r, r.JSON200, err
		},
		"selectLastMileOptimizationShipmentInShipmentsTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.SelectLastMileOptimizationShipmentInShipmentsTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcLastMile}, rows)
			return r, r.JSON200, err
		},
		"deselectLastMileOptimizationShipmentInShipmentsTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.DeselectLastMileOptimizationShipmentInShipmentsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcLastMile}, rows)
			return r, r.JSON200, err
		},
		"addLastMileOptimizationShipmentsToScenario": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.AddLastMileOptimizationShipmentsToScenarioWithResponse(e.ctx, &gen.AddLastMileOptimizationShipmentsToScenarioParams{RcId: rcLastMile}, gen.ApiShipmentGenerateRequest{})
			return r, nil, err
		},
		"getLastMileOptimizationMilkRunsTableData": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetLastMileOptimizationMilkRunsTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationMilkRunsTableDataParams{RcId: rcLastMile, ShowInvalidRows: ptr(false), Take: 1000})
			return r, r.JSON200, err
		},
		"selectLastMileOptimizationMilkRunInMilkRunsTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.SelectLastMileOptimizationMilkRunInMilkRunsTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcLastMile}, rows)
			return r, r.JSON200, err
		},
		"deselectLastMileOptimizationMilkRunInMilkRunsTable": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.DeselectLastMileOptimizationMilkRunInMilkRunsTableWithResponse(e.ctx, &gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcLastMile}, rows)
			return r, r.JSON200, err
		},
		"addLastMileOptimizationMilkRunsToScenario": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.AddLastMileOptimizationMilkRunsToScenarioWithResponse(e.ctx, &gen.AddLastMileOptimizationMilkRunsToScenarioParams{RcId: rcLastMile}, gen.ApiMilkRunsGenerateRequest{})
			return r, nil, err
		},
		"exportLastMileOptimizationShipmentsResultsPage": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.ExportLastMileOptimizationShipmentsResultsPageWithResponse(e.ctx, &gen.ExportLastMileOptimizationShipmentsResultsPageParams{RcId: rcLastMile})
			return r, r.Body, err
		},
		"exportLastMileOptimizationMilkRunsResultsPage": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.ExportLastMileOptimizationMilkRunsResultsPageWithResponse(e.ctx, &gen.ExportLastMileOptimizationMilkRunsResultsPageParams{RcId: rcLastMile})
			return r, r.Body, err
		},
	}
}

func userCases() map[string]opCase {
	return map[string]opCase{
		"getCurrentUser": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetCurrentUserWithResponse(e.ctx)
			return r, r.JSON200, err
		},
		"requestLicense": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.RequestLicenseWithResponse(e.ctx)
			return r, r.JSON200, err
		},
		"dropLicense": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.DropLicenseWithResponse(e.ctx)
			return r, r.JSON200, err
		},
		"translate": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.TranslateWithResponse(e.ctx, &gen.TranslateParams{StringToBeTranslated: "Scenario"})
			return r, r.JSON200, err
		},
	}
}
