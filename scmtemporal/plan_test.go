package scmtemporal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal"
)

// The example's plan reads, and its items become workflow inputs with
// absolute paths and the plan's options.
func TestItemsFromPlan(t *testing.T) {
	plan, err := batch.ReadPlan(filepath.Join("cmd", "scm-temporal", "plan.yaml"))
	require.NoError(t, err)
	opts := scmtemporal.PlanOptions{Data: "data.csv", Item: scmtemporal.Options{StopOnCancel: true}}
	items, err := scmtemporal.ItemsFromPlan(plan, opts)
	require.NoError(t, err)
	require.Len(t, items, 2)
	dashboard, err := filepath.Abs(filepath.Join("cmd", "scm-temporal", "out", "baseline.xlsx"))
	require.NoError(t, err)
	data, err := filepath.Abs(filepath.Join("data.csv.parts", "baseline.csv"))
	require.NoError(t, err)
	assert.Equal(t, scmtemporal.ItemInput{Name: "baseline", ProjectID: 1, ScenarioID: 101, Experiment: "GFA",
		Dashboard: dashboard, Data: data, Options: opts.Item}, items[0])
}

// A data extension of no format the activities write is refused, naming
// the field.
func TestItemsFromPlanRefusesAnUnknownDataFormat(t *testing.T) {
	plan, err := batch.ReadPlan(filepath.Join("cmd", "scm-temporal", "plan.yaml"))
	require.NoError(t, err)
	_, err = scmtemporal.ItemsFromPlan(plan, scmtemporal.PlanOptions{Data: "data.parquet"})
	assert.ErrorContains(t, err, `PlanOptions.Data data.parquet: the extension ".parquet" names no format built in`)
}

// planClient is a Temporal client whose ExecuteWorkflow runs the item's
// workflow at once in a test workflow environment, on the activities, and
// records the options it was started with.
type planClient struct {
	client.Client
	t       *testing.T
	acts    *scmtemporal.Activities
	started []client.StartWorkflowOptions
	runs    []*endedRun
}

func (c *planClient) ExecuteWorkflow(_ context.Context, opts client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	c.started = append(c.started, opts)
	env := newWorkflowEnv(c.t, c.acts)
	env.ExecuteWorkflow(wf, args...)
	require.True(c.t, env.IsWorkflowCompleted())
	run := &endedRun{id: opts.ID, err: env.GetWorkflowError()}
	c.runs = append(c.runs, run)
	if run.err == nil {
		require.NoError(c.t, env.GetWorkflowResult(&run.result))
	}
	return run, nil
}

// endedRun is a workflow run that has ended. Its first waitErrs waits
// fail with the service's error, as a long poll the service cut.
type endedRun struct {
	client.WorkflowRun
	id       string
	result   scmtemporal.ItemResult
	err      error
	waitErrs int
	waits    int
}

func (r *endedRun) GetID() string    { return r.id }
func (r *endedRun) GetRunID() string { return "run-" + r.id }
func (r *endedRun) Get(_ context.Context, v any) error {
	r.waits++
	if r.waits <= r.waitErrs {
		return serviceerror.NewCanceled("RST_STREAM CANCEL")
	}
	if r.err != nil {
		return r.err
	}
	*v.(*scmtemporal.ItemResult) = r.result
	return nil
}

// StartPlan starts a workflow per item, with ids of the plan's name and
// the item's, on the default task queue, attaching to one under way and
// starting again only one that failed; Wait's summary says how each
// ended, and the table shows it.
func TestStartPlanAndItsSummary(t *testing.T) {
	srv, clock := newFake(t)
	pc := &planClient{t: t, acts: activities(t, srv, nil, clock)}
	dir := t.TempDir()
	plan, err := batch.ParsePlan(filepath.Join(dir, "weekly.yaml"), []byte(`project: 1
items:
  - name: baseline
    scenario: 101
    experiment: GFA
    export:
      dashboard: baseline.xlsx
  - name: simulation
    scenario: 103
    experiment: SIMULATION
  - name: broken
    scenario: 104
    experiment: SIMULATION
`))
	require.NoError(t, err)
	pr, err := scmtemporal.StartPlan(testCtx(t), pc, plan, scmtemporal.PlanOptions{})
	require.NoError(t, err)
	require.Len(t, pc.started, 3)
	for i, name := range []string{"baseline", "simulation", "broken"} {
		assert.Equal(t, scmtemporal.StartedItem{Name: name, WorkflowID: "scm-weekly-" + name, RunID: "run-scm-weekly-" + name}, pr.Items[i])
		assert.Equal(t, client.StartWorkflowOptions{ID: "scm-weekly-" + name, TaskQueue: scmtemporal.DefaultTaskQueue,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, pc.started[i])
	}

	sum, err := pr.Wait(testCtx(t))
	require.NoError(t, err)
	require.Len(t, sum.Items, 3)
	assert.Equal(t, []scmtemporal.ItemStatus{scmtemporal.ItemDone, scmtemporal.ItemDone, scmtemporal.ItemFailed},
		[]scmtemporal.ItemStatus{sum.Items[0].Status, sum.Items[1].Status, sum.Items[2].Status})
	assert.Equal(t, []string{filepath.Join(dir, "baseline.xlsx")}, sum.Items[0].Result.Outputs)
	assert.EqualValues(t, 10303, sum.Items[1].Result.RcID)
	assert.ErrorContains(t, sum.Items[2].Err, "The scenario has validation errors")
	assert.EqualError(t, sum.Err(), "1 of 3 items did not finish (1 failed, 0 unknown, 0 cancelled, 0 not seen to end)")

	var table strings.Builder
	require.NoError(t, sum.WriteTable(&table))
	lines := strings.Split(table.String(), "\n")
	assert.Regexp(t, `^WORKFLOW +STATUS +SCENARIO +RESULT +OUTPUTS +ERROR$`, lines[0])
	assert.Regexp(t, `^scm-weekly-simulation +done +103 +50\d\d +$`, lines[2])
	assert.Regexp(t, `^scm-weekly-broken +failed +104 +0 +.*validation errors`, lines[3])
}

// An item stopped as unknown has its own status in the summary: a start
// whose answer was lost after a failed run, the run failing at once, so
// the status shows the same failed end before and after.
func TestSummaryTellsUnknownItems(t *testing.T) {
	srv, clock := newFake(t, fake.WithRunDuration(0))
	pc := &planClient{t: t, acts: activities(t, srv, nil, clock)}
	_, err := pc.acts.Client.RunAndWait(testCtx(t), 10403, nil)
	require.Error(t, err, "scenario 104's runs fail")
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
	plan, err := batch.ParsePlan(filepath.Join(t.TempDir(), "plan.yaml"), []byte(`project: 1
items:
  - name: broken
    scenario: 104
    experiment: SIMULATION
`))
	require.NoError(t, err)
	pr, err := scmtemporal.StartPlan(testCtx(t), pc, plan, scmtemporal.PlanOptions{})
	require.NoError(t, err)
	sum, err := pr.Wait(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, scmtemporal.ItemUnknown, sum.Items[0].Status, "%v", sum.Items[0].Err)
	assert.EqualError(t, sum.Err(), "1 of 1 items did not finish (0 failed, 1 unknown, 0 cancelled, 0 not seen to end)")
}

// Items that share a run configuration are refused, naming the plan's
// note: their workflows would run it at once.
func TestItemsFromPlanRefusesASharedRunConfiguration(t *testing.T) {
	plan, err := batch.ParsePlan("shared.yaml", []byte(`project: 1
items:
  - {name: a, scenario: 103, experiment: SIMULATION}
  - {name: b, scenario: 103, experiment: SIMULATION}
`))
	require.NoError(t, err)
	require.NotEmpty(t, plan.Notes)
	_, err = scmtemporal.ItemsFromPlan(plan, scmtemporal.PlanOptions{})
	assert.ErrorContains(t, err, "shared.yaml: items share a run configuration")
	assert.ErrorContains(t, err, plan.Notes[0].String())
}

// An error of Wait's own long poll (the service cut it) is not the item's
// end: Wait waits again and reports how the workflow ended. A context that
// ends first leaves every item not seen to end as not ended, listed.
func TestWaitTellsItsOwnErrorsFromTheItems(t *testing.T) {
	srv, clock := newFake(t)
	pc := &planClient{t: t, acts: activities(t, srv, nil, clock)}
	plan, err := batch.ParsePlan(filepath.Join(t.TempDir(), "weekly.yaml"), []byte(`project: 1
items:
  - name: baseline
    scenario: 101
    experiment: GFA
  - name: simulation
    scenario: 103
    experiment: SIMULATION
`))
	require.NoError(t, err)
	pr, err := scmtemporal.StartPlan(testCtx(t), pc, plan, scmtemporal.PlanOptions{})
	require.NoError(t, err)
	pc.runs[0].waitErrs = 1

	sum, err := pr.Wait(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Count(scmtemporal.ItemDone), "a cut long poll is waited through")
	assert.Equal(t, 2, pc.runs[0].waits)

	ctx, cancel := context.WithCancel(testCtx(t))
	cancel()
	sum, err = pr.Wait(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Len(t, sum.Items, 2, "every item is listed")
	assert.Equal(t, 2, sum.Count(scmtemporal.ItemNotEnded))
	assert.ErrorContains(t, sum.Err(), "2 not seen to end")
}

// A plan built in code is checked by the rules a plan file is read with
// (batch.Plan.Check), the data files included: each case is refused
// before any workflow starts, with its kind of mistake and the field.
func TestItemsFromPlanChecksAPlanBuiltInCode(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	parts := data + ".parts"
	item := func(name string) batch.Item {
		return batch.Item{Name: name, Project: 1, Scenario: 103, Experiment: gen.ExperimentTypeSIMULATION}
	}
	exporting := func(it batch.Item, path string) batch.Item {
		it.Dashboard, it.DashboardPath = path, filepath.Join(dir, path)
		return it
	}
	other := func(name string) batch.Item { it := item(name); it.Scenario = 101; return it }
	for name, tc := range map[string]struct {
		items []batch.Item
		opts  scmtemporal.PlanOptions
		kind  error
		want  string
	}{
		"a name that leaves its directory":  {[]batch.Item{item("../../etc/cron.d/x")}, scmtemporal.PlanOptions{Data: data}, batch.ErrBadName, `items[0].name: "../../etc/cron.d/x": use letters`},
		"a data extension that leaves it":   {[]batch.Item{item("a")}, scmtemporal.PlanOptions{Data: data, DataFormat: &batch.DataFormat{Name: "csv", Ext: "/../../x.csv", NewWriter: batch.CSV.NewWriter, Concat: batch.CSV.Concat}}, nil, `PlanOptions.DataFormat needs a Name, an Ext (a dot and letters)`},
		"two items of one name on one rcId": {[]batch.Item{item("a"), item("a")}, scmtemporal.PlanOptions{Data: data}, batch.ErrDuplicateName, `items[1].name: "a" is already the name of items[0]`},
		"a name with a NUL and a newline":   {[]batch.Item{item("a\x00b\nc")}, scmtemporal.PlanOptions{Data: data}, batch.ErrBadName, `items[0].name: "a\x00b\nc": use letters`},
		"a name of 1 MB":                    {[]batch.Item{item(strings.Repeat("a", 1<<20))}, scmtemporal.PlanOptions{}, batch.ErrTooLong, "longer than batch.MaxNameBytes (128)"},
		"an export outside the plan's directory": {[]batch.Item{exporting(item("a"), "../../../../outside/x.xlsx")}, scmtemporal.PlanOptions{}, batch.ErrOutside,
			"items[0].export.dashboard: ../../../../outside/x.xlsx is /outside/x.xlsx, outside the plan's directory " + dir + ": set allowOutside: true"},
		"an export that is another item's data file": {[]batch.Item{exporting(item("a"), filepath.Join("data.csv.parts", "b.csv")), other("b")}, scmtemporal.PlanOptions{Data: data}, batch.ErrSameFile,
			"items[1]: its file " + filepath.Join(parts, "b.csv") + " (PlanOptions.Data) is already the export of items[0]"},
		"two items on one run configuration": {[]batch.Item{item("a"), item("b")}, scmtemporal.PlanOptions{}, nil, "items share a run configuration"},
	} {
		t.Run(name, func(t *testing.T) {
			plan := &batch.Plan{File: filepath.Join(dir, "plan.yaml"), Dir: dir, Items: tc.items}
			items, err := scmtemporal.ItemsFromPlan(plan, tc.opts)
			require.Error(t, err)
			assert.Nil(t, items)
			assert.ErrorContains(t, err, "scmtemporal: ItemsFromPlan: ")
			assert.ErrorContains(t, err, tc.want)
			if tc.kind != nil {
				assert.ErrorIs(t, err, tc.kind)
			}
		})
	}
}

// An export outside the plan's directory is written there when the plan
// allows it (Plan.AllowOutside).
func TestItemsFromPlanAllowsOutsideWhenThePlanDoes(t *testing.T) {
	dir := t.TempDir()
	it := batch.Item{Name: "a", Project: 1, Scenario: 103, Experiment: gen.ExperimentTypeSIMULATION, Dashboard: "../outside/a.xlsx", DashboardPath: filepath.Join(dir, "../outside/a.xlsx")}
	plan := &batch.Plan{File: filepath.Join(dir, "plan.yaml"), Dir: dir, Items: []batch.Item{it}, AllowOutside: true}
	items, err := scmtemporal.ItemsFromPlan(plan, scmtemporal.PlanOptions{})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(filepath.Dir(dir), "outside", "a.xlsx"), items[0].Dashboard)
}

// With PlanOptions.Data, each item's workflow writes its part of the
// dataset, and Wait writes the dataset from the parts of the items done,
// in the plan's order, as scm batch --data does: one header, the rows of
// every item done, none of the failed one's. Progress is told as each
// item ends.
func TestWaitWritesThePlansDataset(t *testing.T) {
	srv, clock := newFake(t)
	pc := &planClient{t: t, acts: activities(t, srv, nil, clock)}
	dir := t.TempDir()
	plan, err := batch.ParsePlan(filepath.Join(dir, "weekly.yaml"), []byte(`project: 1
items:
  - {name: baseline, scenario: 101, experiment: GFA}
  - {name: broken, scenario: 104, experiment: SIMULATION}
  - {name: simulation, scenario: 103, experiment: SIMULATION}
`))
	require.NoError(t, err)
	var seen []int
	opts := scmtemporal.PlanOptions{Data: filepath.Join(dir, "out", "rows.csv"),
		Progress: func(s *scmtemporal.Summary) { seen = append(seen, len(s.Items)-s.Count(scmtemporal.ItemNotEnded)) }}
	pr, err := scmtemporal.StartPlan(testCtx(t), pc, plan, opts)
	require.NoError(t, err)
	sum, err := pr.Wait(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3}, seen, "told as each item ended")
	require.NotNil(t, sum.Data)
	require.NoError(t, sum.Data.Err)
	assert.Equal(t, 2, sum.Data.Items)
	assert.Equal(t, sum.Items[0].Result.DataRows+sum.Items[2].Result.DataRows, sum.Data.Rows)
	data, err := os.ReadFile(opts.Data)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "item,scenario_id,rc_id,"), lines[0])
	assert.EqualValues(t, len(lines)-1, sum.Data.Records, "one header, then every record")
	assert.True(t, strings.HasPrefix(lines[1], "baseline,101,"), lines[1])
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "simulation,103,"), lines[len(lines)-1])
	assert.NotContains(t, string(data), "\nbroken,")
}
