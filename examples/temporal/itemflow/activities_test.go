package itemflow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/examples/temporal/itemflow"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// activityEnv runs one activity at a time in process, the way a retry
// receives it: SetHeartbeatDetails gives it the details the server kept of
// the earlier attempt.
func activityEnv(acts *itemflow.Activities) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return env
}

// An earlier attempt started the run and died before any heartbeat reached
// the server (a real crash loses the batched ones). The retry has no
// details, only the baseline from the workflow's history: the experiment's
// status shows a later run, which it adopts.
func TestRunExperimentAdoptsARunWhoseHeartbeatWasLost(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	prev, err := batch.LastRunID(ctx, acts.Client, 103, 10303)
	require.NoError(t, err)
	_, err = acts.Client.Experiments.Start(ctx, 10303, nil) // the dead attempt's start
	require.NoError(t, err)

	val, err := activityEnv(acts).ExecuteActivity(acts.RunExperiment, itemflow.RunInput{ScenarioID: 103, RcID: 10303, PreviousRunID: prev})
	require.NoError(t, err)
	var out itemflow.RunOutput
	require.NoError(t, val.Get(&out))
	assert.EqualValues(t, 5001, out.RunID, "the run the dead attempt started")
	assert.EqualValues(t, 5001, out.ExperimentResultID, "a run's id is its experimentResultId")
	assert.Equal(t, 1, srv.Applied("runExperiment"), "no second run")
}

// With the run id in its heartbeat details, a retry polls that run and
// looks at nothing else: given a stale baseline, it still starts nothing.
func TestRunExperimentResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	_, err := acts.Client.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	runID, err := batch.LastRunID(ctx, acts.Client, 103, 10303)
	require.NoError(t, err)

	env := activityEnv(acts)
	env.SetHeartbeatDetails(itemflow.RunProgress{Started: true, RunID: runID, State: "RUNNING"})
	val, err := env.ExecuteActivity(acts.RunExperiment, itemflow.RunInput{ScenarioID: 103, RcID: 10303, PreviousRunID: runID})
	require.NoError(t, err)
	var out itemflow.RunOutput
	require.NoError(t, val.Get(&out))
	assert.Equal(t, runID, out.RunID)
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// With the job id in its heartbeat details, a retry polls that job.
func TestImportScenarioResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	job, err := acts.Client.Imports.Excel(testCtx(t), 1, "Variant", facade.UploadFile(path), nil)
	require.NoError(t, err)

	env := activityEnv(acts)
	env.SetHeartbeatDetails(itemflow.ImportProgress{JobID: job.JobID})
	val, err := env.ExecuteActivity(acts.ImportScenario, itemflow.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
	require.NoError(t, err)
	var scenarioID int64
	require.NoError(t, val.Get(&scenarioID))
	assert.EqualValues(t, 1001, scenarioID)
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// An earlier attempt's import finished but its heartbeat was lost: the
// retry finds the new scenario by its name and imports nothing. One that
// already had the name (the seeded Baseline, in Known) is not taken for it.
func TestImportScenarioAdoptsAFinishedImport(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	ctx := testCtx(t)
	known, err := batch.ScenariosNamed(ctx, acts.Client, 1, "Baseline")
	require.NoError(t, err)
	_, err = acts.Client.ImportExcelAndWait(ctx, 1, "Baseline", facade.UploadFile(path), nil, nil)
	require.NoError(t, err)

	val, err := activityEnv(acts).ExecuteActivity(acts.ImportScenario, itemflow.ImportInput{ProjectID: 1, ScenarioName: "Baseline", Workbook: path, Known: known})
	require.NoError(t, err)
	var scenarioID int64
	require.NoError(t, val.Get(&scenarioID))
	assert.EqualValues(t, 1001, scenarioID, "not the seeded 101")
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// An import whose answer was lost fails for good: a retry could not tell
// a running import from none, and might import twice.
func TestImportScenarioLostAnswerIsNotRetried(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	srv.InjectFault("importExcel", fake.Fault{Kind: fake.FaultDropAfterHandler})
	_, err := activityEnv(acts).ExecuteActivity(acts.ImportScenario, itemflow.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: writeWorkbook(t)})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, "OutcomeUnknown", appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// StopExperiment stops only a run later than the baseline, and only while
// it is under way.
func TestStopExperimentStopsOnlyTheWorkflowsRun(t *testing.T) {
	srv := fake.NewServer(fake.WithLicense())
	t.Cleanup(srv.Close)
	acts := activities(t, srv, nil)
	env := activityEnv(acts)
	stop := func(prev int64) bool {
		val, err := env.ExecuteActivity(acts.StopExperiment, itemflow.StopInput{ScenarioID: 103, RcID: 10303, PreviousRunID: prev})
		require.NoError(t, err)
		var stopped bool
		require.NoError(t, val.Get(&stopped))
		return stopped
	}
	assert.False(t, stop(0), "never ran: nothing to stop")
	ctx := testCtx(t)
	_, err := acts.Client.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	runID, err := batch.LastRunID(ctx, acts.Client, 103, 10303)
	require.NoError(t, err)
	assert.False(t, stop(runID), "the run under way is the baseline, not the workflow's")
	assert.True(t, stop(0))
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
}

// A run of the workflow's that has finished is not stopped.
func TestStopExperimentLeavesAFinishedRun(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	val, err := activityEnv(acts).ExecuteActivity(acts.StopExperiment, itemflow.StopInput{ScenarioID: 103, RcID: 10303})
	require.NoError(t, err)
	var stopped bool
	require.NoError(t, val.Get(&stopped))
	assert.False(t, stopped)
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a wait that never ends fails in seconds.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
