package scmtemporal_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal"
)

// importItem imports a workbook as scenario "Variant", runs its
// SIMULATION, exports its dashboard and writes its data.
func importItem(t *testing.T) scmtemporal.ItemInput {
	out := filepath.Join(t.TempDir(), "out")
	return scmtemporal.ItemInput{Name: "variant", ProjectID: 1, Workbook: writeWorkbook(t), ScenarioName: "Variant", ImportExperiments: true,
		Experiment: gen.ExperimentTypeSIMULATION, Dashboard: filepath.Join(out, "variant.xlsx"), Data: filepath.Join(out, "variant.csv")}
}

// copyItem copies scenario 103 as the SIM scenario "Copy" and runs its
// SIMULATION.
func copyItem() scmtemporal.ItemInput {
	return scmtemporal.ItemInput{Name: "copy", ProjectID: 1, CopyOf: 103, CopyType: gen.ScenarioTypeSIM, ScenarioName: "Copy",
		Experiment: gen.ExperimentTypeSIMULATION}
}

// The item goes through every step: the workbook imported once, the run
// started once, its own ids (5001, result 5002 on a fresh fake), the
// dashboard's pages in one workbook, the result's rows keyed by the item.
func TestItemWorkflow(t *testing.T) {
	srv, clock := newFake(t)
	env := newWorkflowEnv(t, activities(t, srv, nil, clock))
	in := importItem(t)
	res := env.result(t, in)
	assert.Equal(t, scmtemporal.ItemResult{Name: "variant", ScenarioID: 1001, RcID: 100103, RunID: 5001, ExperimentResultID: 5002,
		Outputs: []string{in.Dashboard, in.Data}, DataRows: res.DataRows, DataRecords: res.DataRecords}, res)
	assert.Positive(t, res.DataRows)
	assert.GreaterOrEqual(t, res.DataRecords, res.DataRows)

	book, err := excelize.OpenFile(in.Dashboard)
	require.NoError(t, err)
	defer book.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, book.GetSheetList())
	data, err := os.ReadFile(in.Data)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "item,scenario_id,rc_id,"), "%s", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "variant,1001,100103,5002,"), "%s", lines[1])
	assert.Equal(t, 1, srv.Applied("importExcel"))
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// A copy is a step as an import is: copied once, then run.
func TestItemWorkflowCopiesAScenario(t *testing.T) {
	srv, clock := newFake(t)
	env := newWorkflowEnv(t, activities(t, srv, nil, clock))
	res := env.result(t, copyItem())
	assert.EqualValues(t, 1001, res.ScenarioID)
	assert.EqualValues(t, 100103, res.RcID)
	assert.EqualValues(t, 5002, res.ExperimentResultID)
	assert.Equal(t, 1, srv.Applied("copyScenario"))
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// The worker dies in attempt 1 of each step, at each point where a
// state-changing call is under way or just answered, with its heartbeats
// kept (the attempt fails) or lost (it ends on its heartbeat timeout, and
// the server kept no details of it). Temporal retries the step; the item
// ends with its own result, and every state-changing call was applied once.
func TestWorkerCrashAtEachStep(t *testing.T) {
	type point struct {
		item     func(*testing.T) scmtemporal.ItemInput
		activity string
		path     string
		after    bool
	}
	points := map[string]point{
		"import sent":           {importItem, "scm.ImportScenario", "/open/import/import-excel", true},
		"import polled":         {importItem, "scm.ImportScenario", "/open/import/import-status", false},
		"copy polled":           {func(*testing.T) scmtemporal.ItemInput { return copyItem() }, "scm.CopyScenario", "/open/import/import-status", false},
		"run evidence read":     {importItem, "scm.PrepareRun", "/open/experiments/status", true},
		"run started":           {importItem, "scm.StartRun", "/open/experiments/run", true},
		"run polled":            {importItem, "scm.WaitRun", "/open/experiments/status", false},
		"dashboard page export": {importItem, "scm.ExportDashboard", "/open/experiments/export-page", true},
		"data page export":      {importItem, "scm.WriteResultData", "/open/experiments/export-page", true},
	}
	for name, p := range points {
		for _, run := range []struct {
			name            string
			lose, confirmed bool
		}{{"/attempt fails", false, false}, {"/heartbeat timeout", true, false}, {"/heartbeat timeout, marks confirmed", true, true}} {
			t.Run(name+run.name, func(t *testing.T) {
				srv, clock := newFake(t)
				c := &crash{Activity: p.activity, Path: p.path, After: p.after, LoseHeartbeats: run.lose}
				acts := activities(t, srv, c.transport, clock)
				env := newWorkflowEnv(t, acts, c.interceptor())
				if run.confirmed {
					env = newWorkerEnv(t, acts, c)
				}
				in := p.item(t)
				res := env.result(t, in)
				require.True(t, c.happened(), "the worker never died at %s", p.path)
				assert.Equal(t, 2, env.attemptsOf(p.activity), "the dead attempt and its retry")
				assert.EqualValues(t, 5001, res.RunID)
				assert.EqualValues(t, 5002, res.ExperimentResultID)
				assert.EqualValues(t, 1001, res.ScenarioID)
				assert.Equal(t, 1, srv.Applied("runExperiment"), "no second run")
				assert.Equal(t, 1, srv.Applied("importExcel")+srv.Applied("copyScenario"), "no second import or copy")
				for _, out := range res.Outputs {
					assert.True(t, fileExists(t, out), out)
				}
			})
		}
	}
}

// The answer of each state-changing call is lost once, after the server
// applied it (the fake's FaultDropAfterHandler). The step settles it from
// what the server shows and the item ends with its own result; the call
// was applied once.
func TestLostAnswerOfEachStart(t *testing.T) {
	for op, item := range map[string]func(*testing.T) scmtemporal.ItemInput{
		"importExcel":   importItem,
		"runExperiment": importItem,
	} {
		t.Run(op, func(t *testing.T) {
			srv, clock := newFake(t, fake.WithFault(op, fake.Fault{Kind: fake.FaultDropAfterHandler}))
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			res := env.result(t, item(t))
			assert.EqualValues(t, 5002, res.ExperimentResultID)
			assert.Equal(t, 1, srv.Applied(op))
			assert.Equal(t, 1, srv.Calls(op), "never sent again")
		})
	}
}

// The worker dies in StartRun before its start is sent, for an experiment
// whose last run finished: the retry cannot know that nothing was sent, so
// it asks the server (Began). With MaxRunLength declared, the status shows
// the same successful end once it and the stale window have passed, and
// no new run is listed: not begun, and the retry starts the run, once.
// Without it, a run may still be under way behind a status that lags:
// the item stops as unknown, and nothing is sent.
func TestWorkerCrashBeforeTheStartIsSettled(t *testing.T) {
	for _, lose := range []bool{false, true} {
		for _, declared := range []bool{true, false} {
			name := map[bool]string{false: "attempt fails", true: "heartbeat timeout"}[lose] + map[bool]string{true: "/MaxRunLength declared", false: "/no MaxRunLength"}[declared]
			t.Run(name, func(t *testing.T) {
				srv, clock := newFake(t)
				c := &crash{Activity: "scm.StartRun", Path: "/open/experiments/run", LoseHeartbeats: lose}
				acts := activities(t, srv, c.transport, clock)
				_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
				require.NoError(t, err)
				env := newWorkflowEnv(t, acts, c.interceptor())
				in := item()
				if declared {
					in.Options.MaxRunLength = time.Minute
				}
				if !declared {
					unknownError(t, env, in)
					assert.Equal(t, 1, srv.Calls("runExperiment"), "the earlier run's only")
					return
				}
				res := env.result(t, in)
				require.True(t, c.happened())
				assert.EqualValues(t, 5014, res.ExperimentResultID, "the second run's")
				assert.Equal(t, 2, srv.Calls("runExperiment"), "the earlier run's and the retry's")
			})
		}
	}
}

// The worker dies in StartRun before its start is sent, for an experiment
// that never ran: the status shows no end before and none after, as it
// would for a run under way on a real server, so whether a start took
// effect cannot be told. The item stops as unknown and nothing is sent.
func TestWorkerCrashBeforeAFirstStartIsUnknown(t *testing.T) {
	srv, clock := newFake(t)
	c := &crash{Activity: "scm.StartRun", Path: "/open/experiments/run"}
	env := newWorkflowEnv(t, activities(t, srv, c.transport, clock), c.interceptor())
	appErr := unknownError(t, env, importItem(t))
	assert.Contains(t, appErr.Error(), "check on the server: whether scenario 1001 lists a SIMULATION run")
	assert.Zero(t, srv.Calls("runExperiment"))
}

// On a worker (marks confirmed), the first attempt of a first run's
// StartRun dies after its mark was confirmed and before its start was
// sent, the window kills aimed at a start hit 3 times in 100. The retry
// finds the mark and asks the server, which shows no end before and none
// after. With MaxRunLength declared, once it and the stale window have
// passed with no run listed, the start is ruled out: the item runs once
// and is done. Without it, the item stops as unknown and nothing is sent.
func TestKilledBetweenMarkAndSendOnAFirstRun(t *testing.T) {
	for _, declared := range []bool{true, false} {
		t.Run(map[bool]string{true: "MaxRunLength declared", false: "no MaxRunLength"}[declared], func(t *testing.T) {
			srv, clock := newFake(t)
			c := &crash{Activity: "scm.StartRun", Path: "/open/experiments/run", LoseHeartbeats: true}
			env := newWorkerEnv(t, activities(t, srv, c.transport, clock), c)
			in := item()
			if !declared {
				unknownError(t, env, in)
				require.True(t, c.happened())
				assert.Zero(t, srv.Calls("runExperiment"))
				return
			}
			in.Options.MaxRunLength = 5 * time.Minute
			res := env.result(t, in)
			require.True(t, c.happened())
			assert.Equal(t, 2, env.attemptsOf("scm.StartRun"), "the killed attempt and its retry")
			assert.Equal(t, 1, srv.Calls("runExperiment"), "sent once, by the retry")
			assert.EqualValues(t, 5002, res.ExperimentResultID)
		})
	}
}

// With the worker's Temporal client, whose confirmed marks tell that no
// attempt sent the call: the first attempt of StartRun (of an experiment
// that never ran) or of ImportScenario dies as it begins, before it marks.
// The retry finds no mark, so it sends without asking the server (which
// could not tell a first run under way from none, nor an import still
// running from none). Without the client the same crash stops the item as
// unknown: an unconfirmed mark may have been lost.
func TestConfirmedMarksStartAfterAnAttemptThatDiedBeforeIt(t *testing.T) {
	for _, tc := range []struct {
		activity, op string
		confirmed    bool
	}{{"scm.StartRun", "runExperiment", true}, {"scm.StartRun", "runExperiment", false}, {"scm.ImportScenario", "importExcel", true}, {"scm.ImportScenario", "importExcel", false}} {
		confirmed := tc.confirmed
		t.Run(tc.activity+map[bool]string{true: "/confirmed", false: "/no client"}[confirmed], func(t *testing.T) {
			srv, clock := newFake(t)
			c := &crash{Activity: tc.activity, AtStart: true}
			acts := activities(t, srv, nil, clock)
			env := newWorkflowEnv(t, acts, c.interceptor())
			if confirmed {
				env = newWorkerEnv(t, acts, c)
			}
			if !confirmed {
				unknownError(t, env, importItem(t))
				assert.Zero(t, srv.Calls(tc.op))
				return
			}
			res := env.result(t, importItem(t))
			require.True(t, c.happened(), "the worker never died")
			assert.Equal(t, 2, env.attemptsOf(tc.activity))
			assert.EqualValues(t, 5002, res.ExperimentResultID)
			assert.Equal(t, 1, srv.Calls(tc.op), "sent once")
		})
	}
}

// With the worker's Temporal client, the first attempt of StartRun (of an
// experiment that never ran) or of ImportScenario dies as it asks the
// service to confirm its mark: no heartbeat of the attempt carried the
// mark before, so the retry finds none and sends, once.
func TestAttemptDyingAtItsConfirmationLeavesNoMark(t *testing.T) {
	for activityName, op := range map[string]string{"scm.StartRun": "runExperiment", "scm.ImportScenario": "importExcel"} {
		t.Run(activityName, func(t *testing.T) {
			srv, clock := newFake(t)
			c := &crash{Activity: activityName, AtConfirm: true}
			acts := activities(t, srv, nil, clock)
			env := newWorkerEnv(t, acts, c)
			res := env.result(t, importItem(t))
			require.True(t, c.happened(), "the worker never died")
			assert.Equal(t, 2, env.attemptsOf(activityName))
			assert.EqualValues(t, 5002, res.ExperimentResultID)
			assert.Equal(t, 1, srv.Calls(op), "sent once, by the retry")
		})
	}
}

// With the worker's Temporal client, an attempt whose mark the service
// does not confirm sends nothing; its retry, finding no mark, sends the
// start once.
func TestUnconfirmedMarkSendsNothing(t *testing.T) {
	srv, clock := newFake(t)
	c := &crash{Activity: "scm.StartRun", AtStart: false, LoseHeartbeats: true, LoseAll: true, Path: "/never"}
	acts := activities(t, srv, nil, clock)
	env := newWorkerEnv(t, acts, c)
	res := env.result(t, importItem(t))
	assert.Equal(t, 2, env.attemptsOf("scm.StartRun"), "the unconfirmed attempt and its retry")
	assert.EqualValues(t, 5002, res.ExperimentResultID)
	assert.Equal(t, 1, srv.Calls("runExperiment"), "sent once, by the retry")
}

// unknownError runs the workflow and returns the application error it
// failed with, which must be the non-retryable StartUnknown.
func unknownError(t *testing.T, env *workflowEnv, in scmtemporal.ItemInput) *temporal.ApplicationError {
	t.Helper()
	env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
	require.True(t, env.IsWorkflowCompleted())
	err := env.GetWorkflowError()
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "%v", err)
	assert.Equal(t, scmtemporal.ErrTypeStartUnknown, appErr.Type())
	assert.True(t, appErr.NonRetryable())
	return appErr
}

// A copy whose answer was lost, or whose worker died once it was answered
// (before the job id was heartbeated), on a server that names copies
// otherwise than asked ("null", as a real server was seen to): no scenario
// of the name shows within the settle window, so whether the copy took
// effect cannot be told. The item stops, non-retryable, naming what to
// check; the copy is never sent again.
func TestUnknownCopyStopsTheItem(t *testing.T) {
	lost := func(t *testing.T) (*fake.Server, *workflowEnv) {
		srv, clock := newFake(t, fake.WithFault("copyScenario", fake.Fault{Kind: fake.FaultDropAfterHandler}))
		return srv, newWorkflowEnv(t, activities(t, srv, nil, clock))
	}
	died := func(t *testing.T) (*fake.Server, *workflowEnv) {
		srv, clock := newFake(t)
		c := &crash{Activity: "scm.CopyScenario", Path: "/open/scenario/copy", After: true}
		return srv, newWorkflowEnv(t, activities(t, srv, c.transport, clock), c.interceptor())
	}
	for name, setup := range map[string]func(*testing.T) (*fake.Server, *workflowEnv){"answer lost": lost, "worker died": died} {
		t.Run(name, func(t *testing.T) {
			srv, env := setup(t)
			appErr := unknownError(t, env, copyItem())
			assert.Contains(t, appErr.Error(), "copyScenario")
			assert.Contains(t, appErr.Error(), `check on the server: the scenarios of project 1 besides the 0 named "Copy"`)
			assert.Equal(t, 1, srv.Calls("copyScenario"))
			assert.Zero(t, srv.Calls("runExperiment"))
		})
	}
}

// A start whose answer was lost, for an experiment whose last run failed:
// the run fails at once, so the status shows the same failed end before
// and after (a failed run is never listed), and Began answers unknown. The item stops, non-retryable,
// naming what to check; the start is never sent again.
func TestUnknownStartStopsTheItem(t *testing.T) {
	srv, clock := newFake(t, fake.WithFailingRuns(10303), fake.WithRunDuration(0))
	acts := activities(t, srv, nil, clock)
	_, err := acts.Client.RunAndWait(testCtx(t), 10303, nil)
	require.Error(t, err, "the earlier run fails")
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
	env := newWorkflowEnv(t, acts)
	appErr := unknownError(t, env, scmtemporal.ItemInput{Name: "sim", ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION})
	assert.Contains(t, appErr.Error(), "rcId 10303")
	assert.Contains(t, appErr.Error(), "check on the server: whether scenario 103 lists a SIMULATION run")
	assert.Equal(t, 2, srv.Calls("runExperiment"), "the earlier run's and the lost one")
	assert.Zero(t, env.attemptsOf("scm.WaitRun"))
}

// cancelWhenStarted cancels the workflow once its run is started.
func cancelWhenStarted(env *workflowEnv) {
	var once sync.Once
	env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, err error) {
		if info.ActivityType.Name == "scm.StartRun" && err == nil {
			once.Do(func() { env.RegisterDelayedCallback(env.CancelWorkflow, time.Second) })
		}
	})
}

// The workflow is cancelled while its run is under way. It stops waiting
// and ends cancelled; it stops the run on the server only when its options
// ask for it (StopOnCancel, as scm batch --stop-on-cancel), once even when
// the stop's answer is lost (StopRun's retry finds the run stopped). The
// run lasts an hour, so only a stop ends it.
func TestCancelledWorkflow(t *testing.T) {
	for name, c := range map[string]struct {
		stop, lost bool
	}{"leaves the run": {}, "stops the run": {stop: true}, "stops the run, its answer lost": {stop: true, lost: true}} {
		t.Run(name, func(t *testing.T) {
			opts := []fake.Option{fake.WithLicense(), fake.WithRunDuration(time.Hour), fake.WithRunningMarked()}
			if c.lost {
				opts = append(opts, fake.WithFault("stopExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler}))
			}
			srv := fake.NewServer(opts...)
			t.Cleanup(srv.Close)
			acts := activities(t, srv, nil, nil, facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 1}))
			env := newWorkflowEnv(t, acts)
			cancelWhenStarted(env)
			poll := &facade.PollPolicy{MinInterval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond}
			env.ExecuteWorkflow(scmtemporal.WorkflowName, scmtemporal.ItemInput{Name: "simulation", ProjectID: 1, ScenarioID: 103,
				Experiment: gen.ExperimentTypeSIMULATION, Options: scmtemporal.Options{StopOnCancel: c.stop, Poll: poll, HeartbeatTimeout: time.Second}})
			require.True(t, env.IsWorkflowCompleted())
			assert.True(t, temporal.IsCanceledError(env.GetWorkflowError()), "%v", env.GetWorkflowError())

			st, err := acts.Client.Experiments.Status(testCtx(t), 10303)
			require.NoError(t, err)
			assert.Equal(t, 1, srv.Applied("runExperiment"))
			if c.stop {
				assert.Equal(t, map[bool]int{false: 1, true: 2}[c.lost], env.attemptsOf("scm.StopRun"))
				assert.Equal(t, 1, srv.Calls("stopExperiment"))
				assert.Equal(t, facade.RunStopped, facade.RunStateValue(st))
				return
			}
			assert.Zero(t, env.attemptsOf("scm.StopRun"))
			assert.Zero(t, srv.Calls("stopExperiment"))
			assert.Equal(t, facade.Pending, facade.DefaultTerminalRule(string(facade.RunStateValue(st))), "the run goes on: %+v", st)
		})
	}
}

// The activities that wait get a heartbeat timeout of four poll intervals
// (the policy's MinInterval), at least MinHeartbeatTimeout, or the one the
// options set; the short ones get none.
func TestHeartbeatTimeoutFollowsThePollPolicy(t *testing.T) {
	for name, c := range map[string]struct {
		opts scmtemporal.Options
		want time.Duration
	}{
		"default policy":  {scmtemporal.Options{}, scmtemporal.MinHeartbeatTimeout},
		"slow polls":      {scmtemporal.Options{Poll: &facade.PollPolicy{MinInterval: 30 * time.Second}}, 2 * time.Minute},
		"set in options":  {scmtemporal.Options{HeartbeatTimeout: 45 * time.Second}, 45 * time.Second},
		"fast polls, min": {scmtemporal.Options{Poll: &facade.PollPolicy{MinInterval: 100 * time.Millisecond}}, scmtemporal.MinHeartbeatTimeout},
	} {
		t.Run(name, func(t *testing.T) {
			srv, clock := newFake(t)
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			timeouts := map[string]time.Duration{}
			env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
				env.mu.Lock()
				defer env.mu.Unlock()
				timeouts[info.ActivityType.Name] = info.HeartbeatTimeout
			})
			env.result(t, scmtemporal.ItemInput{Name: "sim", ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION, Options: c.opts})
			env.mu.Lock()
			defer env.mu.Unlock()
			assert.Equal(t, map[string]time.Duration{"scm.PrepareRun": 0, "scm.StartRun": c.want, "scm.WaitRun": c.want}, timeouts)
		})
	}
}

// A start refused before it reached the server (a 503, the client's own
// retries off) fails its attempt, which says so in its last heartbeat: the
// retry right after it sends the start again without settling, where
// settling could not tell (an import's scenario that never comes, a first
// run's status that shows no end either way). Each is applied once.
func TestRefusedStartIsSentAgain(t *testing.T) {
	for _, op := range []string{"importExcel", "runExperiment"} {
		t.Run(op, func(t *testing.T) {
			srv, clock := newFake(t, fake.WithFault(op, fake.Fault{Kind: fake.FaultStatus, Status: 503}))
			acts := activities(t, srv, nil, clock, facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 1}))
			env := newWorkflowEnv(t, acts)
			res := env.result(t, importItem(t))
			assert.EqualValues(t, 5002, res.ExperimentResultID)
			assert.Equal(t, 2, srv.Calls(op), "refused, then sent again")
			assert.Equal(t, 1, srv.Applied(op))
		})
	}
}

// An attempt refused before it reached the server (its heartbeat says so)
// is followed by one that sends and dies once answered, none of its
// heartbeats reaching the server. The third attempt sees the first one's
// details, which are not its predecessor's: it settles instead of sending
// again, and finds the start took effect. One run.
func TestAnOlderAttemptsNotSentIsNotTrusted(t *testing.T) {
	srv, clock := newFake(t, fake.WithFault("runExperiment", fake.Fault{Kind: fake.FaultStatus, Status: 503}))
	c := &crash{Activity: "scm.StartRun", Path: "/open/experiments/run", After: true, Attempt: 2, LoseHeartbeats: true, LoseAll: true}
	acts := activities(t, srv, c.transport, clock, facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 1}))
	env := newWorkflowEnv(t, acts, c.interceptor())
	res := env.result(t, importItem(t))
	require.True(t, c.happened())
	assert.Equal(t, 3, env.attemptsOf("scm.StartRun"))
	assert.EqualValues(t, 5002, res.ExperimentResultID)
	assert.Equal(t, 2, srv.Calls("runExperiment"), "refused, then sent once")
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// A worker killed while it wrote the item's files leaves their temporary
// files behind (.NAME.<digits>.partial); the attempt that writes them next
// removes them, and nothing else of the directory.
func TestOutputsLeaveNoLeftovers(t *testing.T) {
	srv, clock := newFake(t)
	env := newWorkflowEnv(t, activities(t, srv, nil, clock))
	in := importItem(t)
	dir := filepath.Dir(in.Data)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, name := range []string{".variant.xlsx.123.partial", ".variant.csv.456.partial", "notes.txt", ".other.csv.7.partial"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644))
	}
	env.result(t, in)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{".other.csv.7.partial", "notes.txt", "variant.csv", "variant.xlsx"}, names)
}

// An item whose scenario is not one of existing, imported or copied, or
// that lacks what its step needs, is refused before any activity runs,
// naming the field.
func TestItemWorkflowRefusesABadItem(t *testing.T) {
	for field, in := range map[string]scmtemporal.ItemInput{
		"ItemInput.ScenarioID: exactly one":  {Name: "x", Experiment: gen.ExperimentTypeSIMULATION},
		"ItemInput.ScenarioID: exactly one ": {Name: "x", ScenarioID: 103, CopyOf: 103, ScenarioName: "C", CopyType: gen.ScenarioTypeSIM, Experiment: gen.ExperimentTypeSIMULATION},
		"ItemInput.ScenarioName":             {Name: "x", Workbook: "w.xlsx", Experiment: gen.ExperimentTypeSIMULATION},
		"ItemInput.CopyType":                 {Name: "x", CopyOf: 103, ScenarioName: "C", Experiment: gen.ExperimentTypeSIMULATION},
		"ItemInput.Experiment":               {Name: "x", ScenarioID: 103},
		"ItemInput.Options.MaxRunLength: must not be negative, got -1s": {Name: "x", ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION,
			Options: scmtemporal.Options{MaxRunLength: -time.Second}},
		"ItemInput.Options.MaxJobLength: must not be negative, got -1s": {Name: "x", Workbook: "w.xlsx", ScenarioName: "V", Experiment: gen.ExperimentTypeSIMULATION,
			Options: scmtemporal.Options{MaxJobLength: -time.Second}},
	} {
		t.Run(field, func(t *testing.T) {
			srv, clock := newFake(t)
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
			require.True(t, env.IsWorkflowCompleted())
			var appErr *temporal.ApplicationError
			require.True(t, errors.As(env.GetWorkflowError(), &appErr), "%v", env.GetWorkflowError())
			assert.Equal(t, scmtemporal.ErrTypeRefused, appErr.Type())
			assert.Contains(t, appErr.Error(), `ItemWorkflow: item "x": `+strings.TrimSpace(field))
			env.mu.Lock()
			defer env.mu.Unlock()
			assert.Empty(t, env.attempts, "no activity ran")
		})
	}
}
