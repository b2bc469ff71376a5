package itemflow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/examples/temporal/itemflow"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// activityEnv runs one activity at a time in process, the way a retry
// receives it: SetHeartbeatDetails gives it the details the server kept of
// the earlier attempt. Every attempt it runs is attempt 1. The activities'
// contexts end with the test's deadline (testCtx), so a wait that never
// ends fails in seconds.
func activityEnv(t *testing.T, acts *itemflow.Activities) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: testCtx(t)})
	env.RegisterActivity(acts)
	return env
}

// find runs FindExperiment for the SIMULATION of scenario 103 (rcId 10303).
func find(t *testing.T, acts *itemflow.Activities) (itemflow.Experiment, error) {
	t.Helper()
	val, err := activityEnv(t, acts).ExecuteActivity(acts.FindExperiment, itemflow.FindInput{ProjectID: 1, ScenarioID: 103, Experiment: "SIMULATION"})
	var exp itemflow.Experiment
	if err == nil {
		require.NoError(t, val.Get(&exp))
	}
	return exp, err
}

// runExperiment runs RunExperiment in env for the run of origin, and
// returns what it answered.
func runExperiment(t *testing.T, env *testsuite.TestActivityEnvironment, acts *itemflow.Activities, token string) itemflow.RunOutput {
	t.Helper()
	val, err := env.ExecuteActivity(acts.RunExperiment, itemflow.RunInput{Token: token})
	require.NoError(t, err)
	var out itemflow.RunOutput
	require.NoError(t, val.Get(&out))
	return out
}

// FindExperiment reads the origin of the workflow's run before anything is
// started: the runs the scenario lists and that a run had ended.
func TestFindExperimentReadsTheOrigin(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)

	exp, err := find(t, acts)
	require.NoError(t, err)
	assert.EqualValues(t, 10303, exp.RcID)
	run, err := acts.Client.ResumeRunFromToken(exp.Token)
	require.NoError(t, err)
	assert.EqualValues(t, 10303, run.RcID())
	assert.Empty(t, run.WeakEvidence())
	assert.Equal(t, 1, srv.Applied("runExperiment"), "nothing started")
}

// While the experiment has a run under way (no workflow's), FindExperiment
// fails, to be retried: an origin taken then could not tell that run from
// the workflow's. Only a server that marks a run under way (RUNNING)
// shows one to a reader that did not start it; a real server's IDLE does
// not.
func TestFindExperimentWaitsForARunUnderWay(t *testing.T) {
	srv, clock := newFake(t, fake.WithRunningMarked())
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.Experiments.Start(testCtx(t), 10303, nil)
	require.NoError(t, err)
	clock.Advance(fake.DefaultStatusLag) // the status shows the run
	listed := srv.Calls("getExperimentRunsForScenario")

	_, err = find(t, acts)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.False(t, appErr.NonRetryable(), "a retry finds the run ended")
	assert.Contains(t, err.Error(), "under way")
	assert.Equal(t, listed, srv.Calls("getExperimentRunsForScenario"), "no origin taken")
}

// A VARIATION experiment is refused for good before anything runs: the
// server never lists its runs, so the workflow could not find its result.
func TestFindExperimentRefusesAVariation(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := activityEnv(t, acts).ExecuteActivity(acts.FindExperiment, itemflow.FindInput{ProjectID: 1, ScenarioID: 103, Experiment: "VARIATION"})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, "NotListed", appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "RunSync")
}

// The experiment ran before: right after the start, the status still shows
// that run's end (the fake's status lag, as a real server answered). The
// activity waits for its own run and returns its ids, never the earlier
// run's (5001, result 5002; every run takes a new block of ids, its pages'
// and charts' among them).
func TestRunExperimentNeverTakesAnEarlierRunsResult(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	exp, err := find(t, acts)
	require.NoError(t, err)

	out := runExperiment(t, activityEnv(t, acts), acts, exp.Token)
	assert.Equal(t, itemflow.RunOutput{RunID: 5013, ExperimentResultID: 5014, State: string(facade.RunFinished)}, out)
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// The attempt runs long after FindExperiment read the origin, and the last
// run was stopped (a stopped run is never listed). The status's lag still
// shows that stop after the start: the activity measures the lag from its
// own start, not from the origin's reads, and waits for its run.
func TestRunExperimentMeasuresTheLagFromItsStart(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	_, err := acts.Client.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	_, err = acts.Client.Experiments.Stop(ctx, 10303)
	require.NoError(t, err)
	exp, err := find(t, acts)
	require.NoError(t, err)
	clock.Advance(time.Hour)

	out := runExperiment(t, activityEnv(t, acts), acts, exp.Token)
	assert.Equal(t, string(facade.RunFinished), out.State)
	assert.Equal(t, ids.ExperimentResultID(out.RunID+1), out.ExperimentResultID, "a listed run's id is its result's minus one")
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// runExperiment's answer is lost: the attempt fails, to be retried, and
// heartbeats that it sent a start. The retry, given those details, finds
// that the start took effect and waits for that run: one run.
func TestRunExperimentSettlesALostAnswer(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	exp, err := find(t, acts)
	require.NoError(t, err)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})

	env := activityEnv(t, acts)
	last := lastRunProgress(env)
	_, err = env.ExecuteActivity(acts.RunExperiment, itemflow.RunInput{Token: exp.Token})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.False(t, appErr.NonRetryable())
	hb := last()
	require.True(t, hb.Sent && !hb.Started, "the attempt heartbeats a start sent: %+v", hb)

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(hb)
	out := runExperiment(t, retry, acts, exp.Token)
	assert.Equal(t, itemflow.RunOutput{RunID: 5001, ExperimentResultID: 5002, State: string(facade.RunFinished)}, out)
	assert.Equal(t, 1, srv.Calls("runExperiment"), "no second start")
}

// The start was sent but never reached the handler, for an experiment
// whose last run finished: the retry waits out the status's lag, finds
// that it took no effect, and starts the run.
func TestRunExperimentStartsAgainWhenTheSentStartTookNoEffect(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	exp, err := find(t, acts)
	require.NoError(t, err)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler})

	env := activityEnv(t, acts)
	last := lastRunProgress(env)
	_, err = env.ExecuteActivity(acts.RunExperiment, itemflow.RunInput{Token: exp.Token})
	require.Error(t, err)
	hb := last()
	require.True(t, hb.Sent && !hb.Started, "%+v", hb)
	require.Equal(t, 1, srv.Applied("runExperiment"), "the earlier run only")

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(hb)
	out := runExperiment(t, retry, acts, exp.Token)
	assert.Equal(t, itemflow.RunOutput{RunID: 5013, ExperimentResultID: 5014, State: string(facade.RunFinished)}, out)
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// With a heartbeat saying started, a retry waits for that run and sends
// no start.
func TestRunExperimentResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	exp, err := find(t, acts)
	require.NoError(t, err)
	run, err := acts.Client.ResumeRunFromToken(exp.Token)
	require.NoError(t, err)
	err = acts.Client.Experiments.StartPrepared(testCtx(t), run, nil)
	require.NoError(t, err)

	env := activityEnv(t, acts)
	env.SetHeartbeatDetails(itemflow.RunProgress{Token: exp.Token, Sent: true, Started: true, State: "RUNNING"})
	out := runExperiment(t, env, acts, exp.Token)
	assert.Equal(t, itemflow.RunOutput{RunID: 5001, ExperimentResultID: 5002, State: string(facade.RunFinished)}, out)
	assert.Equal(t, 1, srv.Calls("runExperiment"))
	assert.Zero(t, srv.Calls("getExperimentRunConfiguration"), "the origin carries the scenario and type")
}

// lastRunProgress records the heartbeats of RunExperiment in env and
// returns a function that gives the last one.
func lastRunProgress(env *testsuite.TestActivityEnvironment) func() itemflow.RunProgress {
	var last itemflow.RunProgress
	env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
		var hb itemflow.RunProgress
		if details.Get(&hb) == nil {
			last = hb
		}
	})
	return func() itemflow.RunProgress { return last }
}

// With the job id in its heartbeat details, a retry polls that job.
func TestImportScenarioResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	job, err := acts.Client.Imports.Excel(testCtx(t), 1, "Variant", facade.UploadFile(path), nil)
	require.NoError(t, err)

	env := activityEnv(t, acts)
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
	known, err := acts.Client.Scenarios.Named(ctx, 1, "Baseline")
	require.NoError(t, err)
	_, err = acts.Client.ImportExcelAndWait(ctx, 1, "Baseline", facade.UploadFile(path), nil, nil)
	require.NoError(t, err)

	val, err := activityEnv(t, acts).ExecuteActivity(acts.ImportScenario, itemflow.ImportInput{ProjectID: 1, ScenarioName: "Baseline", Workbook: path, Known: known})
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
	_, err := activityEnv(t, acts).ExecuteActivity(acts.ImportScenario, itemflow.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: writeWorkbook(t)})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, "StartUnknown", appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// stop runs StopExperiment for the run of origin and reports whether it
// stopped it.
func stop(t *testing.T, acts *itemflow.Activities, token string) bool {
	t.Helper()
	val, err := activityEnv(t, acts).ExecuteActivity(acts.StopExperiment, itemflow.StopInput{Token: token})
	require.NoError(t, err)
	var stopped bool
	require.NoError(t, val.Get(&stopped))
	return stopped
}

// The workflow is cancelled right after its start, while the status still
// shows the last run's end: StopExperiment waits until the start shows,
// and stops the run.
func TestStopExperimentStopsARunJustStarted(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	_, err := acts.Client.RunAndWait(ctx, 10303, nil)
	require.NoError(t, err)
	exp, err := find(t, acts)
	require.NoError(t, err)
	run, err := acts.Client.ResumeRunFromToken(exp.Token)
	require.NoError(t, err)
	err = acts.Client.Experiments.StartPrepared(ctx, run, nil)
	require.NoError(t, err)
	st, err := acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	require.Equal(t, facade.RunFinished, facade.RunStateValue(st), "the status still shows the last run's end")

	assert.True(t, stop(t, acts, exp.Token))
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	st, err = acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	assert.Equal(t, facade.RunStopped, facade.RunStateValue(st))
}

// StopExperiment stops nothing when the workflow's start never took
// effect, whether the experiment never ran or an earlier run ended.
func TestStopExperimentStopsNothingNotStarted(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	exp, err := find(t, acts)
	require.NoError(t, err)
	assert.False(t, stop(t, acts, exp.Token), "never ran: nothing to stop")

	_, err = acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	exp, err = find(t, acts)
	require.NoError(t, err)
	assert.False(t, stop(t, acts, exp.Token), "an earlier run's end")
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// A run of the workflow's that has finished is not stopped.
func TestStopExperimentLeavesAFinishedRun(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	exp, err := find(t, acts)
	require.NoError(t, err)
	out := runExperiment(t, activityEnv(t, acts), acts, exp.Token)
	require.Equal(t, string(facade.RunFinished), out.State)

	assert.False(t, stop(t, acts, exp.Token))
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a wait that never ends fails in seconds.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
