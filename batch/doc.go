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
//	allowOutside: false        # true lets exports leave the plan's directory
//	staleWindow: 30s           # how long the server's status lags behind a start
//	maxRunLength: 2h           # the longest a run takes
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
// false: the scenario needs its experiments to run), experimentName (to
// pick one of several experiments of the type), and the item's own
// staleWindow and maxRunLength.
//
// # Bounds
//
// staleWindow and maxRunLength (a duration with its unit: 40s, 10m, 2h)
// are what the user declares of the server and its runs: how long the
// status may lag behind a start (at most [StaleWindowBound]), and the
// longest a run takes (at most [MaxRunLengthBound]). An item's own hold
// over the plan's ([Plan.MaxRunLength], [Item.MaxRunLength]), and the
// plan's over [Options.MaxRunLength] and [Options.StaleWindow] (scm
// batch's --max-run-length and --stale-window). The stale window (10 s
// when none is declared) is the time a lost start is given to show
// (facade.ExperimentsService.Began) and the time a run's end must hold to be the item's
// (facade.Run.Wait). The run length lets Began rule a lost start out, so
// that it is sent again, once; without it such a start is [Unknown]. A run
// length shorter than a real run makes a start that took effect read as
// not begun: declare a bound, not an average. [ReadPlan] reports every
// mistake with its line and field, as [*PlanError]s in one report (a
// duplicate name or export too, whatever else is wrong), before anything is
// sent; the workbooks must exist. [Plan.Notes] names the items that share a
// run configuration.
//
// # The rules of a plan's items
//
// Every plan obeys the same rules, whatever built it: [ReadPlan] applies
// them to a file, [Plan.Check] to a plan built in code (scmtemporal's
// ItemsFromPlan calls it), each mistake a [*PlanError] whose Err is a named
// error:
//
//   - a name is letters, digits, '.', '_' and '-', starting with a letter
//     or digit ([ErrBadName]), at most [MaxNameBytes] ([ErrTooLong]), and
//     no other item's ([ErrDuplicateName]);
//   - a scenario name, an experiment name or a table name is at most
//     [MaxTextBytes], a path (workbook, output, dashboard) at most
//     [MaxPathBytes] ([ErrTooLong]); none holds a control character
//     ([ErrBadText]);
//   - an export is under the plan's directory ([ErrOutside]) unless the
//     plan says allowOutside: true ([Plan.AllowOutside]); paths are
//     compared as written, cleaned and absolute (a symbolic link is
//     followed as the system follows it);
//   - no two items write one file, nor an item the plan or its state file
//     ([ErrSameFile]); [ItemFiles] adds files each item writes besides its
//     export, such as scmtemporal's data files, each under its directory;
//   - a plan file is at most [MaxPlanBytes] ([ErrPlanTooLarge]), and gives
//     no key twice.
//
// # Steps and the state file
//
// Each item goes through import (or takes its existing scenario), finding
// the experiment of the type (getExperiments), starting the run, waiting
// for it, finding its experimentResultId (getExperimentRunsForScenario),
// exporting the dashboard and, with [Options.Data], writing its rows. The state file (beside the plan: plan.yaml has
// plan.state.json) records, per item, the jobId, scenarioId, rcId, runId,
// experimentResultId and output files. It is locked while a batch runs
// (through plan.state.json.lock beside it, removed when the batch ends), so
// two batches never work from it at once.
//
// A batch is new when its state file does not exist, and only then: a new
// batch writes its state file (every item pending), atomically, before its
// first call, so any batch that sent something left a file. A file that
// exists and is not a whole state (empty, white space, cut short, without
// its version or items, or recording no items for a plan that has some)
// is refused by [NewRunner] with an error naming the file, before anything
// is sent: to start anew, remove it; every item is then imported and run
// again. So is a file larger than [MaxStateBytes] (64 MiB), before it is
// read, and one that writes a key twice in an object, wherever it is (an
// item recorded twice, an id written twice in an item, "jobId" and
// "JobID" included, which encoding/json takes for one field): the error
// names the line, as which of the two holds is not known. Fields this
// release does not read are kept: a batch that resumes the state writes
// them back where they were, so that a state a later release wrote loses
// nothing.
//
// # Crash safety
//
// Every change of the state file is written before the next call that
// depends on it: that the import is being sent (with the scenarios that
// already have the name) before importExcel, the jobId before the job is
// polled, the scenarioId before its experiments are listed, the rcId and the
// experiment's latest run before runExperiment, with the start marked as
// sent, the run's end before its result is looked up, the
// experimentResultId before the export. Each change is durable when the
// call goes out: the state is written to a temporary file beside the state
// file (.plan.state.json.<digits>.tmp), synced, renamed over it, and the
// directory is synced, so a batch killed at any moment (SIGKILL, power
// loss) leaves the old state or the new one, never a torn one. When the
// state cannot be written, nothing that depends on it is sent. Exports are
// written the same way (.NAME.<digits>.partial beside the workbook, mode
// 0644 before the umask): a workbook is whole, or the one that was there.
//
// A batch started after a kill first removes the temporary files a killed
// batch left (those of its state file, of its plan's exports and of its
// dataset and parts, and no other file), then goes on from the state
// file. An item with a jobId or a
// runId polls that job or run: an import or a run is never sent a second
// time for an item that has its id. A call whose answer was lost (killed
// mid-call, or an error matching [facade.ErrMayHaveBeenApplied]) is settled
// from what was recorded before it was sent:
//
//   - a run: from its resume token (runToken, recorded before the start;
//     the runOrigin of earlier releases is read too), facade.ExperimentsService.Began
//     says whether the start took effect, with the item's bounds: began
//     (the scenario lists a new run of the experiment, or the status shows
//     a run under way or a new end), and the run is waited for; not begun
//     (only with a maxRunLength: the same successful end as before the
//     start, and no new run listed, once the run length and the stale
//     window are over), and it is sent again, once per batch; or unknown
//     ([facade.ErrStartUnknown]: no evidence within the window, a failure
//     or stop like the last one, a VARIATION run, a first run still under
//     way), and nothing is sent: the item is [Unknown], its error saying
//     what to check, until a batch with [Options.RetryFailed] looks again
//     and sends it if the server still cannot tell. runExperiment is sent
//     at most once per start, whatever the status's lag and the runs'
//     length;
//   - an import: a scenario of the name that was not there before is
//     adopted; when there is none the job may still be running (a workbook
//     import creates its scenario when its job is done), so nothing is
//     sent, the item is [Unknown], and a resumed batch looks again.
//     [Options.RetryFailed] imports again when it still finds none.
//
// Once a run's wait has decided its end, the run's new token, which carries
// the decision, replaces the one recorded: a resumed batch reads the
// result without deciding again. When it reads the state file, the runner
// checks each item's token against the item (facade.TokenSubject: its
// rcId as recorded, its scenario and its experiment type) and its server
// (a token made for another server is refused, facade.ErrValidation): a
// token of another item ([ErrTokenNotTheItems]: tokens swapped, an rcId
// edited) would wait for, and export, that item's run. [NewRunner] refuses
// such a state before anything is sent, naming the item and both values,
// and quoting no token.
//
// Items done are skipped; failed and unknown items are skipped unless
// [Options.RetryFailed] is set, which starts a failed job or run anew.
// When the context ends (Ctrl-C) the items under way are [Interrupted]
// with their ids kept: their runs and jobs go on and a resume waits for
// them, or, with [Options.StopOnCancel], they are stopped and a resume
// starts them anew.
//
// # A dataset of every item's rows
//
// With [Options.Data] the batch writes the rows of every item's result
// into one dataset that DuckDB, pandas or Polars query at once: package
// resultdata's long layout (a record per value, with its page, chart, row,
// column and the value in a typed column), each record beginning with
// [KeyColumns], the item's name, scenarioId and rcId (result_id, among the
// layout's columns, is its experimentResultId):
//
//	format := &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}
//	data := &batch.Dataset{Path: filepath.Join(dir, "results.parquet"), Format: format}
//	r, err := batch.NewRunner(c, plan, &batch.Options{Data: data})
//
// and DuckDB reads it as one table:
//
//	SELECT item, chart_name, sum(number) FROM 'results.parquet'
//	WHERE "column" = 'Value' GROUP BY ALL ORDER BY ALL;
//
// The format is [CSV] or [JSONL], by the file's extension, or a
// [DataFormat] of one's own, such as Parquet through
// resultdata/parquetfile, as above. An item's rows are written as it
// ends, after its export, to a part of its own
// (results.parquet.parts/high-demand.parquet): streamed from each dashboard page's workbook as the
// server exports it (resultdata.Result), so memory holds one page's
// workbook per item under way whatever the number of rows, into a
// temporary file beside the part that is synced and renamed into place
// once whole. The part, with its size and SHA-256, is recorded in the
// item's state before the item is done ([DataPart]). When the batch ends
// (Ctrl-C too), the dataset is written from the parts of every item done,
// in the plan's order, in the same way, unless the state file records it
// as holding those parts already.
//
// A batch killed while an item's rows are written leaves no part recorded
// for it, and a resumed batch writes them again, whole; one killed after
// the part was renamed into place but before it was recorded writes it
// again too, and the dataset takes only recorded parts, each once. So
// each item's rows are in the dataset exactly once, whatever the moment
// of the kill. An item done by a batch without a dataset, or whose part
// is gone, is worked on again by the next batch that writes one, for its
// rows only: nothing is sent but the reading of its result. While a batch
// runs, the parts directory holds the rows of the items done so far
// (read_parquet('out/results.parquet.parts/*.parquet')).
//
// # Shared run configurations
//
// A server runs an experiment (a run configuration, rcId) once at a time:
// the fake's default, and the assumption here, refuses a second start
// while one is under way; others may queue it or run it beside. Before its
// start an item asks the one rule of a run under way (facade.Activity,
// through facade.ExperimentsService.Prepare, with the item's project): a
// run under way that the batch did not start (another process's), seen so
// or refused by the server ([facade.ErrRunUnderWay]), is never taken for
// the item's and never stopped; the item waits for it to end ([StepQueue],
// "waiting for a run of rcId N that this batch did not start"), at the
// pace of the poll policy, then one stale window more, and prepares again.
// A refusal is neither a failure nor an unknown. Items that run the
// same experiment (the same scenario and experiment type and name, or the
// same rcId once found) wait for one another: one item at a time starts,
// waits for and reads the result of its run, and the others queue
// ([StepQueue]), giving up their place among the [Options.Parallel] items
// under way meanwhile. An item whose run was under way when the batch
// began goes first, so that no other item's run passes for its own.
// [Summary.Queued] counts the items that waited.
package batch
