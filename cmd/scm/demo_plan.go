package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// steps is the demo's walk, in order; each names the operations it may
// send, and what it changes.
func (d *demo) steps() []demoStep {
	return d.selected([]demoStep{
		{title: "Who am I", ops: ops(gen.OpGetCurrentUser), do: d.user},
		{title: "Projects: take the first one", ops: ops(gen.OpGetProjects), do: d.projects},
		{title: "Open the project by its name", ops: ops(gen.OpFindAndOpenProjectByName), do: d.openProject,
			changes: "your session: opens the first project listed, by its name (findAndOpenProjectByName); the last step closes it again, or reopens the project you had open"},
		{title: "Import a workbook into a new scenario", ops: ops(gen.OpImportExcel, gen.OpGetImportStatus), do: d.importWorkbook,
			changes: "a new scenario: imports a small workbook into a new scenario named \"Demo import HH:MM:SS\" (importExcel)"},
		{title: "Scenarios of the project: take the first SIM scenario", ops: ops(gen.OpGetScenarios), do: d.scenarios},
		{title: "Copy it: the demo changes the copy, never the scenario copied", ops: ops(gen.OpCopyScenarioSynchronously), do: d.copySimulation,
			changes: "a new scenario, the SIM copy: copies the project's first SIM scenario (copyScenarioSynchronously)"},
		{title: "Experiments of the scenario: a run configuration per type", ops: ops(gen.OpGetExperiments), do: d.experiments},
		{title: "Change the SIMULATION's run configuration", ops: ops(gen.OpGetExperimentRunConfiguration, gen.OpUpdateExperimentRunConfiguration),
			do: d.changeReplications, changes: "the SIM copy: adds 1 to the replications of its SIMULATION (updateExperimentRunConfiguration)"},
		{title: "Run the simulation synchronously", ops: ops(gen.OpRunExperimentSynchronously, gen.OpRequestLicense), do: d.run,
			changes: "the SIM copy: runs its SIMULATION (runExperimentSynchronously); if the server refuses for want of a license, requests one (requestLicense), which the last step drops"},
		{title: "The simulation's latest run", ops: ops(gen.OpGetExperimentRunsForScenario, gen.OpGetExperimentStatus),
			do: d.latestRun, mode: readOnlyOnly},
		{title: "Results: pages, charts and a table", ops: ops(gen.OpGetExperimentRunResult, gen.OpGetExperimentDashboardPages,
			gen.OpGetExperimentRunResultPageCharts, gen.OpGetExperimentRunResultChartGraphData, gen.OpGetExperimentRunResultChartTableData), do: d.results},
		{title: "Export every dashboard page into one workbook", ops: ops(gen.OpGetExperimentDashboardPages, gen.OpExportDashboardPage), do: d.export},
		{title: "Variable parameters: one that varies by NUMBER_RANGE", ops: ops(gen.OpGetVariableParameterObjectTypes,
			gen.OpGetVariableParameterObjects, gen.OpGetVariableParameterParameters, gen.OpGetVariableParameterVariationTypes), do: d.parameters},
		{title: "Create a NUMBER_RANGE variation in one call, as real clients do", ops: ops(gen.OpCreateNewVariableParameter), do: d.variation,
			changes: "the SIM copy: creates a variation of its VARIATION experiment (createNewVariableParameter)"},
		{title: "Last mile optimization: the first scenario with one", ops: ops(gen.OpGetScenarios, gen.OpGetExperiments), do: d.findLastMile},
		{title: "Copy it: the demo changes the copy, never the scenario copied", ops: ops(gen.OpCopyScenarioSynchronously, gen.OpGetExperiments),
			do: d.copyLastMile, changes: "a new scenario, the last mile copy: copies the first scenario with a last mile optimization (copyScenarioSynchronously)"},
		{title: "Last mile optimization: the orders", ops: ops(gen.OpGetLastMileOptimizationOrdersTableData), do: d.lastMileOrders},
		{title: "Last mile optimization: only the selected shipments are added", ops: ops(gen.OpSelectLastMileOptimizationOrderInOrdersTable,
			gen.OpGetLastMileOptimizationShipmentsTableData, gen.OpDeselectLastMileOptimizationShipmentInShipmentsTable,
			gen.OpAddLastMileOptimizationShipmentsToScenario), do: d.lastMile,
			changes: "the last mile copy: selects 6 orders of its last mile optimization, deselects a shipment and adds the others to it (select..., deselect..., addLastMileOptimizationShipmentsToScenario)"},
		{title: "End of the session", ops: ops(gen.OpDropLicense, gen.OpCloseProject, gen.OpOpenProject), do: d.finish,
			changes: "your session, put back: drops the license if the demo requested it (dropLicense), and closes the project unless you had it open, or reopens the one you had open (closeProject, openProject)"},
	})
}

func ops(ids ...gen.OperationID) []gen.OperationID { return ids }

// stdinTerminal reports whether scm can ask on standard input; tests
// replace it.
var stdinTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// errNotConfirmed ends a demo the user declined: nothing was sent.
var errNotConfirmed = errors.New("demo: not confirmed; nothing was sent")

// confirm shows, for any server but the embedded fake, what the steps
// will change, and goes on only when --yes or the user on a terminal says
// so. A read-only walk changes nothing and asks nothing.
func (d *demo) confirm(steps []demoStep, yes bool) error {
	if d.embedded || d.readOnly {
		return nil
	}
	fmt.Fprint(d.stderr, d.changePlan(steps))
	switch {
	case yes:
		return nil
	case !stdinTerminal(d.stdin):
		return usagef("demo: %s is not the embedded fake server, and these steps change it; standard input is not a terminal, so scm cannot ask: "+
			"give --yes to go on, or --read-only to walk only the steps that read", shownURL(d.baseURL))
	}
	fmt.Fprint(d.stderr, "Change this server? [y/N] ")
	answer, _ := bufio.NewReader(d.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
		return nil
	}
	return errNotConfirmed
}

// changePlan lists each change the steps make on the server and what it
// changes: the demo's own new scenarios, or the session it puts back.
func (d *demo) changePlan(steps []demoStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scm demo changes the server at %s, in this order:\n", shownURL(d.baseURL))
	for _, s := range steps {
		if s.changes != "" {
			fmt.Fprintf(&b, "  - %s\n", s.changes)
		}
	}
	b.WriteString("It changes no scenario, experiment or result it did not create, and leaves the scenarios it creates for you to look at.\n" +
		"scm demo --read-only walks only the steps that read, and changes nothing.\n")
	return b.String()
}
