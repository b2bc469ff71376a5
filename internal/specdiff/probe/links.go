package probe

import "strings"

// Where the probe takes its inputs from. An answer item's field whose name
// is an input parameter's name gives that input (a run's rcId and
// experimentResultId, a chart's chartId): that rule needs no table. The
// table below adds the links a name does not tell: the fields that give an
// input under another name, such as the id of a list's items. Keep the
// links of one input together; the first field an item has wins.
//
// Fields are tried in order, so a link keeps working while the spec and
// the server disagree on a model's field names. A listed run's rcId is its
// experimentResultId, and its id the runId of the convert operations, as a
// real server lists them.
var inputLinks = map[string]map[string][]string{
	// operation: input parameter: answer item fields
	"getProjects":                        {"projectId": {"projectId", "id"}},
	"getScenarios":                       {"scenarioId": {"scenarioId", "id"}},
	"getExperiments":                     {"rcId": {"rcId", "id"}, "experimentType": {"experimentType", "type"}},
	"getExperiment":                      {"rcId": {"rcId", "id"}},
	"getExperimentRunConfiguration":      {"rcId": {"rcId", "id"}},
	"getExperimentRunsForScenario":       {"experimentResultId": {"experimentResultId", "rcId"}, "runId": {"runId", "id"}},
	"getExperimentRunResultPages":        {"pageId": {"pageId", "id"}},
	"getExperimentDashboardPages":        {"pageId": {"pageId", "id"}, "pageName": {"name"}},
	"getExperimentRunResultPageCharts":   {"chartId": {"chartId", "id"}},
	"getVariableParameterObjectTypes":    {"objectTypeId": {"id"}},
	"getVariableParameterObjects":        {"objectId": {"id"}},
	"getVariableParameterParameters":     {"parameterId": {"id"}, "parameterName": {"name"}},
	"getVariableParameterVariationTypes": {"variationType": {"id"}},
}

// falseFriends are answer fields named like an input that are not that
// input: ApiBasicRun.rcId is the run's experimentResultId, not a running
// configuration's rcId.
var falseFriends = map[string]map[string]bool{
	"getExperimentRunsForScenario": {"rcId": true},
}

// inputKeys keep apart two kinds of id that share a parameter name: a
// result's statistics pages (getExperimentRunResultPages, numeric-string
// ids) and its dashboard pages (getExperimentDashboardPages, integer ids,
// other numbers) are both pageId. An input an operation gives or takes is
// held in the bindings under its key here, else under its own name.
var inputKeys = map[string]map[string]string{
	// operation: input parameter: binding key
	"getExperimentRunResultPages":      {"pageId": "statisticsPageId"},
	"getExperimentRunResultPageCharts": {"pageId": "statisticsPageId"},
}

// emptyDashboard reports a result whose dashboard a real server does not
// export ("Dashboard is empty"): a variation's. The probe takes no
// experimentResultId from it.
func emptyDashboard(op, name string, item map[string]any) bool {
	return op == "getExperimentRunsForScenario" && name == "experimentResultId" && strings.EqualFold(fieldText(item, "type"), "VARIATION")
}

// bindingKey is where the bindings hold operation op's input name.
func bindingKey(op, name string) string {
	if k, ok := inputKeys[op][name]; ok {
		return k
	}
	return name
}

// preferredSources are operations whose answers make the best inputs:
// inputs taken from them are used first. A run's rcId has results; an
// experiment's may have none yet.
var preferredSources = []string{"getExperimentRunsForScenario"}

// inputConstants are inputs no answer gives, with a harmless value.
var inputConstants = map[string]string{
	"stringToBeTranslated": "Scenario",
}

// madeInputs are inputs that only operations that change state make (an
// import starts a job, a variation is created): no read-only answer gives
// them, so the probe calls the operations that need them only when -input
// names one.
var madeInputs = map[string]string{
	"jobId":       "an import or copy job",
	"variationId": "a variation",
}
