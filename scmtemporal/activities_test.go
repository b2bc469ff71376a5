package scmtemporal_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal"
)

// activityEnv runs one activity at a time in process. SetHeartbeatDetails
// gives it the details the server kept of an earlier attempt, which makes
// it a retry. The activities' contexts end with the test's deadline.
func activityEnv(t *testing.T, acts *scmtemporal.Activities) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger)
	env := suite.NewTestActivityEnvironment()
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: testCtx(t)})
	env.RegisterActivity(acts)
	return env
}

// prepare runs PrepareRun for the SIMULATION of scenario 103 (rcId 10303).
func prepare(t *testing.T, acts *scmtemporal.Activities) (scmtemporal.Prepared, error) {
	t.Helper()
	val, err := activityEnv(t, acts).ExecuteActivity(acts.PrepareRun, scmtemporal.PrepareInput{ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION})
	var prep scmtemporal.Prepared
	if err == nil {
		require.NoError(t, val.Get(&prep))
	}
	return prep, err
}

// get runs an activity in env and decodes its answer into out.
func get[T any](t *testing.T, env *testsuite.TestActivityEnvironment, fn any, in any) T {
	t.Helper()
	val, err := env.ExecuteActivity(fn, in)
	require.NoError(t, err)
	var out T
	require.NoError(t, val.Get(&out))
	return out
}

// PrepareRun reads the evidence of the workflow's run before anything is
// started: the runs the scenario lists and that a run had ended.
func TestPrepareRunReadsTheEvidence(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)

	prep, err := prepare(t, acts)
	require.NoError(t, err)
	assert.EqualValues(t, 10303, prep.RcID)
	run, err := acts.Client.ResumeRunFromToken(prep.Token)
	require.NoError(t, err)
	assert.EqualValues(t, 10303, run.RcID())
	assert.Empty(t, run.WeakEvidence())
	assert.Equal(t, 1, srv.Applied("runExperiment"), "nothing started")
}

// While the experiment has a run under way (no workflow's), PrepareRun
// fails, to be retried: evidence read then could not tell that run from
// the workflow's.
func TestPrepareRunWaitsForARunUnderWay(t *testing.T) {
	srv, clock := newFake(t, fake.WithRunningMarked())
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.Experiments.Start(testCtx(t), 10303, nil)
	require.NoError(t, err)
	clock.Advance(fake.DefaultStatusLag) // the status shows the run
	listed := srv.Calls("getExperimentRunsForScenario")

	_, err = prepare(t, acts)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.False(t, appErr.NonRetryable(), "a retry finds the run ended")
	assert.Contains(t, err.Error(), "under way")
	assert.Equal(t, listed, srv.Calls("getExperimentRunsForScenario"), "no evidence read")
}

// A VARIATION experiment is refused for good before anything runs.
func TestPrepareRunRefusesAVariation(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := activityEnv(t, acts).ExecuteActivity(acts.PrepareRun, scmtemporal.PrepareInput{ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeVARIATION})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, scmtemporal.ErrTypeNotListed, appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "RunSync")
}

// startAndWait runs StartRun then WaitRun for the token, as the workflow
// does, and returns the run.
func startAndWait(t *testing.T, acts *scmtemporal.Activities, token string) scmtemporal.RunOutput {
	t.Helper()
	started := get[scmtemporal.Started](t, activityEnv(t, acts), acts.StartRun, scmtemporal.RunInput{Token: token})
	return get[scmtemporal.RunOutput](t, activityEnv(t, acts), acts.WaitRun, scmtemporal.RunInput{Token: started.Token})
}

// The experiment ran before: right after the start, the status still shows
// that run's end (the fake's status lag, as a real server answered). The
// wait returns its own run's ids, never the earlier run's (5001, result
// 5002).
func TestWaitRunNeverTakesAnEarlierRunsResult(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)

	out := startAndWait(t, acts, prep.Token)
	assert.Equal(t, scmtemporal.RunOutput{RunID: 5013, ExperimentResultID: 5014, State: string(facade.RunFinished)}, out)
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// The start is sent long after PrepareRun read the evidence, and the last
// run was stopped (a stopped run is never listed). StartRun's token says
// when the start was sent, so the wait measures the status's lag from it
// and does not take that stop for its run's end.
func TestWaitRunMeasuresTheLagFromTheStart(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	_, err := acts.Client.Experiments.Start(ctx, 10303, nil)
	require.NoError(t, err)
	_, err = acts.Client.Experiments.Stop(ctx, 10303)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	clock.Advance(time.Hour)

	out := startAndWait(t, acts, prep.Token)
	assert.Equal(t, string(facade.RunFinished), out.State)
	assert.Equal(t, ids.ExperimentResultID(out.RunID+1), out.ExperimentResultID, "a listed run's id is its result's minus one")
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// A retry of StartRun whose earlier attempt's start took effect (its answer
// lost) asks the server first, finds it began, and sends nothing.
func TestStartRunRetrySettlesABegunStart(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
	_, err = activityEnv(t, acts).ExecuteActivity(acts.StartRun, scmtemporal.RunInput{Token: prep.Token})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.False(t, appErr.NonRetryable(), "a lost answer is settled by the retry")

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(struct{}{})
	started := get[scmtemporal.Started](t, retry, acts.StartRun, scmtemporal.RunInput{Token: prep.Token})
	assert.True(t, started.Settled)
	assert.Equal(t, 1, srv.Calls("runExperiment"), "no second start")
	out := get[scmtemporal.RunOutput](t, activityEnv(t, acts), acts.WaitRun, scmtemporal.RunInput{Token: started.Token})
	assert.EqualValues(t, 5002, out.ExperimentResultID)
}

// The start was sent but never reached the handler, for an experiment
// whose last run finished: the retry waits out the status's lag, finds
// that it took no effect, and starts the run.
func TestStartRunRetryStartsWhenTheSentStartTookNoEffect(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(struct{}{})
	started := get[scmtemporal.Started](t, retry, acts.StartRun, scmtemporal.RunInput{Token: prep.Token})
	assert.False(t, started.Settled)
	assert.Equal(t, 2, srv.Applied("runExperiment"))
	out := get[scmtemporal.RunOutput](t, activityEnv(t, acts), acts.WaitRun, scmtemporal.RunInput{Token: started.Token})
	assert.EqualValues(t, 5014, out.ExperimentResultID)
}

// With the job id in its heartbeat details, a retry polls that job.
func TestImportScenarioResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	job, err := acts.Client.Imports.Excel(testCtx(t), 1, "Variant", facade.UploadFile(path), nil)
	require.NoError(t, err)

	env := activityEnv(t, acts)
	env.SetHeartbeatDetails(scmtemporal.JobProgress{JobID: job.JobID})
	id := get[ids.ScenarioID](t, env, acts.ImportScenario, scmtemporal.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
	assert.EqualValues(t, 1001, id)
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// A retry whose earlier attempt's import finished, its job id lost: it
// finds the new scenario by its name and imports nothing. One that already
// had the name (the seeded Baseline, in Known) is not taken for it.
func TestImportScenarioRetryAdoptsAFinishedImport(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	ctx := testCtx(t)
	known, err := acts.Client.Scenarios.Named(ctx, 1, "Baseline")
	require.NoError(t, err)
	_, err = acts.Client.ImportExcelAndWait(ctx, 1, "Baseline", facade.UploadFile(path), nil, nil)
	require.NoError(t, err)

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(scmtemporal.JobProgress{})
	id := get[ids.ScenarioID](t, retry, acts.ImportScenario, scmtemporal.ImportInput{ProjectID: 1, ScenarioName: "Baseline", Workbook: path, Known: known})
	assert.EqualValues(t, 1001, id, "not the seeded 101")
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// A retry that finds an earlier attempt settling (its heartbeat) ends the
// settling window where that attempt began it: attempts that die one
// after another while settling end as unknown within the window, where
// each restarting it would settle for ever.
func TestImportScenarioSettlesWithinTheFirstWindow(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	began := clock.Now().Add(-scmtemporal.DefaultSettleWindow + 10*time.Second)
	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(scmtemporal.JobProgress{Status: "SETTLING", SettlingSince: began})
	_, err := retry.ExecuteActivity(acts.ImportScenario, scmtemporal.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.Equal(t, scmtemporal.ErrTypeStartUnknown, appErr.Type())
	assert.False(t, clock.Now().After(began.Add(scmtemporal.DefaultSettleWindow+5*time.Second)),
		"settled until %v, past the window begun at %v", clock.Now(), began)
	assert.Zero(t, srv.Calls("importExcel"))
}

// stop runs StopRun for the run of the token and reports whether it
// stopped it.
func stop(t *testing.T, acts *scmtemporal.Activities, token string) bool {
	t.Helper()
	return get[bool](t, activityEnv(t, acts), acts.StopRun, scmtemporal.RunInput{Token: token})
}

// The workflow is cancelled right after its start, while the status still
// shows the last run's end: StopRun waits until the start shows, and
// stops the run.
func TestStopRunStopsARunJustStarted(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	ctx := testCtx(t)
	_, err := acts.Client.RunAndWait(ctx, 10303, nil)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	started := get[scmtemporal.Started](t, activityEnv(t, acts), acts.StartRun, scmtemporal.RunInput{Token: prep.Token})
	st, err := acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	require.Equal(t, facade.RunFinished, facade.RunStateValue(st), "the status still shows the last run's end")

	assert.True(t, stop(t, acts, started.Token))
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	st, err = acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	assert.Equal(t, facade.RunStopped, facade.RunStateValue(st))
}

// StopRun stops nothing when the workflow's start never took effect
// (after an earlier run's end), nor a run of the workflow's that finished.
func TestStopRunStopsNothingNotUnderWay(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	assert.False(t, stop(t, acts, prep.Token), "an earlier run's end")

	out := startAndWait(t, acts, prep.Token)
	require.Equal(t, string(facade.RunFinished), out.State)
	assert.False(t, stop(t, acts, prep.Token), "finished")
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// WriteResultData refuses a file of no format it writes, naming the field.
func TestWriteResultDataRefusesAnUnknownFormat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := activityEnv(t, acts).ExecuteActivity(acts.WriteResultData, scmtemporal.DataInput{Item: "x", ExperimentResultID: 5002, Path: filepath.Join(t.TempDir(), "x.parquet")})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "WriteResultData: Path")
}

// During a rolling upgrade a retry may read the details of an attempt on
// an older worker, which wrote them without a mark. With the worker's
// Temporal client only a confirmed mark tells that no attempt sent the
// call: details without one are settled, never sent again. The earlier
// attempt's import finished and its start took effect (their answers
// lost): the retry adopts them and sends nothing.
func TestDetailsWithoutAMarkAreSettled(t *testing.T) {
	t.Run("ImportScenario", func(t *testing.T) {
		srv, clock := newFake(t)
		acts := activities(t, srv, nil, clock)
		acts.Temporal = (&crash{}).temporalClient()
		path := writeWorkbook(t)
		_, err := acts.Client.ImportExcelAndWait(testCtx(t), 1, "Variant", facade.UploadFile(path), nil, nil)
		require.NoError(t, err)

		retry := activityEnv(t, acts)
		retry.SetHeartbeatDetails(scmtemporal.JobProgress{Status: "QUEUED"})
		id := get[ids.ScenarioID](t, retry, acts.ImportScenario, scmtemporal.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
		assert.EqualValues(t, 1001, id)
		assert.Equal(t, 1, srv.Calls("importExcel"), "never sent again")
	})
	t.Run("StartRun", func(t *testing.T) {
		srv, clock := newFake(t)
		acts := activities(t, srv, nil, clock)
		acts.Temporal = (&crash{}).temporalClient()
		prep, err := prepare(t, acts)
		require.NoError(t, err)
		require.NoError(t, acts.Client.Experiments.StartPrepared(testCtx(t), mustResume(t, acts, prep.Token), nil))

		retry := activityEnv(t, acts)
		retry.SetHeartbeatDetails(struct{}{})
		started := get[scmtemporal.Started](t, retry, acts.StartRun, scmtemporal.RunInput{Token: prep.Token})
		assert.True(t, started.Settled)
		assert.Equal(t, 1, srv.Calls("runExperiment"), "never sent again")
	})
}

// mustResume resumes the run of a token.
func mustResume(t *testing.T, acts *scmtemporal.Activities, token string) *facade.Run {
	t.Helper()
	run, err := acts.Client.ResumeRunFromToken(token)
	require.NoError(t, err)
	return run
}
