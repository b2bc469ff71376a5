package facade

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
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
			_, err := e.c.Projects.Open(ctxBG, 2)
			require.NoError(t, err)
			return func() error { return result(e.c.Projects.Close(ctxBG)) }
		}},
		gen.OpOpenProject: {"ProjectsService.Open", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.Open(ctxBG, 1)) }
		}},
		gen.OpFindAndOpenProjectByName: {"ProjectsService.OpenByName", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.OpenByName(ctxBG, "Spare Parts", nil)) }
		}},
		gen.OpGetProjects: {"ProjectsService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Projects.List(ctxBG)) }
		}},
	}
}

func scenarioCases() map[gen.OperationID]opCase {
	named := &NewScenarioOptions{Name: "Converted"}
	return map[gen.OperationID]opCase{
		gen.OpGetScenarios: {"ScenariosService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.List(ctxBG, 1)) }
		}},
		gen.OpRemoveScenarioById: {"ScenariosService.Remove", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.Remove(ctxBG, 201)) }
		}},
		gen.OpCopyScenario: {"ScenariosService.Copy", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.Copy(ctxBG, 102, gen.ScenarioTypeSIM, named)) }
		}},
		gen.OpCopyScenarioSynchronously: {"ScenariosService.CopySync", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.CopySync(ctxBG, 102, gen.ScenarioTypeSIM, named)) }
		}},
		gen.OpConvertGFAResultToScenario: {"ScenariosService.ConvertGFAResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertGFAResult(ctxBG, e.fx.runs[opRcGFA], gen.ScenarioTypeNO, named))
			}
		}},
		gen.OpConvertNOResultToScenario: {"ScenariosService.ConvertNOResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertNOResult(ctxBG, e.fx.runs[opRcNO], 2, gen.ScenarioTypeSIM, named))
			}
		}},
		gen.OpConvertSSEResultToScenario: {"ScenariosService.ConvertSSEResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.ConvertSSEResult(ctxBG, e.fx.runs[opRcSSE], false, named)) }
		}},
		gen.OpConvertVariationResultToScenario: {"ScenariosService.ConvertVariationResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Scenarios.ConvertVariationResult(ctxBG, e.fx.runs[opRcVariation], 1)) }
		}},
		gen.OpConvertLastMileOptimizationResultToScenario: {"ScenariosService.ConvertLastMileResult", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Scenarios.ConvertLastMileResult(ctxBG, e.fx.runs[opRcLastMile], "Routes"))
			}
		}},
	}
}

func importCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetImportStatus: {"ImportsService.Status", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.Status(ctxBG, e.fx.job)) }
		}},
		gen.OpImportCancel: {"ImportsService.Cancel", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.Imports.Cancel(ctxBG, e.fx.job) }
		}},
		gen.OpGetTablesMeta: {"ImportsService.TablesMeta", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.TablesMeta(ctxBG)) }
		}},
		gen.OpGetScenariosFromImportedDatabase: {"ImportsService.DatabaseScenarios", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Imports.DatabaseScenarios(ctxBG, testDB())) }
		}},
		gen.OpImportDatabase: {"ImportsService.Database", func(t *testing.T, e *opEnv) func() error {
			sources := []string{"DB Scenario A", "DB Scenario B"}
			return func() error { return result(e.c.Imports.Database(ctxBG, 1, "From DB", sources, testDB(), nil)) }
		}},
		gen.OpImportDatabaseExisting: {"ImportsService.DatabaseExisting", func(t *testing.T, e *opEnv) func() error {
			opts := &ImportOptions{Tables: []string{"Sites"}}
			return func() error {
				return result(e.c.Imports.DatabaseExisting(ctxBG, 1, 101, "DB Scenario A", testDB(), opts))
			}
		}},
		gen.OpImportExcel: {"ImportsService.Excel", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("plan.xlsx", bytes.NewReader(e.workbook))
			return func() error { return result(e.c.Imports.Excel(ctxBG, 1, "From Excel", file, nil)) }
		}},
		gen.OpImportExcelExisting: {"ImportsService.ExcelExisting", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("plan.xlsx", bytes.NewReader(e.workbook))
			opts := &ImportOptions{OverwriteExistingTables: true}
			return func() error { return result(e.c.Imports.ExcelExisting(ctxBG, 1, 101, "Updated", file, opts)) }
		}},
		gen.OpImportScenario: {"ImportsService.Scenario", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("Imported Plan.scm", strings.NewReader("scenario file"))
			return func() error { return result(e.c.Imports.Scenario(ctxBG, 3, file)) }
		}},
		gen.OpImportScenarioExisting: {"ImportsService.ScenarioExisting", func(t *testing.T, e *opEnv) func() error {
			file := UploadReader("p.scm", strings.NewReader("scenario file"))
			opts := &ScenarioImportOptions{CleanTables: true, Tables: []string{"Sites", "Vehicles"}}
			return func() error { return result(e.c.Imports.ScenarioExisting(ctxBG, 1, 102, file, opts)) }
		}},
	}
}

func experimentCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetExperiments: {"ExperimentsService.List", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.List(ctxBG, 1, 101)) }
		}},
		gen.OpGetExperiment: {"ExperimentsService.Get", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Get(ctxBG, 102, gen.ExperimentTypeSAFETYSTOCK)) }
		}},
		gen.OpGetExperimentOptions: {"ExperimentsService.Options", func(t *testing.T, e *opEnv) func() error {
			req := gen.ApiOptionRequest{OptionName: ptr("roadNetwork")}
			return func() error { return firstItem(e.c.Experiments.Options(ctxBG, req, &PageOptions{PageSize: 5})) }
		}},
		gen.OpGetExperimentRunConfiguration: {"ExperimentsService.RunConfiguration", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.RunConfiguration(ctxBG, opRcSSE)) }
		}},
		gen.OpUpdateExperimentRunConfiguration: {"ExperimentsService.UpdateRunConfiguration", func(t *testing.T, e *opEnv) func() error {
			cfg, err := e.c.Experiments.RunConfiguration(ctxBG, opRcSSE)
			require.NoError(t, err)
			cfg.Name = ptr("Safety stock 99%")
			return func() error { return result(e.c.Experiments.UpdateRunConfiguration(ctxBG, opRcSSE, *cfg)) }
		}},
		gen.OpRunExperiment: {"ExperimentsService.Start", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Start(ctxBG, opRcUnrun)) }
		}},
		gen.OpRunExperimentSynchronously: {"ExperimentsService.RunSync", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.RunSync(ctxBG, opRcUnrun)) }
		}},
		gen.OpStopExperiment: {"ExperimentsService.Stop", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Stop(ctxBG, opRcGFA)) }
		}},
		gen.OpGetExperimentStatus: {"ExperimentsService.Status", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Status(ctxBG, opRcGFA)) }
		}},
		gen.OpGetExperimentRunsForScenario: {"ExperimentsService.Runs", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.Runs(ctxBG, 101)) }
		}},
		gen.OpGetScenarioValidationStatus: {"ExperimentsService.ValidationStatus", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationStatus(ctxBG, 104)) }
		}},
		gen.OpGetValidationErrors: {"ExperimentsService.ValidationErrors", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationErrors(ctxBG, 104)) }
		}},
		gen.OpGetValidationWarnings: {"ExperimentsService.ValidationWarnings", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Experiments.ValidationWarnings(ctxBG, 101)) }
		}},
	}
}

func resultCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetExperimentRunResult: {"ResultsService.Result", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.Results.Result(ctxBG, opRcGFA, nil)) }
		}},
		gen.OpGetExperimentRunResultOptions: {"ResultsService.ResultOptions", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.Results.ResultOptions(ctxBG, opRcNO, nil)) }
		}},
		gen.OpGetExperimentRunResultPages: {"ResultsService.Pages", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.Pages(ctxBG, opRcGFA)) }
		}},
		gen.OpGetExperimentRunResultPageCharts: {"ResultsService.PageCharts", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.PageCharts(ctxBG, opRcGFA, 2)) }
		}},
		gen.OpGetExperimentRunResultChartGraphData: {"ResultsService.ChartGraph", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.ChartGraph(ctxBG, opRcGFA, 102)) }
		}},
		gen.OpGetExperimentRunResultChartTableData: {"ResultsService.ChartTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Results.ChartTableRows(ctxBG, opRcGFA, 101, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetExperimentDashboardPages: {"ResultsService.DashboardPages", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.DashboardPages(ctxBG, e.fx.results[opRcGFA])) }
		}},
		gen.OpGetExperimentDashboardPage: {"ResultsService.DashboardPage", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.DashboardPage(ctxBG, e.fx.results[opRcGFA], "Costs", nil)) }
		}},
		gen.OpExportDashboardPage: {"ResultsService.ExportPage", func(t *testing.T, e *opEnv) func() error {
			return func() error { return drained(e.c.Results.ExportPage(ctxBG, e.fx.results[opRcGFA], 1)) }
		}},
		gen.OpGetStatisticsConfigurations: {"ResultsService.Statistics", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.Statistics(ctxBG, opRcGFA)) }
		}},
		gen.OpGetComparisonResultData: {"ResultsService.ComparisonResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.ComparisonResult(ctxBG, opRcComparison)) }
		}},
		gen.OpGetVariationResultData: {"ResultsService.VariationResult", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Results.VariationResult(ctxBG, opRcVariation)) }
		}},
	}
}

func variationCases() map[gen.OperationID]opCase {
	productDemand := ParameterRef{ObjectTypeID: "PRODUCT", ObjectID: "101", ParameterID: "demand"}
	return map[gen.OperationID]opCase{
		gen.OpGetVariableParameterObjectTypes: {"VariationsService.ObjectTypes", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.ObjectTypes(ctxBG, 101)) }
		}},
		gen.OpGetVariableParameterObjectType: {"VariationsService.ObjectType", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.ObjectType(ctxBG, 101, "Demand", nil)) }
		}},
		gen.OpGetVariableParameterObjects: {"VariationsService.Objects", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.Objects(ctxBG, 101, "PRODUCT", &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetVariableParameterParameters: {"VariationsService.Parameters", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.Parameters(ctxBG, 101, "VEHICLE", "203")) }
		}},
		gen.OpGetVariableParameterVariationTypes: {"VariationsService.VariationTypes", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.VariationTypes(ctxBG, 101, siteCapacity)) }
		}},
		gen.OpGetNewVariableParameterTableData: {"VariationsService.NewTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.NewTableRows(ctxBG, opRcVariation, productDemand, gen.VariationTypeSOURCINGSPLIT, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpGetExistingVariableParameterTableData: {"VariationsService.ExistingTableRows", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.Variations.ExistingTableRows(ctxBG, opRcVariation, e.fx.variation, siteCapacity, gen.VariationTypeNUMBERRANGE, &PageOptions{PageSize: 10}))
			}
		}},
		gen.OpUpdateExistingVariableParameterTableDataByIndex: {"VariationsService.UpdateSelection", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return result(e.c.Variations.UpdateSelection(ctxBG, opRcVariation, NewVariationID, siteCapacity, rowsSelection(4)))
			}
		}},
		gen.OpDoesVariableParameterHasSelectedData: {"VariationsService.HasSelectedData", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.Variations.HasSelectedData(ctxBG, opRcVariation, 3, NewVariationID)) }
		}},
		gen.OpCreateNewVariableParameter: {"VariationsService.CreateNew", func(t *testing.T, e *opEnv) func() error {
			req := gen.ApiVariationCreateRequest{RcId: opRcVariation, ObjectTypeId: "PRODUCT", ObjectId: "102", ParameterId: "price",
				VariationType: gen.VariationTypeNUMBERRANGE, TableSelection: &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{0}}}}
			return func() error { return result(e.c.Variations.CreateNew(ctxBG, req)) }
		}},
		gen.OpCreateVariableParameter: {"VariationsService.Create", func(t *testing.T, e *opEnv) func() error {
			_, err := e.c.Variations.UpdateSelection(ctxBG, opRcVariation, NewVariationID, siteCapacity, rowsSelection(7))
			require.NoError(t, err)
			return func() error { return result(e.c.Variations.Create(ctxBG, opRcVariation, siteCapacityVariation())) }
		}},
		gen.OpUpdateVariableParameter: {"VariationsService.Update", func(t *testing.T, e *opEnv) func() error {
			v := gen.ApiVariation{Id: &e.fx.variation, Name: ptr("renamed")}
			return func() error { return result(e.c.Variations.Update(ctxBG, opRcVariation, v)) }
		}},
		gen.OpDeleteVariableParameter: {"VariationsService.Delete", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.Variations.Delete(ctxBG, opRcVariation, e.fx.variation) }
		}},
	}
}

func lastMileCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetLastMileOptimizationOrdersTableData: {"LastMileService.Orders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.LastMile.Orders(ctxBG, opRcLastMile, nil)) }
		}},
		gen.OpSelectLastMileOptimizationOrderInOrdersTable: {"LastMileService.SelectOrders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectOrders(ctxBG, opRcLastMile, []int64{20})) }
		}},
		gen.OpDeselectLastMileOptimizationOrderInOrdersTable: {"LastMileService.DeselectOrders", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectOrders(ctxBG, opRcLastMile, []int64{1})) }
		}},
		gen.OpGetLastMileOptimizationShipmentsTableData: {"LastMileService.Shipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return firstItem(e.c.LastMile.Shipments(ctxBG, opRcLastMile, nil)) }
		}},
		gen.OpSelectLastMileOptimizationShipmentInShipmentsTable: {"LastMileService.SelectShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectShipments(ctxBG, opRcLastMile, []int64{1})) }
		}},
		gen.OpDeselectLastMileOptimizationShipmentInShipmentsTable: {"LastMileService.DeselectShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectShipments(ctxBG, opRcLastMile, []int64{1})) }
		}},
		gen.OpAddLastMileOptimizationShipmentsToScenario: {"LastMileService.AddSelectedShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.LastMile.AddSelectedShipments(ctxBG, opRcLastMile, nil) }
		}},
		gen.OpGetLastMileOptimizationMilkRunsTableData: {"LastMileService.MilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error {
				return firstItem(e.c.LastMile.MilkRuns(ctxBG, opRcLastMile, &MilkRunsOptions{HideInvalid: true}))
			}
		}},
		gen.OpSelectLastMileOptimizationMilkRunInMilkRunsTable: {"LastMileService.SelectMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.SelectMilkRuns(ctxBG, opRcLastMile, []int64{1})) }
		}},
		gen.OpDeselectLastMileOptimizationMilkRunInMilkRunsTable: {"LastMileService.DeselectMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.LastMile.DeselectMilkRuns(ctxBG, opRcLastMile, []int64{1})) }
		}},
		gen.OpAddLastMileOptimizationMilkRunsToScenario: {"LastMileService.AddSelectedMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return e.c.LastMile.AddSelectedMilkRuns(ctxBG, opRcLastMile, nil) }
		}},
		gen.OpExportLastMileOptimizationShipmentsResultsPage: {"LastMileService.ExportShipments", func(t *testing.T, e *opEnv) func() error {
			return func() error { return drained(e.c.LastMile.ExportShipments(ctxBG, opRcLastMile)) }
		}},
		gen.OpExportLastMileOptimizationMilkRunsResultsPage: {"LastMileService.ExportMilkRuns", func(t *testing.T, e *opEnv) func() error {
			return func() error { return drained(e.c.LastMile.ExportMilkRuns(ctxBG, opRcLastMile)) }
		}},
	}
}

func userCases() map[gen.OperationID]opCase {
	return map[gen.OperationID]opCase{
		gen.OpGetCurrentUser: {"UserService.Current", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.Current(ctxBG)) }
		}},
		gen.OpRequestLicense: {"UserService.RequestLicense", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.RequestLicense(ctxBG)) }
		}},
		gen.OpDropLicense: {"UserService.DropLicense", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.DropLicense(ctxBG)) }
		}},
		gen.OpTranslate: {"UserService.Translate", func(t *testing.T, e *opEnv) func() error {
			return func() error { return result(e.c.User.Translate(ctxBG, "Scenario")) }
		}},
	}
}
