package batch_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// threeItems imports a workbook, runs an existing scenario, and runs the
// scenario whose runs fail (104, Broken Data).
const threeItems = `project: 1
output: out
items:
  - name: high-demand
    workbook: variants/high.xlsx
    scenarioName: High demand
    experiment: SIMULATION
    export:
      dashboard: high.xlsx
  - name: baseline
    scenario: 101
    experiment: GFA
    export:
      dashboard: baseline.xlsx
  - name: broken
    scenario: 104
    experiment: SIMULATION
`

func TestBatchRunsEveryItem(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	sum := e.run(t, p, batch.Options{Parallel: 2})

	assert.Equal(t, map[string]batch.Status{"high-demand": batch.Done, "baseline": batch.Done, "broken": batch.Failed}, statuses(sum))
	assert.False(t, sum.OK())
	assert.Contains(t, sum.Items[2].Error, "ended in state FAILED")
	assert.Equal(t, map[string]int{"importExcel": 1, "runExperiment": 3, "stopExperiment": 0, "importCancel": 0}, e.applied())

	high := sum.Items[0]
	assert.EqualValues(t, 1001, high.ScenarioID, "the imported scenario")
	assert.Equal(t, []string{filepath.Join("out", "high.xlsx")}, high.Outputs)
	assert.Positive(t, high.Duration)
	book, err := excelize.OpenFile(filepath.Join(e.dir, "out", "high.xlsx"))
	require.NoError(t, err)
	defer book.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, book.GetSheetList(), "a sheet per dashboard page")

	var file struct {
		Items map[string]batch.ItemState `json:"items"`
	}
	b, err := os.ReadFile(p.StatePath())
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &file))
	st := file.Items["high-demand"]
	assert.Equal(t, batch.Done, st.Status)
	assert.EqualValues(t, 4001, st.JobID)
	assert.EqualValues(t, 1001, st.ScenarioID)
	assert.EqualValues(t, 100103, st.RcID, "the SIMULATION experiment of the new scenario")
	assert.NotZero(t, st.RunID)
	assert.Equal(t, ids.ExperimentResultID(st.RunID+1), st.ExperimentResultID, "a listed run's id is its result's minus one")
	assert.EqualValues(t, 10101, file.Items["baseline"].RcID)
}

// A second batch of a finished plan sends nothing that changes state.
func TestBatchDoneItemsAreSkipped(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	e.run(t, p, batch.Options{})
	before := e.applied()
	sum := e.run(t, p, batch.Options{})
	assert.Equal(t, before, e.applied())
	assert.Equal(t, batch.Done, sum.Items[0].Status)
	assert.Equal(t, batch.Failed, sum.Items[2].Status, "a failed item stays failed without RetryFailed")
}

// Killed while a run is under way, the batch resumes it: no second import,
// no second run, and the run was not stopped.
func TestResumeAfterKillDuringRun(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	ctx, progress, cancel := cancelAt(t, func(ev batch.Event) bool {
		return ev.Item == "high-demand" && ev.Step == batch.StepRun && ev.State == "RUNNING"
	})
	defer cancel()
	r := e.runner(t, e.c, p, batch.Options{Parallel: 1, Progress: progress})
	sum, err := r.Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, batch.Interrupted, sum.Items[0].Status)
	assert.Equal(t, batch.Pending, sum.Items[1].Status, "not begun")
	st := r.State("high-demand")
	assert.True(t, st.RunStarted)
	require.NotEmpty(t, st.RunToken, "what tells the run from earlier ones is recorded")
	assert.Zero(t, st.RunID, "a run is listed, and its id known, once it has finished")
	assert.Equal(t, map[string]int{"importExcel": 1, "runExperiment": 1, "stopExperiment": 0, "importCancel": 0}, e.applied())

	sum = e.run(t, p, batch.Options{Parallel: 2})
	assert.Equal(t, map[string]batch.Status{"high-demand": batch.Done, "baseline": batch.Done, "broken": batch.Failed}, statuses(sum))
	assert.Equal(t, map[string]int{"importExcel": 1, "runExperiment": 3, "stopExperiment": 0, "importCancel": 0}, e.applied())
	assert.Equal(t, st.RunOrigin, sum.Items[0].State.RunOrigin, "the resumed run is the one started before")
	assert.NotZero(t, sum.Items[0].State.RunID)
}

// Killed while the import job runs, the batch polls that job again.
func TestResumeAfterKillDuringImport(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	ctx, progress, cancel := cancelAt(t, func(ev batch.Event) bool { return ev.Step == batch.StepImport && ev.State == "RUNNING" })
	defer cancel()
	sum, err := e.runner(t, e.c, p, batch.Options{Parallel: 1, Progress: progress}).Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, batch.Interrupted, sum.Items[0].Status)
	assert.EqualValues(t, 4001, sum.Items[0].State.JobID)
	assert.Zero(t, sum.Items[0].State.ScenarioID)

	sum = e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Done, sum.Items[0].Status)
	assert.EqualValues(t, 1001, sum.Items[0].ScenarioID)
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
	assert.Equal(t, 3, e.srv.Applied("runExperiment"))
}

// With StopOnCancel, Ctrl-C stops the run under way; the resumed batch
// starts a new one for that item. Runs last an hour, so that the virtual
// clock, which jumps at every wait, does not reach the run's end before the
// stop.
func TestStopOnCancelStopsTheRun(t *testing.T) {
	e := newEnv(t, fake.WithRunDuration(time.Hour))
	p := e.plan(t, threeItems)
	ctx, progress, cancel := cancelAt(t, func(ev batch.Event) bool { return ev.Item == "baseline" && ev.State == "RUNNING" })
	defer cancel()
	sum, err := e.runner(t, e.c, p, batch.Options{Parallel: 1, StopOnCancel: true, Progress: progress}).Run(ctx)
	require.NoError(t, err)
	stopped := sum.Items[1]
	assert.Equal(t, batch.Interrupted, stopped.Status)
	assert.Equal(t, []ids.RcID{10101}, stopped.State.StoppedRuns, "the rcId of the run stopped")
	assert.False(t, stopped.State.RunSent)
	assert.Equal(t, 1, e.srv.Applied("stopExperiment"))
	st, err := e.c.Experiments.Status(deadline(t), 10101)
	require.NoError(t, err)
	assert.EqualValues(t, facade.RunStopped, facade.RunStateValue(st))

	sum = e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Done, sum.Items[1].Status)
	assert.Equal(t, 4, e.srv.Applied("runExperiment"), "three items, and the stopped run started anew")
}

func TestRetryFailed(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	e.run(t, p, batch.Options{})
	e.run(t, p, batch.Options{})
	assert.Equal(t, 3, e.srv.Applied("runExperiment"), "the failed item was skipped")

	sum := e.run(t, p, batch.Options{RetryFailed: true})
	assert.Equal(t, 4, e.srv.Applied("runExperiment"), "the failed run started anew, nothing else")
	assert.Equal(t, batch.Failed, sum.Items[2].Status, "scenario 104's runs always fail")
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
}

// A failed import job is recorded; a retry imports again.
func TestFailedImport(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, `project: 1
items:
  - name: nothing-to-import
    workbook: book.xlsx
    tables: [Sites]
    experiment: GFA
`)
	sum := e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Failed, sum.Items[0].Status)
	assert.Equal(t, "FAILED", sum.Items[0].State.JobStatus)
	assert.Zero(t, e.srv.Applied("runExperiment"))

	e.run(t, p, batch.Options{RetryFailed: true})
	assert.Equal(t, 2, e.srv.Applied("importExcel"), "the failed job is imported anew")
}

// A second batch on the state file fails while the first runs; the lock
// file is removed when the first ends, and a later batch locks it again.
func TestStateFileIsLocked(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	ctx := deadline(t)
	lock := p.StatePath() + ".lock"
	tried := make(chan error, 1)
	first := e.runner(t, e.c, p, batch.Options{Parallel: 1, Progress: func(ev batch.Event) {
		if ev.Step == batch.StepImport && ev.State == "UPLOADING" {
			_, err := e.runner(t, e.c, p, batch.Options{}).Run(ctx)
			tried <- err
		}
	}})
	_, err := first.Run(ctx)
	require.NoError(t, err)
	select {
	case err := <-tried:
		assert.ErrorIs(t, err, batch.ErrBusy)
	default:
		t.Fatal("the second batch was not tried while the first ran")
	}
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
	assert.NoFileExists(t, lock, "the lock file is removed when the batch ends")

	e.run(t, p, batch.Options{})
	assert.NoFileExists(t, lock)
}

func TestChangedItemIsRefused(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	e.run(t, p, batch.Options{})
	changed, err := batch.ParsePlan(p.File, []byte(`project: 1
items:
  - name: baseline
    scenario: 101
    experiment: NETWORK_OPTIMIZATION
  - name: new-item
    scenario: 102
    experiment: GFA
`))
	require.NoError(t, err)
	_, err = batch.NewRunner(e.c, changed, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `plan.yaml:3: item "baseline" changed since the state file`)
}

// The fake's side effects are those of the run, whatever the parallelism.
func TestParallelItems(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(1, 1, 5))
	p := e.plan(t, `project: 1
items:
  - {name: a, scenario: 101, experiment: GFA}
  - {name: b, scenario: 101, experiment: COMPARISON}
  - {name: c, scenario: 102, experiment: NETWORK_OPTIMIZATION}
  - {name: d, scenario: 103, experiment: SIMULATION}
  - {name: e, scenario: 301, project: 3, experiment: NETWORK_OPTIMIZATION}
`)
	sum := e.run(t, p, batch.Options{Parallel: 3})
	assert.True(t, sum.OK(), "%+v", sum.Items)
	assert.Equal(t, 5, e.srv.Applied("runExperiment"))
}

// Items on one run configuration queue for it: one run at a time, every one
// done, none refused as already running; the queued ones say what they wait
// for, and the summary counts them.
func TestItemsShareARunConfiguration(t *testing.T) {
	e := newEnv(t)
	var plan strings.Builder
	plan.WriteString("project: 1\nitems:\n")
	for i := range 50 {
		fmt.Fprintf(&plan, "  - {name: item%02d, scenario: 101, experiment: GFA}\n", i)
	}
	p := e.plan(t, plan.String())
	require.Len(t, p.Notes, 1, "the plan notes the shared run configuration")
	assert.Contains(t, p.Notes[0].String(), "plan.yaml:3: items[0]: runs scenario 101's GFA experiment, as do 49 other items (item01 at line 4,")
	waits := map[string]string{}
	sum := e.run(t, p, batch.Options{Parallel: 8, Progress: func(ev batch.Event) {
		if ev.Step == batch.StepQueue {
			waits[ev.Item] = ev.State
		}
	}})
	assert.True(t, sum.OK(), "%+v", sum.Items)
	assert.Equal(t, 50, e.srv.Applied("runExperiment"))
	assert.Equal(t, 50, e.srv.Calls("runExperiment"), "no start refused as already running")
	runs := map[ids.RunID]bool{}
	for _, it := range sum.Items {
		runs[it.State.RunID] = true
		assert.Equal(t, it.Queued, waits[it.Name] != "", it.Name)
	}
	assert.Len(t, runs, 50, "a run each")
	assert.Positive(t, sum.Queued)
	assert.Equal(t, len(waits), sum.Queued)
	for _, state := range waits {
		assert.Contains(t, state, "waiting for run configuration 10101, in use by item item")
	}
}
