package scmtemporal_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// activityEnv runs one activity at a time in process. SetHeartbeatDetails
// gives it the details the server kept of an earlier attempt, which makes
// it a retry. The activities' contexts end with the test's deadline.
func activityEnv(t *testing.T, acts *scmtemporal.Activities) *testsuite.TestActivityEnvironment {
	return newActivityEnv(t, acts, nil)
}

// newActivityEnv is activityEnv with the activities registered as on a
// worker, whose Temporal client (c's) confirms marks, when c is not nil.
func newActivityEnv(t *testing.T, acts *scmtemporal.Activities, c *crash) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger)
	env := suite.NewTestActivityEnvironment()
	opts := worker.Options{BackgroundActivityContext: testCtx(t)}
	if c == nil {
		scmtemporal.Register(activityRegistry{env: env}, acts)
	} else {
		opts.Interceptors = []interceptor.WorkerInterceptor{c.interceptor()}
		scmtemporal.RegisterOnWorker(activityRegistry{env: env}, acts, c.temporalClient())
	}
	env.SetWorkerOptions(opts)
	return env
}

// activityRegistry registers the activities with a test activity
// environment, and no workflow.
type activityRegistry struct {
	worker.Registry // nil: Register calls only the methods below
	env             *testsuite.TestActivityEnvironment
}

func (r activityRegistry) RegisterWorkflowWithOptions(any, workflow.RegisterOptions) {}
func (r activityRegistry) RegisterActivityWithOptions(a any, opts activity.RegisterOptions) {
	r.env.RegisterActivityWithOptions(a, opts)
}

// sim is the run of the SIMULATION of scenario 103 that a token must be
// of.
var sim = wire.Subject{RcID: 10303, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION}

// runIn is the input of StartRun and WaitRun for a token of rcId 10303.
func runIn(token string) wire.RunInput { return wire.RunInput{Token: token, Subject: sim} }

// prepare runs PrepareRun for the SIMULATION of scenario 103 (rcId 10303).
func prepare(t *testing.T, acts *scmtemporal.Activities) (wire.Prepared, error) {
	t.Helper()
	val, err := activityEnv(t, acts).ExecuteActivity(wire.PrepareRun, wire.PrepareInput{ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION})
	var prep wire.Prepared
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
	assert.Empty(t, facade.EvidenceOf(run).Weak)
	assert.Equal(t, 1, srv.Applied("runExperiment"), "nothing started")
}

// While the experiment has a run under way that another process started,
// on the default fake (a run under way shows as finished false, IDLE, as a
// real server shows it), PrepareRun fails with RunUnderWay, for the
// workflow to wait and prepare again, and sends nothing: the one rule
// (facade.ExperimentsService.Activity) tells it from the end the status
// showed before, as the scenario lists a run of the type.
func TestPrepareRunRefusesWhileARunIsUnderWay(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	_, err = acts.Client.Experiments.Start(testCtx(t), 10303, nil) // another process's
	require.NoError(t, err)
	clock.Advance(fake.DefaultStatusLag) // the status shows the run

	_, err = prepare(t, acts)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, scmtemporal.ErrTypeRunUnderWay, appErr.Type())
	assert.True(t, appErr.NonRetryable(), "the workflow waits, then prepares anew")
	assert.Contains(t, err.Error(), "rcId 10303")
	assert.Equal(t, 2, srv.Calls("runExperiment"), "the earlier run's and the other process's")
}

// A VARIATION experiment is refused for good before anything runs.
func TestPrepareRunRefusesAVariation(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := activityEnv(t, acts).ExecuteActivity(wire.PrepareRun, wire.PrepareInput{ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeVARIATION})
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, scmtemporal.ErrTypeNotListed, appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "RunSync")
}

// startAndWait runs StartRun then WaitRun for the token, as the workflow
// does, and returns the run.
func startAndWait(t *testing.T, acts *scmtemporal.Activities, token string) wire.RunOutput {
	t.Helper()
	started := get[wire.Started](t, activityEnv(t, acts), wire.StartRun, runIn(token))
	return get[wire.RunOutput](t, activityEnv(t, acts), wire.WaitRun, runIn(started.Token))
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
	assert.Equal(t, wire.RunOutput{RunID: 5013, ExperimentResultID: 5014, State: string(facade.RunFinished)}, out)
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
	_, err = activityEnv(t, acts).ExecuteActivity(wire.StartRun, runIn(prep.Token))
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.False(t, appErr.NonRetryable(), "a lost answer is settled by the retry")

	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(struct{}{})
	started := get[wire.Started](t, retry, wire.StartRun, runIn(prep.Token))
	assert.True(t, started.Settled)
	assert.Equal(t, 1, srv.Calls("runExperiment"), "no second start")
	out := get[wire.RunOutput](t, activityEnv(t, acts), wire.WaitRun, runIn(started.Token))
	assert.EqualValues(t, 5002, out.ExperimentResultID)
}

// The start was sent but never reached the handler, for an experiment
// whose last run finished. With MaxRunLength declared, the retry waits
// out it and the stale window, finds that nothing shows, and starts the
// run; without it, nothing rules the start out (a run may still be under
// way behind a status that lags), and the item stops as unknown with
// nothing sent.
func TestStartRunRetryStartsWhenTheSentStartTookNoEffect(t *testing.T) {
	for _, declared := range []bool{true, false} {
		t.Run(map[bool]string{true: "MaxRunLength declared", false: "no MaxRunLength"}[declared], func(t *testing.T) {
			srv, clock := newFake(t)
			acts := activities(t, srv, nil, clock)
			_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
			require.NoError(t, err)
			prep, err := prepare(t, acts)
			require.NoError(t, err)
			in := runIn(prep.Token)
			if declared {
				in.Options.MaxRunLength = time.Minute
			}
			retry := activityEnv(t, acts)
			retry.SetHeartbeatDetails(struct{}{})
			if !declared {
				_, err := retry.ExecuteActivity(wire.StartRun, in)
				var appErr *temporal.ApplicationError
				require.ErrorAs(t, err, &appErr)
				assert.Equal(t, scmtemporal.ErrTypeStartUnknown, appErr.Type())
				assert.Contains(t, err.Error(), "WaitOptions.MaxRunLength")
				assert.Equal(t, 1, srv.Calls("runExperiment"), "never sent on unknown")
				return
			}
			started := get[wire.Started](t, retry, wire.StartRun, in)
			assert.False(t, started.Settled)
			assert.Equal(t, 2, srv.Applied("runExperiment"))
			out := get[wire.RunOutput](t, activityEnv(t, acts), wire.WaitRun, runIn(started.Token))
			assert.EqualValues(t, 5014, out.ExperimentResultID)
		})
	}
}

// A token this SDK cannot read (a history edited, or cut) is refused for
// good by each activity that takes one, as a token, without quoting it,
// and nothing is sent.
func TestAnUnreadableTokenIsRefused(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	cut := prep.Token[:len(prep.Token)/2]
	subject := wire.Subject{RcID: 10303, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION}
	for activityName, in := range map[string]any{
		wire.StartRun: wire.RunInput{Token: cut, Subject: subject},
		wire.WaitRun:  wire.RunInput{Token: cut, Subject: subject},
		wire.StopRun:  wire.StopInput{Run: wire.RunInput{Token: cut, Subject: subject}, Started: true},
	} {
		t.Run(activityName, func(t *testing.T) {
			_, err := activityEnv(t, acts).ExecuteActivity(activityName, in)
			var appErr *temporal.ApplicationError
			require.ErrorAs(t, err, &appErr)
			assert.Equal(t, scmtemporal.ErrTypeResumeToken, appErr.Type())
			assert.True(t, appErr.NonRetryable())
			assert.Contains(t, err.Error(), "not a run's resume token this client reads")
			assert.NotContains(t, err.Error(), cut)
			assert.Zero(t, srv.Calls("runExperiment")+srv.Calls("stopExperiment"))
		})
	}
}

// A token that is not the run of the item (another configuration,
// scenario or type: a history edited, or made by another version) is
// refused for good by each activity that takes one, naming both, and
// nothing is sent.
func TestATokenOfAnotherRunIsRefused(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	for name, subject := range map[string]wire.Subject{
		"rcId":     {RcID: 10103, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION},
		"scenario": {RcID: 10303, ScenarioID: 101, Experiment: gen.ExperimentTypeSIMULATION},
		"type":     {RcID: 10303, ScenarioID: 103, Experiment: gen.ExperimentTypeGFA},
	} {
		for activityName, in := range map[string]any{
			wire.StartRun: wire.RunInput{Token: prep.Token, Subject: subject},
			wire.WaitRun:  wire.RunInput{Token: prep.Token, Subject: subject},
			wire.StopRun:  wire.StopInput{Run: wire.RunInput{Token: prep.Token, Subject: subject}, Started: true},
		} {
			t.Run(name+"/"+activityName, func(t *testing.T) {
				_, err := activityEnv(t, acts).ExecuteActivity(activityName, in)
				var appErr *temporal.ApplicationError
				require.ErrorAs(t, err, &appErr)
				assert.Equal(t, scmtemporal.ErrTypeResumeToken, appErr.Type())
				assert.True(t, appErr.NonRetryable())
				assert.Contains(t, err.Error(), "the resume token is the run of rcId 10303 (SIMULATION of scenario 103), not the item's rcId")
				assert.Zero(t, srv.Calls("runExperiment")+srv.Calls("stopExperiment"))
			})
		}
	}
}

// With the job id in its heartbeat details, a retry polls that job.
func TestImportScenarioResumesFromHeartbeat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	path := writeWorkbook(t)
	job, err := acts.Client.Imports.Excel(testCtx(t), 1, "Variant", facade.UploadFile(path), nil)
	require.NoError(t, err)

	env := activityEnv(t, acts)
	env.SetHeartbeatDetails(wire.JobProgress{JobID: job.JobID})
	id := get[ids.ScenarioID](t, env, wire.ImportScenario, wire.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
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
	retry.SetHeartbeatDetails(wire.JobProgress{})
	id := get[ids.ScenarioID](t, retry, wire.ImportScenario, wire.ImportInput{ProjectID: 1, ScenarioName: "Baseline", Workbook: path, Known: known})
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
	retry.SetHeartbeatDetails(wire.JobProgress{Status: "SETTLING", SettlingSince: began})
	_, err := retry.ExecuteActivity(wire.ImportScenario, wire.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.Equal(t, scmtemporal.ErrTypeStartUnknown, appErr.Type())
	assert.False(t, clock.Now().After(began.Add(scmtemporal.DefaultSettleWindow+5*time.Second)),
		"settled until %v, past the window begun at %v", clock.Now(), began)
	assert.Zero(t, srv.Calls("importExcel"))
}

// stop runs StopRun for the run of the token, whose start took effect
// (StartRun returned) or not, after PrepareRun's prep, and reports whether
// it stopped it.
func stop(t *testing.T, acts *scmtemporal.Activities, prep wire.Prepared, token string, started bool) bool {
	t.Helper()
	return get[bool](t, activityEnv(t, acts), wire.StopRun, wire.StopInput{Run: runIn(token), Started: started, EndBefore: prep.EndBefore})
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
	started := get[wire.Started](t, activityEnv(t, acts), wire.StartRun, runIn(prep.Token))
	st, err := acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	require.Equal(t, facade.RunFinished, facade.RunStateValue(st), "the status still shows the last run's end")

	assert.True(t, stop(t, acts, prep, started.Token, true))
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	st, err = acts.Client.Experiments.Status(ctx, 10303)
	require.NoError(t, err)
	assert.Equal(t, facade.RunStopped, facade.RunStateValue(st))
}

// StopRun stops nothing when the item's start was not seen to take
// effect (StartRun did not return), though another process's run began
// since, nor a run of the item's that finished.
func TestStopRunStopsNothingNotUnderWay(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	foreignStart(t, srv, clock)
	assert.False(t, stop(t, acts, prep, prep.Token, false), "never started: the run under way is another's")
	clock.Advance(time.Hour)
	prep, err = prepare(t, acts)
	require.NoError(t, err)

	out := startAndWait(t, acts, prep.Token)
	require.Equal(t, string(facade.RunFinished), out.State)
	assert.False(t, stop(t, acts, prep, prep.Token, true), "finished")
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// WriteResultData refuses a file of no format it writes, naming the field.
func TestWriteResultDataRefusesAnUnknownFormat(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	_, err := activityEnv(t, acts).ExecuteActivity(wire.WriteResultData, wire.DataInput{Item: "x", ExperimentResultID: 5002, Path: filepath.Join(t.TempDir(), "x.parquet")})
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
	t.Run("scm.ImportScenario", func(t *testing.T) {
		srv, clock := newFake(t)
		acts := activities(t, srv, nil, clock)
		path := writeWorkbook(t)
		_, err := acts.Client.ImportExcelAndWait(testCtx(t), 1, "Variant", facade.UploadFile(path), nil, nil)
		require.NoError(t, err)

		retry := newActivityEnv(t, acts, &crash{})
		retry.SetHeartbeatDetails(wire.JobProgress{Status: "QUEUED"})
		id := get[ids.ScenarioID](t, retry, wire.ImportScenario, wire.ImportInput{ProjectID: 1, ScenarioName: "Variant", Workbook: path})
		assert.EqualValues(t, 1001, id)
		assert.Equal(t, 1, srv.Calls("importExcel"), "never sent again")
	})
	t.Run("scm.StartRun", func(t *testing.T) {
		srv, clock := newFake(t)
		acts := activities(t, srv, nil, clock)
		prep, err := prepare(t, acts)
		require.NoError(t, err)
		require.NoError(t, acts.Client.Experiments.StartPrepared(testCtx(t), mustResume(t, acts, prep.Token), nil))

		retry := newActivityEnv(t, acts, &crash{})
		retry.SetHeartbeatDetails(struct{}{})
		started := get[wire.Started](t, retry, wire.StartRun, runIn(prep.Token))
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

// Activities.Clock that is not the facade client's (here the real clock,
// the client's a virtual one in 2026) is refused for good as the run is
// prepared, naming both readings: the settling of imports would be timed
// on the wrong clock.
func TestPrepareRunRefusesAClockNotTheClients(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	acts.Clock = nil
	_, err := prepare(t, acts)
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.Equal(t, scmtemporal.ErrTypeRefused, appErr.Type())
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "Activities.Clock reads ")
	assert.Contains(t, err.Error(), "where the facade client's clock read 2026-03-01T09:00:00Z")
}

// On a server that runs a second start beside the first, another process
// started the item's experiment twice, its first run under way long
// before the item's start, its second just before; the experiment never
// ran before, so its status showed no end as the item prepared. Once the
// first of them ends and is listed, the item's start shows (Began), while
// the other process's second run and the item's are under way. StopRun
// cannot tell them apart (a first run under way shows as no run at all)
// and leaves them alone: the other process's run finishes.
func TestStopRunLeavesAFirstRunItCannotTellAlone(t *testing.T) {
	srv, clock := newFake(t, fake.WithSecondStart(fake.SecondStartBeside))
	acts := activities(t, srv, nil, clock)
	foreignStart(t, srv, clock)
	clock.Advance(5 * time.Second)
	second := foreignStart(t, srv, clock)
	clock.Advance(time.Second)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	require.False(t, prep.EndBefore, "no end showed")
	started := get[wire.Started](t, activityEnv(t, acts), wire.StartRun, runIn(prep.Token))

	assert.False(t, stop(t, acts, prep, started.Token, true))
	assert.Zero(t, srv.Calls("stopExperiment"))
	clock.Advance(time.Hour)
	runs, err := acts.Client.Experiments.Runs(testCtx(t), 103)
	require.NoError(t, err)
	var listed []ids.ExperimentResultID
	for _, r := range runs {
		listed = append(listed, r.RcId)
	}
	assert.Contains(t, listed, second, "the other process's second run finished")
}

// A retry of StartRun finds that an earlier attempt began asking the
// server what the attempt before it did 50 s ago (SettlingSince), with
// MaxRunLength a minute, on an experiment that never ran. It ends its
// settling where that window ends, not a whole MaxRunLength of its own
// later: attempts killed one after another while they settle would
// otherwise settle for ever (an end-to-end run with kills aimed at
// StartRun saw it). Nothing shows, so the start is ruled out and sent.
func TestStartRunSettlesWithinTheFirstWindow(t *testing.T) {
	srv, clock := newFake(t)
	acts := activities(t, srv, nil, clock)
	prep, err := prepare(t, acts)
	require.NoError(t, err)
	since := clock.Now().Add(-50 * time.Second)
	retry := activityEnv(t, acts)
	retry.SetHeartbeatDetails(wire.StartProgress{SendMark: wire.SendMark{Marked: true, MayHaveSent: true, MarkedAt: since}, SettlingSince: since})
	in := runIn(prep.Token)
	in.Options.MaxRunLength = time.Minute
	started := get[wire.Started](t, retry, wire.StartRun, in)
	assert.False(t, started.Settled)
	assert.Equal(t, 1, srv.Applied("runExperiment"))
	settledBy := since.Add(time.Minute + facade.DefaultStaleWindow + 5*time.Second)
	assert.False(t, clock.Now().After(settledBy), "settled until %v, past the window begun at %v", clock.Now(), since)
}
