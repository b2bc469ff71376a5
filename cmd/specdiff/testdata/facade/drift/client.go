// Package facade is a test fixture with planted tag drift. Prose that
// mentions //scm:operation <operationId> mid-line is not a tag.
package facade

// Client is a fixture client.
type Client struct{}

// CloseProject calls closeProject.
//
//scm:operation closeProject
func (c *Client) CloseProject() error { return nil }

// OpenProject calls openProject.
//
//scm:operation openProject
func (c *Client) OpenProject() error { return nil }

// FindAndOpenProjectByName calls findAndOpenProjectByName.
//
//scm:operation findAndOpenProjectByName
func (c *Client) FindAndOpenProjectByName() error { return nil }

// GetProjects calls getProjects.
func (c *Client) GetProjects() error { return nil }

// GetScenarios calls getScenarios.
//
//scm:operation get_scenarios
func (c *Client) GetScenarios() error { return nil }

// RemoveScenarioById calls removeScenarioById.
//
//scm:operation removeScenarioById
func (c *Client) RemoveScenarioById() error { return nil }

// CopyScenario calls copyScenario.
//
//scm:operation copyScenario
func (c *Client) CopyScenario() error { return nil }

// CopyScenarioSynchronously calls copyScenarioSynchronously.
//
//scm:operation copyScenarioSynchronously
func (c *Client) CopyScenarioSynchronously() error { return nil }

// ConvertGFAResultToScenario calls convertGFAResultToScenario.
//
//scm:operation convertGFAResultToScenario
func (c *Client) ConvertGFAResultToScenario() error { return nil }

// ConvertNOResultToScenario calls convertNOResultToScenario.
//
//scm:operation convertNOResultToScenario
func (c *Client) ConvertNOResultToScenario() error { return nil }

// ConvertSSEResultToScenario calls convertSSEResultToScenario.
//
//scm:operation convertSSEResultToScenario
func (c *Client) ConvertSSEResultToScenario() error { return nil }

// ConvertVariationResultToScenario calls convertVariationResultToScenario.
//
//scm:operation convertVariationResultToScenario
func (c *Client) ConvertVariationResultToScenario() error { return nil }

// ConvertLastMileOptimizationResultToScenario calls convertLastMileOptimizationResultToScenario.
//
//scm:operation convertLastMileOptimizationResultToScenario
func (c *Client) ConvertLastMileOptimizationResultToScenario() error { return nil }

// GetImportStatus calls getImportStatus.
//
//scm:operation getImportStatus
func (c *Client) GetImportStatus() error { return nil }

// ImportCancel calls importCancel.
//
//scm:operation importCancel
func (c *Client) ImportCancel() error { return nil }

// GetTablesMeta calls getTablesMeta.
//
//scm:operation getTablesMeta
func (c *Client) GetTablesMeta() error { return nil }

// GetScenariosFromImportedDatabase calls getScenariosFromImportedDatabase.
//
//scm:operation getScenariosFromImportedDatabase
func (c *Client) GetScenariosFromImportedDatabase() error { return nil }

// ImportDatabase calls importDatabase.
//
//scm:operation importDatabase
func (c *Client) ImportDatabase() error { return nil }

// ImportDatabaseExisting calls importDatabaseExisting.
//
//scm:operation importDatabaseExisting
func (c *Client) ImportDatabaseExisting() error { return nil }

// ImportExcel calls importExcel.
//
//scm:operation importExcel
func (c *Client) ImportExcel() error { return nil }

// ImportExcelExisting calls importExcelExisting.
//
//scm:operation importExcelExisting
func (c *Client) ImportExcelExisting() error { return nil }

// ImportScenario calls importScenario.
//
//scm:operation importScenario
func (c *Client) ImportScenario() error { return nil }

// ImportScenarioExisting calls importScenarioExisting.
//
//scm:operation importScenarioExisting
func (c *Client) ImportScenarioExisting() error { return nil }

// GetExperiments calls getExperiments.
//
//scm:operation getExperiments
func (c *Client) GetExperiments() error { return nil }

// GetExperiment calls getExperiment.
//
//scm:operation getExperiment
func (c *Client) GetExperiment() error { return nil }

// GetExperimentOptions calls getExperimentOptions.
//
//scm:operation getExperimentOptions
func (c *Client) GetExperimentOptions() error { return nil }

// GetExperimentRunConfiguration calls getExperimentRunConfiguration.
//
//scm:operation getExperimentRunConfiguration
func (c *Client) GetExperimentRunConfiguration() error { return nil }

// UpdateExperimentRunConfiguration calls updateExperimentRunConfiguration.
//
//scm:operation updateExperimentRunConfiguration
func (c *Client) UpdateExperimentRunConfiguration() error { return nil }

// RunExperiment calls runExperiment.
//
//scm:operation runExperiment
func (c *Client) RunExperiment() error { return nil }

// RunExperimentSynchronously calls runExperimentSynchronously.
//
//scm:operation runExperimentSynchronously
func (c *Client) RunExperimentSynchronously() error { return nil }

// StopExperiment calls stopExperiment.
//
//scm:operation stopExperiment
func (c *Client) StopExperiment() error { return nil }

// GetExperimentStatus calls getExperimentStatus.
//
//scm:operation getExperimentStatus
func (c *Client) GetExperimentStatus() error { return nil }

// GetExperimentRunsForScenario calls getExperimentRunsForScenario.
//
//scm:operation getExperimentRunsForScenario
func (c *Client) GetExperimentRunsForScenario() error { return nil }

// GetScenarioValidationStatus calls getScenarioValidationStatus.
//
//scm:operation getScenarioValidationStatus
func (c *Client) GetScenarioValidationStatus() error { return nil }

// GetValidationErrors calls getValidationErrors.
//
//scm:operation getValidationErrors
func (c *Client) GetValidationErrors() error { return nil }

// GetValidationWarnings calls getValidationWarnings.
//
//scm:operation getValidationWarnings
func (c *Client) GetValidationWarnings() error { return nil }

// GetExperimentRunResult calls getExperimentRunResult.
//
//scm:operation getExperimentRunResult
func (c *Client) GetExperimentRunResult() error { return nil }

// GetExperimentRunResultOptions calls getExperimentRunResultOptions.
//
//scm:operation getExperimentRunResultOptions
func (c *Client) GetExperimentRunResultOptions() error { return nil }

// GetExperimentRunResultPages calls getExperimentRunResultPages.
func (c *Client) GetExperimentRunResultPages() error { return nil }

// GetExperimentRunResultPageCharts calls getExperimentRunResultPageCharts.
//
//scm:operation getExperimentRunResultPageCharts
func (c *Client) GetExperimentRunResultPageCharts() error { return nil }

// GetExperimentRunResultChartGraphData calls getExperimentRunResultChartGraphData.
//
//scm:operation getExperimentRunResultChartGraphData
func (c *Client) GetExperimentRunResultChartGraphData() error { return nil }

// GetExperimentRunResultChartTableData calls getExperimentRunResultChartTableData.
//
//scm:operation getExperimentRunResultChartTableData
func (c *Client) GetExperimentRunResultChartTableData() error { return nil }

// GetExperimentDashboardPages calls getExperimentDashboardPages.
//
//scm:operation getExperimentDashboardPages
func (c *Client) GetExperimentDashboardPages() error { return nil }

// GetExperimentDashboardPage calls getExperimentDashboardPage.
//
//scm:operation getExperimentDashboardPage
func (c *Client) GetExperimentDashboardPage() error { return nil }

// ExportDashboardPage calls exportDashboardPage.
//
//scm:operation exportDashboardPage
func (c *Client) ExportDashboardPage() error { return nil }

// GetStatisticsConfigurations calls getStatisticsConfigurations.
//
//scm:operation getStatisticsConfigurations
func (c *Client) GetStatisticsConfigurations() error { return nil }

// GetComparisonResultData calls getComparisonResultData.
//
//scm:operation getComparisonResultData
func (c *Client) GetComparisonResultData() error { return nil }

// GetVariationResultData calls getVariationResultData.
//
//scm:operation getVariationResultData
func (c *Client) GetVariationResultData() error { return nil }

// GetVariableParameterObjectTypes calls getVariableParameterObjectTypes.
//
//scm:operation getVariableParameterObjectTypes
func (c *Client) GetVariableParameterObjectTypes() error { return nil }

// GetVariableParameterObjectType calls getVariableParameterObjectType.
//
//scm:operation getVariableParameterObjectType
func (c *Client) GetVariableParameterObjectType() error { return nil }

// GetVariableParameterObjects calls getVariableParameterObjects.
//
//scm:operation getVariableParameterObjects
func (c *Client) GetVariableParameterObjects() error { return nil }

// GetVariableParameterParameters calls getVariableParameterParameters.
//
//scm:operation getVariableParameterParameters
func (c *Client) GetVariableParameterParameters() error { return nil }

// GetVariableParameterVariationTypes calls getVariableParameterVariationTypes.
//
//scm:operation getVariableParameterVariationTypes
func (c *Client) GetVariableParameterVariationTypes() error { return nil }

// GetNewVariableParameterTableData calls getNewVariableParameterTableData.
//
//scm:operation getNewVariableParameterTableData
func (c *Client) GetNewVariableParameterTableData() error { return nil }

// GetExistingVariableParameterTableData calls getExistingVariableParameterTableData.
//
//scm:operation getExistingVariableParameterTableData
func (c *Client) GetExistingVariableParameterTableData() error { return nil }

// UpdateExistingVariableParameterTableDataByIndex calls updateExistingVariableParameterTableDataByIndex.
//
//scm:operation updateExistingVariableParameterTableDataByIndex
func (c *Client) UpdateExistingVariableParameterTableDataByIndex() error { return nil }

// DoesVariableParameterHasSelectedData calls doesVariableParameterHasSelectedData.
//
//scm:operation doesVariableParameterHasSelectedData
func (c *Client) DoesVariableParameterHasSelectedData() error { return nil }

// CreateNewVariableParameter calls createNewVariableParameter.
//
//scm:operation createNewVariableParameter
func (c *Client) CreateNewVariableParameter() error { return nil }

// CreateVariableParameter calls createVariableParameter.
//
//scm:operation createVariableParameter
func (c *Client) CreateVariableParameter() error { return nil }

// UpdateVariableParameter calls updateVariableParameter.
//
//scm:operation updateVariableParameter
func (c *Client) UpdateVariableParameter() error { return nil }

// DeleteVariableParameter calls deleteVariableParameter.
//
//scm:operation deleteVariableParameter
func (c *Client) DeleteVariableParameter() error { return nil }

// GetLastMileOptimizationOrdersTableData calls getLastMileOptimizationOrdersTableData.
//
//scm:operation getLastMileOptimizationOrdersTableData
func (c *Client) GetLastMileOptimizationOrdersTableData() error { return nil }

// SelectLastMileOptimizationOrderInOrdersTable calls selectLastMileOptimizationOrderInOrdersTable.
//
//scm:operation selectLastMileOptimizationOrderInOrdersTable
func (c *Client) SelectLastMileOptimizationOrderInOrdersTable() error { return nil }

// DeselectLastMileOptimizationOrderInOrdersTable calls deselectLastMileOptimizationOrderInOrdersTable.
//
//scm:operation deselectLastMileOptimizationOrderInOrdersTable
func (c *Client) DeselectLastMileOptimizationOrderInOrdersTable() error { return nil }

// GetLastMileOptimizationShipmentsTableData calls getLastMileOptimizationShipmentsTableData.
//
//scm:operation getLastMileOptimizationShipmentsTableData
func (c *Client) GetLastMileOptimizationShipmentsTableData() error { return nil }

// SelectLastMileOptimizationShipmentInShipmentsTable calls selectLastMileOptimizationShipmentInShipmentsTable.
//
//scm:operation selectLastMileOptimizationShipmentInShipmentsTable
func (c *Client) SelectLastMileOptimizationShipmentInShipmentsTable() error { return nil }

// DeselectLastMileOptimizationShipmentInShipmentsTable calls deselectLastMileOptimizationShipmentInShipmentsTable.
//
//scm:operation deselectLastMileOptimizationShipmentInShipmentsTable
func (c *Client) DeselectLastMileOptimizationShipmentInShipmentsTable() error { return nil }

// AddLastMileOptimizationShipmentsToScenario calls addLastMileOptimizationShipmentsToScenario.
//
//scm:operation addLastMileOptimizationShipmentsToScenario
func (c *Client) AddLastMileOptimizationShipmentsToScenario() error { return nil }

// GetLastMileOptimizationMilkRunsTableData calls getLastMileOptimizationMilkRunsTableData.
//
//scm:operation getLastMileOptimizationMilkRunsTableData
func (c *Client) GetLastMileOptimizationMilkRunsTableData() error { return nil }

// SelectLastMileOptimizationMilkRunInMilkRunsTable calls selectLastMileOptimizationMilkRunInMilkRunsTable.
//
//scm:operation selectLastMileOptimizationMilkRunInMilkRunsTable
func (c *Client) SelectLastMileOptimizationMilkRunInMilkRunsTable() error { return nil }

// DeselectLastMileOptimizationMilkRunInMilkRunsTable calls deselectLastMileOptimizationMilkRunInMilkRunsTable.
//
//scm:operation deselectLastMileOptimizationMilkRunInMilkRunsTable
func (c *Client) DeselectLastMileOptimizationMilkRunInMilkRunsTable() error { return nil }

// AddLastMileOptimizationMilkRunsToScenario calls addLastMileOptimizationMilkRunsToScenario.
//
//scm:operation addLastMileOptimizationMilkRunsToScenario
func (c *Client) AddLastMileOptimizationMilkRunsToScenario() error { return nil }

// ExportLastMileOptimizationShipmentsResultsPage calls exportLastMileOptimizationShipmentsResultsPage.
//
//scm:operation exportLastMileOptimizationShipmentsResultsPage
func (c *Client) ExportLastMileOptimizationShipmentsResultsPage() error { return nil }

// ExportLastMileOptimizationMilkRunsResultsPage calls exportLastMileOptimizationMilkRunsResultsPage.
//
//scm:operation exportLastMileOptimizationMilkRunsResultsPage
func (c *Client) ExportLastMileOptimizationMilkRunsResultsPage() error { return nil }

// GetCurrentUser calls getCurrentUser.
func (c *Client) GetCurrentUser() error { return nil }

// RequestLicense calls requestLicense.
//
//scm:operation requestLicense
func (c *Client) RequestLicense() error { return nil }

// DropLicense calls dropLicense.
func (c *Client) DropLicense() error { return nil }

// Translate calls translate.
//
// scm:operation translate
func (c *Client) Translate() error { return nil }

// OpenProjectByID is a second method for openProject.
//
//scm:operation openProject
func (c *Client) OpenProjectByID() error { return nil }

// ProjectStatistics calls an operation the spec does not have.
//
//scm:operation getProjectStatistics
func (c *Client) ProjectStatistics() error { return nil }

// helper is a function, not a method.
//
//scm:operation getCurrentUser
func helper() {}

//scm:operation dropLicense

// Pages is a generic method.
//
//scm:operation getExperimentRunResultPages
func (p *Pager[T]) Pages() {}

// Pager is a generic fixture type.
type Pager[T any] struct{}
