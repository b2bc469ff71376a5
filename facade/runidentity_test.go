package facade

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// The moments another client starts the configuration, against this
// client's start.
const (
	otherLongBefore = "long before"         // half a run before Prepare
	otherZeroBefore = "0 s before"          // after Prepare, before StartPrepared
	otherWithinLag  = "within the lag"      // half the status lag before Prepare
	lagOfTheMatrix  = 5 * time.Second       // the status lag of the matrix's fakes
	rcOfTheMatrix   = ids.RcID(10303)       // SIMULATION of scenario 103, in project 1
	shortRun        = 2 * time.Second       // shorter than the lag: never shown under way
	matrixProject   = ids.ProjectID(1)      // scenario 103's project
	settledWait     = 30 * time.Minute      // long enough for any wait of the matrix
	neverShortRun   = 40 * time.Second      // longer than the lag and the stale window
	longRun         = 10 * time.Minute      // paced slowly
	outcomeRefused  = "refused"             // ErrRunUnderWay
	outcomeAmbig    = "ambiguous"           // StartUnknownError.Ambiguous
	outcomeOurs     = "this start's result" // the run this start made
)

// matrixWant is what this client's start must come to when another client
// starts the configuration at when, on a server that answers a second
// start by mode, with runs of runFor: refused on a server that refuses, or
// where Prepare sees the run under way; this start's own result where the
// other run ended before it; else ambiguous (two new runs listed), never
// the other's.
func matrixWant(mode fake.SecondStart, when string, runFor time.Duration) string {
	switch {
	case when == otherWithinLag && runFor == shortRun:
		return outcomeOurs // the other run ended, and was listed, before Prepare
	case when == otherLongBefore && runFor > shortRun:
		return outcomeRefused // Prepare sees it under way
	case mode == fake.SecondStartRefused:
		return outcomeRefused
	}
	return outcomeAmbig
}

// Another client's run is never taken for this start's, on servers that
// refuse, queue or run beside a second start, whether it began long before
// this start, between its Prepare and its send, or within the status lag
// before Prepare (which no read shows), with runs shorter than the lag and
// longer: a refused start is ErrRunUnderWay (never may-have-been-applied,
// never waited on, nothing stopped), runExperiment is sent once, and a
// wait returns this start's result or, where two new runs are listed, an
// ambiguous *StartUnknownError.
func TestAnotherClientsRunIsNeverTaken(t *testing.T) {
	for _, mode := range []fake.SecondStart{fake.SecondStartRefused, fake.SecondStartQueued, fake.SecondStartBeside} {
		for _, when := range []string{otherLongBefore, otherZeroBefore, otherWithinLag} {
			for _, runFor := range []time.Duration{shortRun, neverShortRun, longRun} {
				t.Run(fmt.Sprintf("%s/%s/%v", mode, when, runFor), func(t *testing.T) {
					t.Parallel()
					checkAnotherClient(t, mode, when, runFor)
				})
			}
		}
	}
}

func checkAnotherClient(t *testing.T, mode fake.SecondStart, when string, runFor time.Duration) {
	srv, c, clk := newVirtualFake(t, runFor, fake.WithSecondStart(mode), fake.WithStatusLag(lagOfTheMatrix))
	other := newTestClient(t, srv.URL, WithClock(clk))    // another process, with the same key
	must(c.RunAndWait(testCtx(t), rcOfTheMatrix, nil))(t) // an end shows before
	var otherResult ids.ExperimentResultID
	startOther := func() {
		must(other.Experiments.Start(testCtx(t), rcOfTheMatrix, nil))(t)
		_, otherResult, _ = srv.LastRun(rcOfTheMatrix)
	}
	switch when {
	case otherLongBefore:
		startOther()
		clk.Advance(runFor / 2)
	case otherWithinLag:
		startOther()
		clk.Advance(lagOfTheMatrix / 2)
	}
	opts := &StartOptions{ProjectID: matrixProject}
	sent := srv.Calls("runExperiment")
	run, err := c.Experiments.Prepare(testCtx(t), rcOfTheMatrix, opts)
	if err == nil {
		if when == otherZeroBefore {
			startOther()
			sent++
		}
		err = c.Experiments.StartPrepared(testCtx(t), run, opts)
	}
	assert.LessOrEqual(t, srv.Calls("runExperiment")-sent, 1, "runExperiment sent at most once")
	var got string
	switch {
	case errors.Is(err, ErrRunUnderWay):
		got = outcomeRefused
		checkRefused(t, c, run, err)
	case err != nil:
		t.Fatalf("the start: %v", err)
	default:
		got = waitMatrixRun(t, srv, run, otherResult)
	}
	assert.Equal(t, matrixWant(mode, when, runFor), got)
	assert.Zero(t, srv.Applied("stopExperiment"), "nothing stopped")
	clk.Advance(settledWait)
	_, err = c.Experiments.Runs(testCtx(t), 103)
	require.NoError(t, err)
}

// checkRefused checks a start refused because a run is under way: not a
// lost answer, and a Run of it (if Prepare returned one) is never waited
// on, settled or stopped.
func checkRefused(t *testing.T, c *Client, run *Run, err error) {
	t.Helper()
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	if run == nil {
		return
	}
	_, werr := run.Wait(testCtx(t), &WaitOptions{StopOnCancel: true, MaxWait: time.Second})
	assert.ErrorIs(t, werr, ErrRunUnderWay, "a refused start is not waited on")
	_, berr := c.Experiments.Began(testCtx(t), run, nil)
	assert.ErrorIs(t, berr, ErrRunUnderWay, "nor settled")
}

// waitMatrixRun waits for this client's run and says how it ended: its own
// result, never the other's, or ambiguous.
func waitMatrixRun(t *testing.T, srv *fake.Server, run *Run, otherResult ids.ExperimentResultID) string {
	t.Helper()
	_, ours, ok := srv.LastRun(rcOfTheMatrix) // this start's run: the last started
	require.True(t, ok)
	_, err := run.Wait(testCtx(t), nil)
	if err != nil {
		var unknown *StartUnknownError
		require.ErrorAs(t, err, &unknown)
		require.True(t, unknown.Ambiguous, "%v", err)
		require.ErrorIs(t, err, ErrStartUnknown, "nothing starts it again")
		_, rerr := run.ResultID()
		require.ErrorIs(t, rerr, ErrValidation, "no result is taken")
		return outcomeAmbig
	}
	id := must(run.ResultID())(t)
	require.NotEqual(t, otherResult, id, "another client's result")
	require.Equal(t, ours, id)
	return outcomeOurs
}

// A start whose answer was lost, on a slow server: the status lags 30 s
// behind a start, or stays at the old end all through the run, with runs
// of 2 s, 40 s and 10 min. RunAndWait sends runExperiment once, never
// answers that a start that took effect did not, and returns this start's
// result or ErrStartUnknown: with StaleWindow and MaxRunLength declared,
// the result; without, whatever it can tell within the default window.
func TestLostAnswerOnASlowServer(t *testing.T) {
	frozen := 1000 * time.Hour // the fake shows a run's end at its end, whatever the lag
	for _, lag := range []time.Duration{30 * time.Second, frozen} {
		for _, runFor := range []time.Duration{shortRun, neverShortRun, longRun} {
			for _, declared := range []bool{false, true} {
				t.Run(fmt.Sprintf("lag %v/run %v/declared %v", lag, runFor, declared), func(t *testing.T) {
					t.Parallel()
					var opts *WaitOptions
					if declared {
						opts = &WaitOptions{StaleWindow: min(lag, runFor) + time.Second, MaxRunLength: 2 * runFor}
					}
					checkLostAnswer(t, lag, runFor, opts)
				})
			}
		}
	}
}

func checkLostAnswer(t *testing.T, lag, runFor time.Duration, opts *WaitOptions) {
	srv, c, _ := newVirtualFake(t, runFor, fake.WithStatusLag(lag))
	must(c.RunAndWait(testCtx(t), rcOfTheMatrix, opts))(t)
	sent := srv.Calls("runExperiment")
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
	run, err := c.RunAndWait(testCtx(t), rcOfTheMatrix, opts)
	assert.Equal(t, sent+1, srv.Calls("runExperiment"), "runExperiment sent once")
	assert.Equal(t, sent+1, srv.Applied("runExperiment"))
	_, ours, _ := srv.LastRun(rcOfTheMatrix)
	switch {
	case opts != nil || runFor < DefaultStaleWindow:
		require.NoError(t, err, "the run is listed within the window")
		assert.Equal(t, ours, must(run.ResultID())(t))
	default:
		require.ErrorIs(t, err, ErrStartUnknown, "a run under way behind a lagging status is never taken as not begun")
		assert.NotContains(t, err.Error(), "did not take effect")
	}
}

// A start refused because the configuration has a run under way matches
// ErrRunUnderWay and not ErrMayHaveBeenApplied, for the words of the
// default list and those a client adds, ignoring case; other failures of a
// start stay may-have-been-applied, and a read is never classed so.
func TestRunUnderWayRefusals(t *testing.T) {
	cases := []struct {
		op, message string
		status      int
		extra       []string
		underWay    bool
	}{
		{"run", "rcId 10303: run 5001 is already running", 500, nil, true},
		{"run", "Experiment IS RUNNING", 500, nil, true},
		{"run", "a run is in progress", 409, nil, true},
		{"sync", "The experiment is currently running", 500, nil, true},
		{"run", "server busy with rcId 7", 500, []string{"Busy With"}, true},
		{"run", "server busy with rcId 7", 500, nil, false},
		{"run", "NullPointerException", 500, nil, false},
		{"run", "maintenance in progress", 503, nil, false}, // try later: not a refusal
		{"status", "already running", 500, nil, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s %d %s %v", tc.op, tc.status, tc.message, tc.extra), func(t *testing.T) {
			var opts []Option
			if tc.extra != nil {
				opts = append(opts, WithRunUnderWayMessages(tc.extra...))
			}
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch path := r.URL.Path; {
				case strings.HasSuffix(path, "/experiments/results"):
					fmt.Fprint(w, `[]`)
				case strings.HasSuffix(path, "/experiments/status") && tc.op != "status":
					fmt.Fprint(w, `{"failed":false,"finished":true,"terminal":false,"genericState":"IDLE","step":"IDLE"}`)
				default:
					w.WriteHeader(tc.status)
					fmt.Fprintf(w, `{"message":%q,"details":{}}`, tc.message)
				}
			}, append(opts, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))...)
			var err error
			switch tc.op {
			case "run":
				_, err = c.Experiments.Start(testCtx(t), 10303, &StartOptions{ScenarioID: 103, Type: "SIMULATION"})
			case "sync":
				_, err = c.Experiments.RunSync(testCtx(t), 10303)
			case "status":
				_, err = c.Experiments.Status(testCtx(t), 10303)
			}
			require.Error(t, err)
			assert.Equal(t, tc.underWay, errors.Is(err, ErrRunUnderWay), "%v", err)
			if tc.underWay {
				assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
				assert.ErrorContains(t, err, "run under way")
			}
		})
	}
}
