package facade

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newVirtualFake starts a fake whose runs take runFor on a virtual clock
// that the client's waits advance.
func newVirtualFake(t testing.TB, runFor time.Duration, opts ...fake.Option) (*fake.Server, *Client, faketest.InstantClock) {
	t.Helper()
	opts = append([]fake.Option{fake.WithAPIKeys(testKey), fake.WithRunDuration(runFor), fake.WithImportDuration(runFor)}, opts...)
	srv, clock := faketest.NewInstantServer(t, opts...)
	return srv, newTestClient(t, srv.URL, WithClock(clock)), clock
}

// progressServer answers a run's state as a server that reports progress
// does: RUNNING with progress rising linearly to 100 over runFor, then
// FINISHED, on the client's clock.
func progressServer(t testing.TB, runFor time.Duration) (*Client, faketest.InstantClock, *atomic.Int32) {
	clock := faketest.NewInstantClock()
	start := clock.Now()
	var polls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		polls.Add(1)
		elapsed := clock.Now().Sub(start)
		if elapsed >= runFor {
			fmt.Fprint(w, `{"state":"FINISHED","progress":100}`)
			return
		}
		fmt.Fprintf(w, `{"state":"RUNNING","progress":%g}`, float64(elapsed)/float64(runFor)*100)
	}, WithClock(clock))
	return c, clock, &polls
}

// With progress, the default policy estimates the finish and polls just
// after it.
func TestDefaultPolicyMeetsTheSixtySecondTarget(t *testing.T) {
	c, clock, polls := progressServer(t, 60*time.Second)
	start := clock.Now()
	_, err := c.Run(1).Wait(testCtx(t), nil)
	require.NoError(t, err)
	late := clock.Now().Sub(start.Add(60 * time.Second))
	assert.GreaterOrEqual(t, late, time.Duration(0))
	assert.LessOrEqual(t, late, 2*time.Second)
	assert.LessOrEqual(t, polls.Load(), int32(20))
}

func TestStatesReportRisingProgress(t *testing.T) {
	c, _, _ := progressServer(t, 60*time.Second)
	run := c.Run(1)
	var progress []float64
	var last *gen.ExecutionState
	for s, err := range run.States(testCtx(t), &WaitOptions{Policy: &PollPolicy{DisableEstimate: true, MinInterval: 5 * time.Second, MaxInterval: 5 * time.Second}}) {
		require.NoError(t, err)
		if p := (runState{s}).progressValue(); p != nil {
			progress = append(progress, *p)
		}
		last = s
	}
	assert.Equal(t, RunFinished, RunStateValue(last))
	assert.IsNonDecreasing(t, progress)
	assert.Greater(t, len(progress), 5)
	assert.True(t, run.Done())
}

func TestFailedRunIsAStateError(t *testing.T) {
	_, c, _ := newVirtualFake(t, 10*time.Second)
	_, err := c.RunAndWait(testCtx(t), 10403, nil) // scenario 104's runs fail
	var se *StateError
	require.ErrorAs(t, err, &se)
	assert.ErrorIs(t, err, ErrFailed)
	assert.Equal(t, int64(10403), se.ID)
	assert.Equal(t, string(RunFailed), se.State)
	assert.NotEmpty(t, se.Message, "the server's text says why")
}

func TestResumeRunFromIDAlone(t *testing.T) {
	srv, c, _ := newVirtualFake(t, 30*time.Second)
	_, err := c.Experiments.Start(testCtx(t), 10303, nil)
	require.NoError(t, err)
	other := newTestClient(t, srv.URL, WithClock(c.cfg.clock))
	run := other.Run(10303)
	assert.Nil(t, run.State())
	assert.False(t, run.Done())
	state, err := run.Wait(testCtx(t), nil)
	require.NoError(t, err)
	assert.Equal(t, RunFinished, RunStateValue(state))
	cached, err := run.Result()
	require.NoError(t, err)
	assert.Same(t, state, cached)
}

// TestUnknownStatesKeepPolling: a state value the SDK has never seen means
// the work goes on; each new value is logged once at Warn.
func TestUnknownStatesKeepPolling(t *testing.T) {
	var polls atomic.Int32
	states := []string{"PAUSED", "PAUSED", "Warming_Up", "PAUSED", "finished"}
	var logs bytes.Buffer
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"rcId":1,"state":%q}`, states[min(int(polls.Add(1)), len(states))-1])
	}, WithClock(faketest.NewInstantClock()), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	state, err := c.Run(1).Wait(testCtx(t), nil)
	require.NoError(t, err, "finished, in any case, is a success")
	assert.Equal(t, RunState("finished"), RunStateValue(state))
	assert.EqualValues(t, len(states), polls.Load(), "polling went on through the unknown values")
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(line, "unknown state value") { // the answer's other differences are drift, logged apart
			lines = append(lines, line)
		}
	}
	require.Len(t, lines, 2, "one line per new value: %s", logs.String())
	assert.Contains(t, lines[0], "level=WARN")
	assert.Contains(t, lines[0], "operation=getExperimentStatus state=PAUSED")
	assert.Contains(t, lines[1], "state=Warming_Up")
}

// A rule can still give a value of its own an outcome.
func TestTerminalRuleOverride(t *testing.T) {
	rule := func(s string) Outcome {
		if s == "PAUSED" {
			return Stopped
		}
		return DefaultTerminalRule(s)
	}
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"rcId":1,"state":"PAUSED"}`)
	}, WithClock(faketest.NewInstantClock()), WithTerminalRule(rule))
	_, err := c.Run(1).Wait(testCtx(t), nil)
	var se *StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Stopped, se.Outcome)
	assert.ErrorIs(t, err, ErrFailed)
}

func TestDefaultTerminalRule(t *testing.T) {
	for state, want := range map[string]Outcome{
		"DONE": Succeeded, "finished": Succeeded, "Completed": Succeeded, "SUCCEEDED": Succeeded, "success": Succeeded,
		"FAILED": Failed, "error": Failed, "CANCELED": Cancelled, "cancelled": Cancelled, "STOPPED": Stopped,
		"RUNNING": Pending, "QUEUED": Pending, "STOPPING": Pending, "PAUSED": Pending, "": Pending, "DONE_WITH_WARNINGS": Pending,
	} {
		assert.Equal(t, want, DefaultTerminalRule(state), state)
	}
}

// MaxWait bounds a wait on the client's clock, and StopOnCancel then stops
// the run.
func TestMaxWaitEndsWaiting(t *testing.T) {
	var polls, stops atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/stop") {
			stops.Add(1)
		} else {
			polls.Add(1)
		}
		fmt.Fprint(w, `{"rcId":1,"state":"RUNNING"}`)
	}, WithClock(faketest.NewInstantClock()), WithPollPolicy(PollPolicy{MinInterval: time.Second, MaxInterval: time.Second, DisableEstimate: true}))
	_, err := c.Run(1).Wait(testCtx(t), &WaitOptions{MaxWait: 10 * time.Second, StopOnCancel: true})
	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "it was stopped")
	assert.EqualValues(t, 10, polls.Load(), "polls at 0 s, 1 s, ... 9 s; at 10 s MaxWait has passed")
	assert.EqualValues(t, 1, stops.Load())

	_, err = c.Run(1).Wait(testCtx(t), &WaitOptions{MaxWait: -time.Second})
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "WaitOptions.MaxWait", verr.Field)
	_, err = c.Run(1).Wait(testCtx(t), &WaitOptions{Policy: &PollPolicy{MinInterval: -time.Second}})
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "WaitOptions.Policy", verr.Field)
}

func TestWaitHonoursRetryAfterUpToTheCap(t *testing.T) {
	srv, c, _ := newVirtualFake(t, 20*time.Second)
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: "5", Times: 3})
	_, err = run.Wait(testCtx(t), nil)
	require.NoError(t, err)

	run, err = c.Experiments.Start(testCtx(t), 10102, nil)
	require.NoError(t, err)
	srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: "3600"})
	_, err = run.Wait(testCtx(t), nil)
	assert.ErrorIs(t, err, ErrServer)
}

func TestWaitEndsAtTheContextDeadline(t *testing.T) {
	_, c := newFake(t, fake.WithRunDuration(time.Hour))
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	ctx, cancel := contextWithTimeout(100 * time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = run.Wait(ctx, &WaitOptions{Policy: &PollPolicy{MinInterval: 10 * time.Millisecond, MaxInterval: 20 * time.Millisecond}})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestStopOnCancel(t *testing.T) {
	srv, c := newFake(t, fake.WithRunDuration(time.Hour))
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	policy := &PollPolicy{MinInterval: 5 * time.Millisecond, MaxInterval: 5 * time.Millisecond}
	for _, err = range run.States(ctx, &WaitOptions{Policy: policy, StopOnCancel: true}) {
		cancel() // after the first state: the run is under way
		if err != nil {
			break
		}
	}
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	state, err := c.Experiments.Status(testCtx(t), 10101)
	require.NoError(t, err)
	assert.Equal(t, RunStopped, RunStateValue(state))
	assert.True(t, state.StopTrigger)
}

// When stopping fails, the wait's error says so: the run may go on.
func TestStopOnCancelReportsAFailedStop(t *testing.T) {
	srv, c := newFake(t, fake.WithRunDuration(time.Hour))
	srv.InjectFault("stopExperiment", fake.Fault{Kind: fake.FaultStatus, Status: 500, Times: 1})
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(testCtx(t))
	cancel()
	_, err = run.Wait(ctx, &WaitOptions{StopOnCancel: true})
	assert.ErrorIs(t, err, context.Canceled)
	var stopErr *APIError
	require.ErrorAs(t, err, &stopErr, "the stop's own error")
	assert.Equal(t, "stopExperiment", stopErr.Operation)
	assert.ErrorContains(t, err, "stopping the work failed")
	assert.Equal(t, 0, srv.Applied("stopExperiment"))
	state, err := c.Experiments.Status(testCtx(t), 10101)
	require.NoError(t, err)
	assert.NotEqual(t, RunStopped, RunStateValue(state))
}

func TestCopyAndImportJobs(t *testing.T) {
	_, c, _ := newVirtualFake(t, 20*time.Second)
	status, err := c.CopyScenarioAndWait(testCtx(t), 101, gen.ScenarioTypeSIM, &NewScenarioOptions{Name: "Copy"}, nil)
	require.NoError(t, err)
	require.NotNil(t, status.ScenarioId)
	scenarios, err := c.Scenarios.List(testCtx(t), 1)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, s := range scenarios {
		names[deref(s.Name)] = true
	}
	assert.True(t, names["null"], "the fake names a copy null whatever newName says, as the real server does: %v", names)

	job, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, nil)
	require.NoError(t, err)
	require.NoError(t, c.Imports.Cancel(testCtx(t), job.JobID))
	_, err = c.Job(job.JobID).Wait(testCtx(t), nil)
	var se *StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Cancelled, se.Outcome)
	assert.ErrorIs(t, err, ErrFailed)
}

// Every end but success matches ErrFailed, and no other sentinel: the
// Outcome tells them apart.
func TestStateErrorSentinels(t *testing.T) {
	for _, o := range []Outcome{Failed, Stopped, Cancelled} {
		err := error(&StateError{Kind: "run", ID: 1, State: "X", Outcome: o})
		assert.ErrorIs(t, err, ErrFailed, "outcome %v", o)
		for _, other := range []error{ErrTimeout, ErrValidation, ErrServer, ErrStartUnknown, ErrMayHaveBeenApplied} {
			assert.NotErrorIs(t, err, other, "outcome %v", o)
		}
	}
}

// ResultID finds the result of a run that ended: the latest of the run
// configuration's runs, read from its scenario; a run configuration that
// never ran has none.
func TestRunResultID(t *testing.T) {
	_, c, _ := newVirtualFake(t, 10*time.Second)
	var results []ids.ExperimentResultID
	for range 2 {
		run, err := c.Experiments.Start(testCtx(t), 10303, nil)
		require.NoError(t, err)
		_, err = run.Wait(testCtx(t), nil)
		require.NoError(t, err)
		id, err := run.ResultID()
		require.NoError(t, err)
		results = append(results, id)
	}
	assert.Greater(t, results[1], results[0], "the second run's result")
	pages, err := c.Dashboards.Pages(testCtx(t), results[1])
	require.NoError(t, err)
	assert.NotEmpty(t, pages, "the id is a result's")
	assert.Equal(t, ids.PageID(results[1]+2), pages[0].Id, "the first page is experimentResultId+2")
	variation, err := c.Experiments.Start(testCtx(t), 10305, nil)
	require.NoError(t, err)
	_, err = variation.Wait(testCtx(t), nil)
	require.NoError(t, err)
	_, err = variation.ResultID()
	assert.ErrorIs(t, err, ErrValidation, "a VARIATION run is never listed")
	assert.ErrorContains(t, err, "ExperimentsService.RunSync")
}
