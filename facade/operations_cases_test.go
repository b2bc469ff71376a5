package facade

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// operationCases holds one case per operation, keyed by operation, for
// TestEveryOperationThroughItsMethod.
func operationCases() map[gen.OperationID]opCase {
	cases := map[gen.OperationID]opCase{}
	for _, area := range []map[gen.OperationID]opCase{projectCases(), scenarioCases(), importCases(), experimentCases(),
		resultCases(), variationCases(), lastMileCases(), userCases()} {
		maps.Copy(cases, area)
	}
	return cases
}

func projectCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpCloseProject: {"ProjectsService.Close", func(t *testing.T, e *opEnv) func() error {
			_, err := e.c.Projects.Open(testCtx(t), 2)
			require.NoError(t, err)
			return func() error { return result(e.c.Projects.Close(testCtx(t))) }
		}},
		gen.OpOpenProject: {"ProjectsService.Open", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.Open(testCtx(t), 1)) }
		}},
		gen.OpFindAndOpenProjectByName: {"ProjectsService.OpenByName", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.OpenByName(testCtx(t), "Spare Parts", nil)) }
		}},
		gen.OpGetProjects: {"ProjectsService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.List(testCtx(t))) }
		}},
	}
}

func scenarioCases() map[gen.OperationID]opCase {
	named := &NewScenarioOptions{Name: "Converted"}
	return map[gen.OperationID]opCase{
		gen.OpGetScenarios: {"ScenariosService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.List(testCtx(t), 1)) }
		}},
		gen.OpRemoveScenarioById: {"ScenariosService.Remove", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.Remove(testCtx(t), 201)) }
		}},
		gen.OpCopyScenario: {"ScenariosService.Copy", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.Copy(testCtx(t), 102, gen.ScenarioTypeSIM, named)) }
		}},
		gen.OpCopyScenarioSynchronously: {"ScenariosService.CopySync", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.CopySync(testCtx(t), 102, gen.ScenarioTypeSIM, named)) }
		}},
		gen.OpConvertGFAResultToScenario: {"ScenariosService.ConvertGFAResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertGFAResult(testCtx(t), e.fx.runs[opRcGFA], gen.ScenarioTypeNO, named))
			}
		}},
		gen.OpConvertNOResultToScenario: {"ScenariosService.ConvertNOResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertNOResult(testCtx(t), e.fx.runs[opRcNO], 2, gen.ScenarioTypeSIM, named))
			}
		}},
		gen.OpConvertSSEResultToScenario: {"ScenariosService.ConvertSSEResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertSSEResult(testCtx(t), e.fx.runs[opRcSSE], false, named))
			}
		}},
		gen.OpConvertVariationResultToScenario: {"ScenariosService.ConvertVariationResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertVariationResult(testCtx(t), e.fx.runs[opRcVariation], 1))
			}
		}},
		gen.OpConvertLastMileOptimizationResultToScenario: {"ScenariosService.ConvertLastMileResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertLastMileResult(testCtx(t), e.fx.runs[opRcLastMile], "Routes"))
			}
		}},
	}
}

func importCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetImportStatus: {"ImportsService.Status", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.Status(testCtx(t), e.fx.job)) }
		}},
		gen.OpImportCancel: {"ImportsService.Cancel", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.Imports.Cancel(testCtx(t), e.fx.job) }
		}},
		gen.OpGetTablesMeta: {"ImportsService.TablesMeta", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.TablesMeta(testCtx(t))) }
		}},
		gen.OpGetScenariosFromImportedDatabase: {"ImportsService.DatabaseScenarios", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.DatabaseScenarios(testCtx(t), testDB())) }
		}},
		gen.OpImportDatabase: {"ImportsService.Database", func(t *testing.T, e *opEnv) func() error {
			sources := []string{"DB Scenario A", "DB Scenario B"}
			return func() error { return result(e.c.Imports.Database(testCtx(t), 1, "From DB", sources, testDB(), nil)) }
		}},
		gen.OpImportDatabaseExisting: {"ImportsService.DatabaseExisting", func(t *testing.T, e *opEnv) func() error {
			opts := &ImportOptions{Tables: []string{"Sites"}}
			return func() error {
				return result(e.c.Imports.DatabaseExisting(testCtx(t), 1, 101, "DB Scenario A", testDB(), opts))
			}
		}},
		gen.OpImportExcel: {"ImportsService.Excel", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("plan.xlsx", bytes.NewReader(e.workbook))
			return func() error { return result(e.c.Imports.Excel(testCtx(t), 1, "From Excel", file, nil)) }
		}},
		gen.OpImportExcelExisting: {"ImportsService.ExcelExisting", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("plan.xlsx", bytes.NewReader(e.workbook))
			opts := &ImportOptions{OverwriteExistingTables: true}
			return func() error { return result(e.c.Imports.ExcelExisting(testCtx(t), 1, 101, "Updated", file, opts)) }
		}},
		gen.OpImportScenario: {"ImportsService.Scenario", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("Imported Plan.scm", strings.NewReader("scenario file"))
			return func() error { return result(e.c.Imports.Scenario(testCtx(t), 3, file)) }
		}},
		gen.OpImportScenarioExisting: {"ImportsService.ScenarioExisting", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("p.scm", strings.NewReader("scenario file"))
			opts := &ScenarioImportOptions{CleanTables: true, Tables: []string{"Sites", "Vehicles"}}
			return func() error { return result(e.c.Imports.ScenarioExisting(testCtx(t), 1, 102, file, opts)) }
		}},
	}
}

func experimentCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetExperiments: {"ExperimentsService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.List(testCtx(t), 1, 101)) }
		}},
		gen.OpGetExperiment: {"ExperimentsService.Get", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Get(testCtx(t), 102, gen.ExperimentTypeSAFETYSTOCK)) }
		}},
		gen.OpGetExperimentOptions: {"ExperimentsService.Options", func(t *testing.T, e *opEnv) func() error {
			req := gen.ApiOptionRequest{OptionName: ptr("roadNetwork")}
			return func() error { return firstItem(e.c.Experiments.Options(testCtx(t), req, &PageOptions{PageSize: 5})) }
		}},
		gen.OpGetExperimentRunConfiguration: {"ExperimentsService.RunConfiguration", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.RunConfiguration(testCtx(t), opRcSSE)) }
		}},
		gen.OpUpdateExperimentRunConfiguration: {"ExperimentsService.UpdateRunConfiguration", func(t *testing.T, e *opEnv) func() error {
			cfg, err := e.c.Experiments.RunConfiguration(testCtx(t), opRcSSE)
			require.NoError(t, err)
			cfg.Name = ptr("Safety stock 99%")
			return func() error { return result(e.c.Experiments.UpdateRunConfiguration(testCtx(t), opRcSSE, *cfg)) }
		}},
		gen.OpRunExperiment: {"ExperimentsService.Start", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Start(testCtx(t), opRcUnrun, nil)) }
		}},
		gen.OpRunExperimentSynchronously: {"ExperimentsService.RunSync", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.RunSync(testCtx(t), opRcUnrun)) }
		}},
		gen.OpStopExperiment: {"ExperimentsService.Stop", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Stop(testCtx(t), opRcGFA)) }
		}},
		gen.OpGetExperimentStatus: {"ExperimentsService.Status", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Status(testCtx(t), opRcGFA)) }
		}},
		gen.OpGetExperimentRunsForScenario: {"ExperimentsService.Runs", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Runs(testCtx(t), 101)) }
		}},
		gen.OpGetScenarioValidationStatus: {"ExperimentsService.ValidationStatus", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationStatus(testCtx(t), 104)) }
		}},
		gen.OpGetValidationErrors: {"ExperimentsService.ValidationErrors", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationErrors(testCtx(t), 104)) }
		}},
		gen.OpGetValidationWarnings: {"ExperimentsService.ValidationWarnings", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationWarnings(testCtx(t), 101)) }
		}},
	}
}

func resultCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetExperimentRunResult: {"ResultsService.Result", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.Results.Result(testCtx(t), opRcGFA, nil)) }
		}},
		gen.OpGetExperimentRunResultOptions: {"ResultsService.ResultOptions", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.Results.ResultOptions(testCtx(t), opRcNO, nil)) }
		}},
		gen.OpGetExperimentRunResultPages: {"ResultsService.StatisticsPages", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.StatisticsPages(testCtx(t), opRcGFA)) }
		}},
		gen.OpGetExperimentRunResultPageCharts: {"ResultsService.StatisticsPageCharts", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.StatisticsPageCharts(testCtx(t), opRcGFA, 83002)) }
		}},
		gen.OpGetExperimentRunResultChartGraphData: {"ResultsService.ChartGraph", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.ChartGraph(testCtx(t), opRcGFA, 102)) }
		}},
		gen.OpGetExperimentRunResultChartTableData: {"ResultsService.ChartTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Results.ChartTableRows(testCtx(t), opRcGFA, 101, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetExperimentDashboardPages: {"DashboardsService.Pages", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Dashboards.Pages(testCtx(t), e.fx.results[opRcGFA])) }
		}},
		gen.OpGetExperimentDashboardPage: {"DashboardsService.Page", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Dashboards.Page(testCtx(t), e.fx.results[opRcGFA], "Costs", nil))
			}
		}},
		gen.OpExportDashboardPage: {"DashboardsService.ExportPage", func(t *testing.T, e *opEnv) func() error {
			first := ids.PageID(e.fx.results[opRcGFA] + 2) // the first page of a result
			return func() error { return drained(e.c.Dashboards.ExportPage(testCtx(t), e.fx.results[opRcGFA], first)) }
		}},
		gen.OpGetStatisticsConfigurations: {"ResultsService.Statistics", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.Statistics(testCtx(t), opRcGFA)) }
		}},
		gen.OpGetComparisonResultData: {"ResultsService.ComparisonResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.ComparisonResult(testCtx(t), opRcComparison)) }
		}},
		gen.OpGetVariationResultData: {"ResultsService.VariationResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.VariationResult(testCtx(t), opRcVariation)) }
		}},
	}
}

func variationCases() map[gen.OperationID]opCase {
	demandPeriod := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "1", ParameterID: "period"}
	return map[gen.OperationID]opCase{
		gen.OpGetVariableParameterObjectTypes: {"VariationsService.ObjectTypes", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.ObjectTypes(testCtx(t), 101)) }
		}},
		gen.OpGetVariableParameterObjectType: {"VariationsService.ObjectType", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.ObjectType(testCtx(t), 101, "quantity", nil)) }
		}},
		gen.OpGetVariableParameterObjects: {"VariationsService.Objects", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.Objects(testCtx(t), 101, "ProductData_SIM_FULL", &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetVariableParameterParameters: {"VariationsService.Parameters", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.Parameters(testCtx(t), 101, "ProductData_SIM_FULL", "203")) }
		}},
		gen.OpGetVariableParameterVariationTypes: {"VariationsService.VariationTypes", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.VariationTypes(testCtx(t), 101, siteCapacity)) }
		}},
		gen.OpGetNewVariableParameterTableData: {"VariationsService.NewTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.NewTableRows(testCtx(t), opRcVariation, demandPeriod, gen.VariationTypeLINKLIST, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetExistingVariableParameterTableData: {"VariationsService.ExistingTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.ExistingTableRows(testCtx(t), opRcVariation, e.fx.variation, siteCapacity, gen.VariationTypeLINKLIST, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpUpdateExistingVariableParameterTableDataByIndex: {"VariationsService.UpdateSelection", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Variations.UpdateSelection(testCtx(t), opRcVariation, ids.NewVariation, siteCapacity, rowsSelection(4)))
			}
		}},
		gen.OpDoesVariableParameterHasSelectedData: {"VariationsService.HasSelectedData", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Variations.HasSelectedData(testCtx(t), opRcVariation, "103", ids.NewVariation))
			}
		}},
		gen.OpCreateNewVariableParameter: {"VariationsService.CreateNew", func(t *testing.T, e *opEnv) func() error {
			quantity := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "2", ParameterID: "quantity"}
			req := gen.ApiVariationCreateRequest{RcId: opRcVariation, ApiVariation: quantity.Variation(gen.VariationTypeNUMBERRANGE,
				&gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(10.0), Max: ptr(20.0), Step: ptr(5.0)}})}
			return func() error { return result(e.c.Variations.CreateNew(testCtx(t), req)) }
		}},
		gen.OpCreateVariableParameter: {"VariationsService.Create", func(t *testing.T, e *opEnv) func() error {
			_, err := e.c.Variations.UpdateSelection(testCtx(t), opRcVariation, ids.NewVariation, siteCapacity, rowsSelection(7))
			require.NoError(t, err)
			return func() error { return result(e.c.Variations.Create(testCtx(t), opRcVariation, siteCapacityVariation())) }
		}},
		gen.OpUpdateVariableParameter: {"VariationsService.Update", func(t *testing.T, e *opEnv) func() error {
			v := gen.ApiVariation{Id: &e.fx.variation, Name: ptr("renamed")}
			return func() error { return result(e.c.Variations.Update(testCtx(t), opRcVariation, v)) }
		}},
		gen.OpDeleteVariableParameter: {"VariationsService.Delete", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.Variations.Delete(testCtx(t), opRcVariation, e.fx.variation) }
		}},
	}
}

func lastMileCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetLastMileOptimizationOrdersTableData: {"LastMileService.Orders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.LastMile.Orders(testCtx(t), opRcLastMile, nil)) }
		}},
		gen.OpSelectLastMileOptimizationOrderInOrdersTable: {"LastMileService.SelectOrders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectOrders(testCtx(t), opRcLastMile, []int64{20})) }
		}},
		gen.OpDeselectLastMileOptimizationOrderInOrdersTable: {"LastMileService.DeselectOrders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectOrders(testCtx(t), opRcLastMile, []int64{1})) }
		}},
		gen.OpGetLastMileOptimizationShipmentsTableData: {"LastMileService.Shipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.LastMile.Shipments(testCtx(t), opRcLastMile, nil)) }
		}},
		gen.OpSelectLastMileOptimizationShipmentInShipmentsTable: {"LastMileService.SelectShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectShipments(testCtx(t), opRcLastMile, []int64{1})) }
		}},
		gen.OpDeselectLastMileOptimizationShipmentInShipmentsTable: {"LastMileService.DeselectShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectShipments(testCtx(t), opRcLastMile, []int64{1})) }
		}},
		gen.OpAddLastMileOptimizationShipmentsToScenario: {"LastMileService.AddSelectedShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.LastMile.AddSelectedShipments(testCtx(t), opRcLastMile, nil) }
		}},
		gen.OpGetLastMileOptimizationMilkRunsTableData: {"LastMileService.MilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.LastMile.MilkRuns(testCtx(t), opRcLastMile, &MilkRunsOptions{HideInvalid: true}))
			}
		}},
		gen.OpSelectLastMileOptimizationMilkRunInMilkRunsTable: {"LastMileService.SelectMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectMilkRuns(testCtx(t), opRcLastMile, []int64{1})) }
		}},
		gen.OpDeselectLastMileOptimizationMilkRunInMilkRunsTable: {"LastMileService.DeselectMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectMilkRuns(testCtx(t), opRcLastMile, []int64{1})) }
		}},
		gen.OpAddLastMileOptimizationMilkRunsToScenario: {"LastMileService.AddSelectedMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.LastMile.AddSelectedMilkRuns(testCtx(t), opRcLastMile, nil) }
		}},
		gen.OpExportLastMileOptimizationShipmentsResultsPage: {"LastMileService.ExportShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return drained(e.c.LastMile.ExportShipments(testCtx(t), opRcLastMile)) }
		}},
		gen.OpExportLastMileOptimizationMilkRunsResultsPage: {"LastMileService.ExportMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return drained(e.c.LastMile.ExportMilkRuns(testCtx(t), opRcLastMile)) }
		}},
	}
}

func userCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetCurrentUser: {"UserService.Current", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.Current(testCtx(t))) }
		}},
		gen.OpRequestLicense: {"UserService.RequestLicense", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.RequestLicense(testCtx(t))) }
		}},
		gen.OpDropLicense: {"UserService.DropLicense", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.DropLicense(testCtx(t))) }
		}},
		gen.OpTranslate: {"UserService.Translate", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.Translate(testCtx(t), "Scenario")) }
		}},
	}
}
