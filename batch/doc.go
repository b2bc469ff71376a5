// Package batch runs many what-if experiments at once and survives being
// killed: a plan lists items, each a scenario (a workbook imported as a new
// scenario, or an existing one), the experiment to run on it and what to
// export; a [Runner] works on them with bounded concurrency and records
// every id in a state file as soon as it is known, so that a batch started
// again goes on where the last one stopped. `scm batch PLAN.yaml` is its
// command line.
//
//	plan, err := batch.ReadPlan("plan.yaml")
//	r, err := batch.NewRunner(c, plan, &batch.Options{Parallel: 4})
//	summary, err := r.Run(ctx)
//
// # Plans
//
//	project: 1                 # default project of the items
//	output: out                # directory of the exports, relative to the plan
//	items:
//	  - name: high-demand      # letters, digits, '.', '_', '-'
//	    workbook: variants/high-demand.xlsx   # imported as a new scenario
//	    scenarioName: High demand             # default: the item's name
//	    tables: [Customers, Demand]           # default: every sheet
//	    experiment: SIMULATION
//	    export:
//	      dashboard: high-demand.xlsx         # every dashboard page, a sheet each
//	  - name: baseline
//	    scenario: 101          # an existing scenario instead of a workbook
//	    experiment: GFA
//
// Further item fields: project, formulas, importExperiments (true unless
// false: the scenario needs its experiments to run) and experimentName (to
// pick one of several experiments of the type). [ReadPlan] reports every
// mistake with its line and field, as [*PlanError]s, before anything is
// sent; the workbooks must exist.
//
// # Steps and the state file
//
// Each item goes through import (or takes its existing scenario), finding
// the experiment of the type (getExperiments), starting the run, waiting
// for it, finding its experimentResultId (getExperimentRunsForScenario) and
// exporting the dashboard. The state file (beside the plan: plan.yaml has
// plan.state.json) records, per item, the jobId, scenarioId, rcId, runId,
// experimentResultId and output files. It is written after every change to
// a temporary file that is then renamed over it, so it is never torn, and
// it is locked while a batch runs (through plan.state.json.lock beside it),
// so two batches never work from it at once.
//
// A resumed batch never sends an import or a run a second time for an item
// that has its id: it polls the recorded job or run. Before it sends an
// import it records the ids of the scenarios that already have the new
// name; before it starts a run it records the experiment's latest run id.
// Those make a call whose answer was lost (killed mid-call, or an error
// matching [facade.ErrMayHaveBeenApplied]) safe to settle:
//
//   - a run: the experiment's status shows a run later than the recorded
//     one, which is adopted, or it does not, and the start took no effect
//     and is sent again (once per batch);
//   - an import: a scenario of the name that was not there before is
//     adopted; when there is none the job may still be running (a workbook
//     import creates its scenario when its job is done), so nothing is
//     sent, the item is [Unknown], and a resumed batch looks again.
//     [Options.RetryFailed] imports again when it still finds none.
//
// Items done are skipped; failed and unknown items are skipped unless
// [Options.RetryFailed] is set, which starts a failed job or run anew.
// When the context ends (Ctrl-C) the items under way are [Interrupted]
// with their ids kept: their runs and jobs go on and a resume waits for
// them, or, with [Options.StopOnCancel], they are stopped and a resume
// starts them anew.
package batch
