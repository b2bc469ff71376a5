package probe

import (
	"slices"
	"strings"
)

// rcNeed is the run configuration (experiment) an operation that takes an
// rcId can answer for: of one of types (any when empty), and with a
// finished run when finished is set. Sent another, the server answers an
// error, and the operation's success answer goes unchecked.
type rcNeed struct {
	types    []string // ExperimentType values
	finished bool
}

// rcNeeds is the reviewed table of what every read-only operation that
// takes an rcId needs. The spec does not say it in a form a program can
// read; TestRCNeedsCoverEveryReadOnlyRCOperation checks that every such
// operation has an entry, that the types are the spec's ExperimentType
// values, and that they agree with the operations' tags and summaries (a
// last mile optimization operation needs a LAST_MILE_OPTIMIZATION
// experiment, a comparison result a COMPARISON one).
var rcNeeds = map[string]rcNeed{
	"getExperimentRunConfiguration": {},
	"getExperimentStatus":           {},

	// Results are read from the experiment's latest finished run.
	"getExperimentRunResult":               {finished: true},
	"getExperimentRunResultOptions":        {finished: true},
	"getExperimentRunResultPages":          {finished: true},
	"getExperimentRunResultPageCharts":     {finished: true},
	"getExperimentRunResultChartGraphData": {finished: true},
	"getExperimentRunResultChartTableData": {finished: true},
	"getStatisticsConfigurations":          {finished: true},
	"getComparisonResultData":              {types: []string{"COMPARISON"}, finished: true},
	"getVariationResultData":               {types: []string{"VARIATION"}, finished: true},

	"getNewVariableParameterTableData":      {types: []string{"VARIATION"}},
	"getExistingVariableParameterTableData": {types: []string{"VARIATION"}},
	"doesVariableParameterHasSelectedData":  {types: []string{"VARIATION"}},

	"getLastMileOptimizationOrdersTableData":         {types: []string{"LAST_MILE_OPTIMIZATION"}},
	"getLastMileOptimizationShipmentsTableData":      {types: []string{"LAST_MILE_OPTIMIZATION"}},
	"getLastMileOptimizationMilkRunsTableData":       {types: []string{"LAST_MILE_OPTIMIZATION"}},
	"exportLastMileOptimizationShipmentsResultsPage": {types: []string{"LAST_MILE_OPTIMIZATION"}},
	"exportLastMileOptimizationMilkRunsResultsPage":  {types: []string{"LAST_MILE_OPTIMIZATION"}},
}

// any reports whether every run configuration will do.
func (n rcNeed) any() bool { return len(n.types) == 0 && !n.finished }

// accepts reports whether a run configuration of type typ ("" when no
// answer told it), finished or not, is what n asks for.
func (n rcNeed) accepts(typ string, finished bool) bool {
	if n.finished && !finished {
		return false
	}
	return len(n.types) == 0 || slices.ContainsFunc(n.types, func(t string) bool { return strings.EqualFold(t, typ) })
}

// String describes the run configuration n asks for: "a COMPARISON run
// configuration with a finished run".
func (n rcNeed) String() string {
	s := "a run configuration"
	if len(n.types) > 0 {
		s = "a " + strings.Join(n.types, " or ") + " run configuration"
	}
	if n.finished {
		s += " with a finished run"
	}
	return s
}
