package facade

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// rcOfType is a running configuration of each experiment type in the
// fake's seeded world.
var rcOfType = map[gen.ExperimentType]ids.RcID{
	gen.ExperimentTypeGFA: 10101, gen.ExperimentTypeGFAWITHROADS: 10102, gen.ExperimentTypeSIMULATION: 10303,
	gen.ExperimentTypeNETWORKOPTIMIZATION: 10204, gen.ExperimentTypeVARIATION: 10305, gen.ExperimentTypeCOMPARISON: 10306,
	gen.ExperimentTypeSAFETYSTOCK: 10307, gen.ExperimentTypeRISKANALYSIS: 10308, gen.ExperimentTypeLASTMILEOPTIMIZATION: 10109,
}

// answer is one of Began's three answers.
type answer string

const (
	began    answer = "began"
	notBegun answer = "not begun"
	unknown  answer = "unknown"
)

// answerOf returns the answer of a Began's results:
// answerOf(t)(c.Experiments.Began(ctx, run, nil)).
func answerOf(t *testing.T) func(ok bool, err error) answer {
	return func(ok bool, err error) answer {
		t.Helper()
		return answerFrom(t, ok, err)
	}
}

func answerFrom(t *testing.T, ok bool, err error) answer {
	t.Helper()
	switch {
	case errors.Is(err, ErrStartUnknown):
		var ue *StartUnknownError
		require.ErrorAs(t, err, &ue)
		assert.Contains(t, err.Error(), "check on the server")
		return unknown
	case err != nil:
		t.Fatalf("Began: %v", err)
	case ok:
		return began
	}
	return notBegun
}

// For every experiment type and every end the configuration showed before
// (none, finished, failed, stopped), a start whose answer is lost (the run
// starts on the server) is settled from its resume token, before the run
// ends and after: runExperiment was applied exactly once, and Began
// answers began, or unknown where a real server's answers cannot tell,
// never not begun.
func TestBeganAfterALostAnswerForEveryTypeAndPreviousEnd(t *testing.T) {
	// want is the answer before and after the run's end, by previous end.
	want := map[string][2]answer{
		"none":               {unknown, began}, // under way reads as never ran; then a first end
		"finished":           {began, began},   // finished false replaces the end; then listed
		"failed":             {began, unknown}, // the same failure again is not listed
		"stopped":            {began, began},   // a finish after a stop is another end
		"variation finished": {began, unknown}, // never listed: the same end again
	}
	for typ, rc := range rcOfType {
		for _, prev := range []string{"none", "finished", "failed", "stopped"} {
			t.Run(fmt.Sprintf("%s/%s", typ, prev), func(t *testing.T) {
				t.Parallel()
				var opts []fake.Option
				if prev == "failed" {
					opts = append(opts, fake.WithFailingRuns(rc))
				}
				srv, c, clk := newVirtualFake(t, time.Minute, opts...)
				switch prev {
				case "finished", "failed":
					_, err := c.RunAndWait(testCtx(t), rc, nil)
					if prev == "failed" {
						require.ErrorIs(t, err, ErrFailed)
					} else {
						require.NoError(t, err)
					}
				case "stopped":
					must(c.Experiments.Start(testCtx(t), rc, nil))(t)
					must(c.Experiments.Stop(testCtx(t), rc))(t)
				}
				applied := srv.Applied("runExperiment")

				srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
				run, err := c.Experiments.Start(testCtx(t), rc, nil)
				require.ErrorIs(t, err, ErrMayHaveBeenApplied)
				require.NotNil(t, run, "a start whose answer was lost still hands out its run")
				token := must(run.ResumeToken())(t)
				started := clk.Now()

				w := want[prev]
				if typ == gen.ExperimentTypeVARIATION && prev == "finished" {
					w = want["variation finished"]
				}
				before := must(c.ResumeRunFromToken(token))(t)
				got := answerOf(t)(c.Experiments.Began(testCtx(t), before, nil))
				require.Less(t, clk.Now().Sub(started), time.Minute, "asked before the run ended")
				assert.Equal(t, w[0], got, "before the run ended")

				clk.Advance(2 * time.Minute)
				after := must(c.ResumeRunFromToken(token))(t)
				assert.Equal(t, w[1], answerOf(t)(c.Experiments.Began(testCtx(t), after, nil)), "after the run ended")
				assert.Equal(t, applied+1, srv.Applied("runExperiment"), "runExperiment applied exactly once")
				if w[1] == began && listable(typ) && prev != "failed" {
					must(after.Wait(testCtx(t), nil))(t)
					id := must(after.ResultID())(t)
					latest := must(c.Experiments.LatestRun(testCtx(t), rc))(t)
					assert.Equal(t, latest.RcId, id, "the result of this start's run")
				}
			})
		}
	}
}

// Began answers not begun only where the evidence proves it: a start of a
// listed type that never reached the server, after a run that finished or
// none, once the declared longest run and the stale window have passed.
// Without MaxRunLength, or where a failure, a stop or a VARIATION end
// hides it, it is unknown, once its window has passed.
func TestBeganAfterALostRequest(t *testing.T) {
	const longest = 2 * time.Minute
	cases := map[string]struct {
		rc     ids.RcID
		fail   bool
		stop   bool
		maxRun time.Duration
		want   answer
	}{
		"finished before, listed type":                  {rc: 10303, maxRun: longest, want: notBegun},
		"finished before, listed type, no MaxRunLength": {rc: 10303, want: unknown},
		"never ran":                  {rc: 10303, maxRun: longest, want: notBegun},
		"never ran, no MaxRunLength": {rc: 10303, want: unknown},
		"finished before, VARIATION": {rc: 10305, maxRun: longest, want: unknown},
		"failed before":              {rc: 10303, fail: true, maxRun: longest, want: unknown},
		"stopped before":             {rc: 10303, stop: true, maxRun: longest, want: unknown},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var opts []fake.Option
			if tc.fail {
				opts = append(opts, fake.WithFailingRuns(tc.rc))
			}
			srv, c, clk := newVirtualFake(t, time.Minute, opts...)
			switch {
			case tc.stop:
				must(c.Experiments.Start(testCtx(t), tc.rc, nil))(t)
				must(c.Experiments.Stop(testCtx(t), tc.rc))(t)
			case !strings.HasPrefix(name, "never ran"):
				_, _ = c.RunAndWait(testCtx(t), tc.rc, nil)
			}
			applied := srv.Applied("runExperiment")
			srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler, Times: 1})
			run, err := c.Experiments.Start(testCtx(t), tc.rc, nil)
			require.ErrorIs(t, err, ErrMayHaveBeenApplied)
			from := clk.Now()
			assert.Equal(t, tc.want, answerOf(t)(c.Experiments.Began(testCtx(t), run, &WaitOptions{MaxRunLength: tc.maxRun})))
			assert.Equal(t, from.Add(tc.maxRun+DefaultStaleWindow), clk.Now(), "it waited out the longest run and the stale window, and no more")
			assert.Equal(t, applied, srv.Applied("runExperiment"))
		})
	}
}

// A status stream exactly as a real server was recorded answering:
// genericState and step IDLE throughout, finished false while the run
// works, and a first read after the start that still shows the last run's
// end (finished true). Wait ends at this run's end, not at the stale one,
// and Began sees the run under way.
func TestRecordedStatusStream(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute)
	must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	run := must(c.Experiments.Start(testCtx(t), 10303, nil))(t)
	start := clk.Now()
	first := must(run.Poll(testCtx(t)))(t)
	require.True(t, *first.Finished, "the first read shows the last run's end")
	require.Equal(t, gen.ExecutionStateGenericStateIDLE, first.GenericState)
	assert.False(t, run.Done(), "a stale end is not this run's")

	token := must(run.ResumeToken())(t)
	resumed := must(c.ResumeRunFromToken(token))(t)
	assert.Equal(t, began, answerOf(t)(c.Experiments.Began(testCtx(t), resumed, nil)), "finished false after the end: under way")

	final := must(run.Wait(testCtx(t), nil))(t)
	assert.True(t, *final.Finished)
	assert.GreaterOrEqual(t, clk.Now().Sub(start), time.Minute, "ended at this run's end")
	assert.Equal(t, EndSeenUnderWay, EvidenceOf(run).End)
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}

// genericState and step are extra evidence where they leave IDLE: a server
// that marks a run under way RUNNING lets Began see a run of a
// configuration that never ran.
func TestBeganTakesAMarkedRunAsUnderWay(t *testing.T) {
	srv, c, _ := newVirtualFake(t, time.Minute, fake.WithRunningMarked())
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
	run, err := c.Experiments.Start(testCtx(t), 10303, nil)
	require.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Equal(t, began, answerOf(t)(c.Experiments.Began(testCtx(t), run, nil)))
}

// The result of a start, once its wait decided it, stays with the Run and
// travels in its token: a later start's run, listed too by then, is not
// its own, and a Run resumed from the token does not decide again.
func TestDecidedResultTravelsInTheToken(t *testing.T) {
	srv, c, _ := newVirtualFake(t, time.Minute)
	first := must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	firstID := must(first.ResultID())(t)
	token := must(first.ResumeToken())(t)
	second := must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	secondID := must(second.ResultID())(t)
	require.NotEqual(t, firstID, secondID)
	assert.Equal(t, firstID, must(first.ResultID())(t), "kept, whatever is listed since")
	reads := srv.Calls("getExperimentRunsForScenario")
	resumed := must(c.ResumeRunFromToken(token))(t)
	assert.Equal(t, firstID, must(resumed.ResultID())(t), "the decided result, not the newest")
	assert.Equal(t, EvidenceOf(first).End, EvidenceOf(resumed).End)
	assert.Equal(t, reads, srv.Calls("getExperimentRunsForScenario"), "nothing read to decide again")
}

// Two runs of different types on one scenario, started together: each
// finds its own result, of its own type.
func TestConcurrentRunsOfTwoTypesFindTheirOwnResults(t *testing.T) {
	_, c, _ := newVirtualFake(t, time.Minute)
	rcs := []ids.RcID{10303, 10307} // SIMULATION and SAFETY_STOCK of scenario 103
	runs := make([]*Run, len(rcs))
	for i, rc := range rcs {
		runs[i] = must(c.Experiments.Start(testCtx(t), rc, nil))(t)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(runs))
	for i, run := range runs {
		wg.Go(func() { _, errs[i] = run.Wait(testCtx(t), nil) })
	}
	wg.Wait()
	seen := map[ids.ExperimentResultID]bool{}
	for i, run := range runs {
		require.NoError(t, errs[i])
		entry := EvidenceOf(run).Entry
		require.NotNil(t, entry)
		assert.Equal(t, run.origin().Type, entry.Type, "rcId %d finds a run of its own type", run.RcID())
		id := must(run.ResultID())(t)
		assert.False(t, seen[id], "result %d taken twice", id)
		seen[id] = true
	}
	assert.Equal(t, gen.ExperimentTypeSIMULATION, runs[0].origin().Type)
	assert.Equal(t, gen.ExperimentTypeSAFETYSTOCK, runs[1].origin().Type)
}

// The stale window holds an end that nothing confirms for as long as the
// server may still show the last run's: with a status lag of 8 s, the
// default window (10 s) waits for this run's own end, and a longer lag
// needs WaitOptions.StaleWindow, which is read.
func TestStaleWindowHoldsTheLastRunsEnd(t *testing.T) {
	for name, tc := range map[string]struct {
		lag  time.Duration
		opts *WaitOptions
	}{
		"default window":    {lag: 8 * time.Second, opts: &WaitOptions{Policy: everySecond}},
		"StaleWindow given": {lag: 15 * time.Second, opts: &WaitOptions{Policy: everySecond, StaleWindow: 20 * time.Second}},
	} {
		t.Run(name, func(t *testing.T) {
			// A VARIATION run, which is never listed, after one that
			// finished: only the stale window tells the last end from this.
			_, c, clk := newVirtualFake(t, time.Minute, fake.WithStatusLag(tc.lag))
			must(c.RunAndWait(testCtx(t), 10305, tc.opts))(t)
			run := must(c.Experiments.Start(testCtx(t), 10305, nil))(t)
			start := clk.Now()
			must(run.Wait(testCtx(t), tc.opts))(t)
			assert.GreaterOrEqual(t, clk.Now().Sub(start), time.Minute, "waited for this run's end, not the last run's")
			assert.Equal(t, EndSeenUnderWay, EvidenceOf(run).End)
		})
	}
}

// everySecond polls every second, so that a wait reads the status all
// through the stale window.
var everySecond = &PollPolicy{MinInterval: time.Second, MaxInterval: time.Second}

// StartPrepared sends a start once: a second call on the same Run is
// refused before anything is sent.
func TestStartPreparedSendsOnce(t *testing.T) {
	srv, c, _ := newVirtualFake(t, time.Minute)
	run := must(c.Experiments.Prepare(testCtx(t), 10303, nil))(t)
	require.NoError(t, c.Experiments.StartPrepared(testCtx(t), run, nil))
	err := c.Experiments.StartPrepared(testCtx(t), run, nil)
	assert.ErrorIs(t, err, ErrValidation)
	assert.ErrorContains(t, err, "ExperimentsService.Began")
	assert.Equal(t, 1, srv.Calls("runExperiment"))
	assert.ErrorIs(t, c.Experiments.StartPrepared(testCtx(t), c.Run(10303), nil), ErrValidation, "a Run that Prepare did not return")
}

// RunAndWait settles a start whose answer was lost and waits for it: one
// run, and the result of this run.
func TestRunAndWaitSettlesALostAnswer(t *testing.T) {
	srv, c, _ := newVirtualFake(t, time.Minute)
	must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
	run, err := c.RunAndWait(testCtx(t), 10303, nil)
	require.NoError(t, err)
	assert.Equal(t, RunFinished, RunStateValue(run.State()))
	latest := must(c.Experiments.LatestRun(testCtx(t), 10303))(t)
	assert.Equal(t, latest.RcId, must(run.ResultID())(t))
	assert.Equal(t, 2, srv.Applied("runExperiment"))
	assert.Equal(t, 2, srv.Calls("runExperiment"), "never sent again")

	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler, Times: 1})
	run, err = c.RunAndWait(testCtx(t), 10303, nil)
	require.ErrorIs(t, err, ErrStartUnknown, "without MaxRunLength nothing rules the start out")
	require.NotNil(t, run)
	assert.Equal(t, 3, srv.Calls("runExperiment"), "not sent again on its own")

	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler, Times: 1})
	run, err = c.RunAndWait(testCtx(t), 10303, &WaitOptions{MaxRunLength: 2 * time.Minute})
	require.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.ErrorContains(t, err, "did not take effect")
	require.NotNil(t, run)
	assert.Equal(t, 4, srv.Calls("runExperiment"), "not sent again on its own")
}

// An answer without experimentResultId is no result: RunSync stops with a
// *MalformedError naming the field.
func TestRunSyncNeedsItsResultID(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"validationStatus":"OK","validationErrors":null,"validationWarnings":null}`)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	_, err := c.Experiments.RunSync(testCtx(t), 10303)
	var mf *MalformedError
	require.ErrorAs(t, err, &mf)
	assert.Equal(t, "experimentResultId", mf.Field)
	assert.EqualValues(t, 1, calls.Load())
}

// FindByName only reads: one getProjects, nothing opened; an empty name is
// refused before anything is sent.
func TestFindProjectByNameOnlyReads(t *testing.T) {
	srv, c, _ := newVirtualFake(t, time.Minute)
	found := must(c.Projects.FindByName(testCtx(t), "Spare Parts", nil))(t)
	require.Len(t, found, 1)
	assert.EqualValues(t, 3, found[0].Id)
	assert.Empty(t, must(c.Projects.FindByName(testCtx(t), "Spare", nil))(t), "the whole name by default")
	assert.Equal(t, 2, srv.Calls("getProjects"))
	assert.Zero(t, srv.Calls("findAndOpenProjectByName")+srv.Calls("openProject"))
	_, err := c.Projects.FindByName(testCtx(t), "", nil)
	assert.ErrorIs(t, err, ErrValidation)
	assert.Equal(t, 2, srv.Calls("getProjects"))
}
