package scmtemporal_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal"
)

// followClock makes the fake's clock follow the test environment's: as
// each activity attempt starts, the fake's clock moves on by as much as the
// environment's moved since (the workflow's pauses, the retries' back-off),
// so that another process's run ends while an item waits behind it.
func followClock(env *workflowEnv, clock instantClock) {
	var mu sync.Mutex
	last := env.Now()
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		env.count(info.ActivityType.Name)
		mu.Lock()
		defer mu.Unlock()
		if d := env.Now().Sub(last); d > 0 {
			clock.Advance(d)
		}
		last = env.Now()
	})
}

// ledger tells the item's runs from another process's: it watches the
// item's client's runExperiment calls, and records the run each one
// applied (the fake's last run of the rcId), and the calls per activity
// (each StartRun activity is one start, across its attempts).
type ledger struct {
	srv     *fake.Server
	rcID    ids.RcID
	mu      sync.Mutex
	own     []ids.ExperimentResultID
	perStep map[string]int
}

func newLedger(srv *fake.Server, rcID ids.RcID) *ledger {
	return &ledger{srv: srv, rcID: rcID, perStep: map[string]int{}}
}

func (l *ledger) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if !strings.HasSuffix(req.URL.Path, "/open/experiments/run") {
			return next.RoundTrip(req)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if activity.IsActivity(req.Context()) {
			l.perStep[activity.GetInfo(req.Context()).ActivityID]++
		}
		before := l.srv.Applied("runExperiment")
		resp, err := next.RoundTrip(req)
		if l.srv.Applied("runExperiment") > before {
			_, result, _ := l.srv.LastRun(l.rcID)
			l.own = append(l.own, result)
		}
		return resp, err
	})
}

// check asserts that the item made at most one run, sent runExperiment at
// most once per start, and, done, returned its own run's result and
// exported it; never another process's.
func (l *ledger) check(t *testing.T, env *workflowEnv, foreign []ids.ExperimentResultID) (done bool) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	assert.LessOrEqual(t, len(l.own), 1, "the item made at most one run: %v", l.own)
	for step, n := range l.perStep {
		assert.LessOrEqual(t, n, 1, "StartRun activity %s sent runExperiment %d times", step, n)
	}
	require.True(t, env.IsWorkflowCompleted())
	if err := env.GetWorkflowError(); err != nil {
		assert.Contains(t, []scmtemporal.ItemStatus{scmtemporal.ItemUnknown, scmtemporal.ItemFailed, scmtemporal.ItemCancelled}, statusOfErr(err), "%v", err)
		return false
	}
	var res scmtemporal.ItemResult
	require.NoError(t, env.GetWorkflowResult(&res))
	require.Len(t, l.own, 1, "done without a run of its own")
	assert.Equal(t, l.own[0], res.ExperimentResultID, "the item's own run's result")
	assert.NotContains(t, foreign, res.ExperimentResultID, "another process's run")
	for _, out := range res.Outputs {
		assert.True(t, fileExists(t, out), out)
	}
	return true
}

func statusOfErr(err error) scmtemporal.ItemStatus {
	var appErr *temporal.ApplicationError
	switch {
	case temporal.IsCanceledError(err):
		return scmtemporal.ItemCancelled
	case errors.As(err, &appErr) && appErr.Type() == scmtemporal.ErrTypeStartUnknown:
		return scmtemporal.ItemUnknown
	}
	return scmtemporal.ItemFailed
}

// cancelAtStart cancels the workflow as soon as its start has returned:
// the wait never begins, or ends at once, and StopRun decides.
func cancelAtStart(env *workflowEnv) {
	var once sync.Once
	env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, err error) {
		if info.ActivityType.Name == "scm.StartRun" && err == nil {
			once.Do(func() { env.RegisterDelayedCallback(env.CancelWorkflow, 0) })
		}
	})
}

// foreignStart starts rcId 10303 as another process does, with a client
// of its own, and returns the result id of the run it made.
func foreignStart(t *testing.T, srv *fake.Server, clock facade.Clock) ids.ExperimentResultID {
	t.Helper()
	other := activities(t, srv, nil, clock)
	_, err := other.Client.Experiments.Start(testCtx(t), 10303, nil)
	require.NoError(t, err)
	_, result, ok := srv.LastRun(10303)
	require.True(t, ok)
	return result
}

// The timings of another process's start of the item's experiment, before
// the item prepares its run.
var foreignTimings = map[string]func(clock instantClock){
	"another run under way long before": func(c instantClock) { c.Advance(fake.DefaultStatusLag + time.Second) },
	"another run started 0 s before":    func(instantClock) {},
	"another run within the status lag": func(c instantClock) { c.Advance(fake.DefaultStatusLag / 2) },
}

// Another process starts the item's experiment before the item prepares
// its run: long before (the status shows it), at the same instant, or
// within the status's lag (the status cannot show it yet), on a fake that
// shows a run under way as a real server does (IDLE, finished false), and
// that refuses, queues or runs beside a second start; the experiment never
// ran, or ran once before. The item queues behind the run under way or
// ends unknown; done, it returns and exports its own run's result, made
// by one runExperiment, never the other process's. Cancelled once its run
// started, with StopOnCancel, it never stops the other process's run
// (every foreign run is listed at the end: a stopped run is never listed),
// except where the facade documents that it cannot tell them apart: a
// server that queues or runs a second start beside, and a start within the
// status lag before the item's.
func TestItemNeverTakesAnotherProcesssRun(t *testing.T) {
	for _, mode := range []fake.SecondStart{fake.SecondStartRefused, fake.SecondStartQueued, fake.SecondStartBeside} {
		for timing, before := range foreignTimings {
			for _, ranBefore := range []bool{false, true} {
				for _, cancel := range []bool{false, true} {
					hidden := timing != "another run under way long before"
					if cancel && mode != fake.SecondStartRefused && hidden {
						continue // the facade's documented limit: stopExperiment names no run
					}
					name := fmt.Sprintf("%s/%s/ran before %v/cancelled %v", mode, timing, ranBefore, cancel)
					t.Run(name, func(t *testing.T) { itemBesideAForeignRun(t, mode, before, hidden, ranBefore, cancel) })
				}
			}
		}
	}
}

func itemBesideAForeignRun(t *testing.T, mode fake.SecondStart, before func(instantClock), hidden, ranBefore, cancel bool) {
	srv, clock := newFake(t, fake.WithSecondStart(mode))
	l := newLedger(srv, 10303)
	acts := activities(t, srv, l.transport, clock)
	if ranBefore {
		_, err := activities(t, srv, nil, clock).Client.RunAndWait(testCtx(t), 10303, nil)
		require.NoError(t, err)
	}
	foreign := []ids.ExperimentResultID{foreignStart(t, srv, clock)}
	before(clock)
	env := newWorkflowEnv(t, acts)
	followClock(env, clock)
	if cancel {
		cancelAtStart(env)
	}
	in := item()
	in.Dashboard = filepath.Join(t.TempDir(), "sim.xlsx")
	in.Options.StopOnCancel = cancel
	env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
	done := l.check(t, env, foreign)
	if cancel {
		assert.Equal(t, scmtemporal.ItemCancelled, statusOfErr(env.GetWorkflowError()), "%v", env.GetWorkflowError())
		assert.Equal(t, 1, env.attemptsOf("scm.StopRun"), "cancelled once started, it asked to stop its run")
	} else {
		assert.Equal(t, mode == fake.SecondStartRefused || !hidden && ranBefore, done, "%v", env.GetWorkflowError())
	}

	clock.Advance(24 * time.Hour) // every run has ended
	runs, err := acts.Client.Experiments.Runs(testCtx(t), 103)
	require.NoError(t, err)
	var listed []ids.ExperimentResultID
	for _, r := range runs {
		listed = append(listed, r.RcId)
	}
	assert.Subset(t, listed, foreign, "another process's run was stopped")
	if cancel && mode == fake.SecondStartRefused { // the run under way can only be the item's
		assert.Equal(t, 1, srv.Calls("stopExperiment"), "the item's own run is stopped")
		assert.NotContains(t, listed, l.own[0], "the item's run was stopped: never listed")
	}
}

// runExperiment's answer is lost, on a server whose status lags 30 s
// behind a start and whose runs take 40 s; the item's stale window is 35 s,
// longer than the lag, as the facade asks. The retry asks the server
// (Began). After an earlier run, the run shows under way within the stale
// window: done, one run, its own. A first run shows only once listed, at
// its end: with MaxRunLength declared (a minute) the retry waits that long
// and sees it; without it, nothing shows within the stale window, and the
// item stops as unknown: nothing is sent again.
func TestLostAnswerBehindALaggingStatus(t *testing.T) {
	for _, ranBefore := range []bool{false, true} {
		for _, declared := range []bool{true, false} {
			t.Run(fmt.Sprintf("ran before %v/MaxRunLength %v", ranBefore, declared), func(t *testing.T) {
				srv, clock := newFake(t, fake.WithStatusLag(30*time.Second), fake.WithRunDuration(40*time.Second))
				l := newLedger(srv, 10303)
				acts := activities(t, srv, l.transport, clock)
				if ranBefore {
					_, err := activities(t, srv, nil, clock).Client.RunAndWait(testCtx(t), 10303, &facade.WaitOptions{StaleWindow: 35 * time.Second})
					require.NoError(t, err)
				}
				srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
				env := newWorkflowEnv(t, acts)
				in := item()
				in.Options.StaleWindow = 35 * time.Second // longer than the lag, as the facade asks
				if declared {
					in.Options.MaxRunLength = time.Minute
				}
				env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
				done := l.check(t, env, nil)
				assert.Equal(t, declared || ranBefore, done, "%v", env.GetWorkflowError())
				if !done {
					assert.Equal(t, scmtemporal.ItemUnknown, statusOfErr(env.GetWorkflowError()))
				}
				assert.Len(t, l.own, 1, "the lost start's run, and no other")
			})
		}
	}
}

// While the experiment has a run under way that another process started
// (the status shows it, and the scenario lists an earlier run of the
// type), the item waits, preparing again after each pause, and runs its
// own once that run has ended. A run under way longer than QueueTimeout
// fails the item with RunUnderWay, having sent nothing.
func TestItemQueuesBehindARunUnderWay(t *testing.T) {
	for _, long := range []bool{false, true} {
		t.Run(map[bool]string{false: "the run ends", true: "longer than QueueTimeout"}[long], func(t *testing.T) {
			opts := []fake.Option{}
			if long {
				opts = append(opts, fake.WithRunDuration(2*time.Hour))
			}
			srv, clock := newFake(t, opts...)
			l := newLedger(srv, 10303)
			acts := activities(t, srv, l.transport, clock)
			_, err := activities(t, srv, nil, clock).Client.RunAndWait(testCtx(t), 10303, nil)
			require.NoError(t, err)
			foreign := []ids.ExperimentResultID{foreignStart(t, srv, clock)}
			clock.Advance(fake.DefaultStatusLag) // the status shows the run
			env := newWorkflowEnv(t, acts)
			followClock(env, clock)
			in := item()
			in.Options.QueueTimeout = time.Hour
			env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
			done := l.check(t, env, foreign)
			assert.Greater(t, env.attemptsOf("scm.PrepareRun"), 1, "prepared again after a pause")
			if long {
				require.False(t, done)
				var appErr *temporal.ApplicationError
				require.ErrorAs(t, env.GetWorkflowError(), &appErr)
				assert.Equal(t, scmtemporal.ErrTypeRunUnderWay, appErr.Type())
				assert.Contains(t, appErr.Error(), "(Options.QueueTimeout)")
				assert.Empty(t, l.own)
				return
			}
			assert.True(t, done)
		})
	}
}

// On the fake's default, a second start is refused while a run is under
// way; a first run under way shows as no run at all, so PrepareRun cannot
// see it. The item's start is refused (ErrRunUnderWay: nothing was
// sent), and the item prepares again, with fresh evidence, until that run
// has ended: done, its own run. The refused attempt is never settled as a
// lost answer.
func TestRefusedStartPreparesAgain(t *testing.T) {
	srv, clock := newFake(t)
	l := newLedger(srv, 10303)
	acts := activities(t, srv, l.transport, clock)
	foreign := []ids.ExperimentResultID{foreignStart(t, srv, clock)}
	clock.Advance(fake.DefaultStatusLag)
	env := newWorkflowEnv(t, acts)
	followClock(env, clock)
	env.ExecuteWorkflow(scmtemporal.WorkflowName, item())
	require.True(t, l.check(t, env, foreign), "%v", env.GetWorkflowError())
	assert.Greater(t, env.attemptsOf("scm.StartRun"), 1, "refused, then started")
	assert.Greater(t, srv.Calls("runExperiment"), 2, "the other process's, the refused, the item's")
}
