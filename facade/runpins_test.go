package facade

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// Began's window runs from the later of the token's start and now: a
// token kept an hour before its start was sent (as a batch keeps it
// between Prepare and StartPrepared) still waits out the status's lag
// after the send, and does not answer not begun on the first read of a
// status that has not caught up.
func TestBeganWindowRunsFromTheLaterOfTokenAndNow(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute, fake.WithStatusLag(30*time.Second))
	opts := &WaitOptions{StaleWindow: 31 * time.Second, MaxRunLength: 2 * time.Minute}
	must(c.RunAndWait(testCtx(t), 10303, opts))(t)
	run := must(c.Experiments.Prepare(testCtx(t), 10303, nil))(t)
	token := must(run.ResumeToken())(t) // kept before the send
	clk.Advance(time.Hour)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
	require.ErrorIs(t, c.Experiments.StartPrepared(testCtx(t), run, nil), ErrMayHaveBeenApplied)
	from := clk.Now()
	resumed := must(c.ResumeRunFromToken(token))(t) // another process, with the token of an hour ago
	assert.Equal(t, began, answerOf(t)(c.Experiments.Began(testCtx(t), resumed, opts)))
	assert.GreaterOrEqual(t, clk.Now().Sub(from), 30*time.Second, "it waited for the status to catch up with the send")
}

// The first release's evidence (runOrigin, which kept whether an end
// showed before the start, not which) is settled, not only read, and its
// weakness holds both ways: an end after a start of unknown effect is not
// taken as a new one, and the start is never ruled out; evidence that no
// end showed before still settles both ways.
func TestLegacyEvidenceIsSettled(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute)
	must(c.RunAndWait(testCtx(t), 10303, nil))(t) // a success shows
	listed := must(c.Experiments.Runs(testCtx(t), 103))(t)
	legacy := func(endedBefore bool) string {
		var ids []string
		for _, r := range listed {
			ids = append(ids, fmt.Sprint(r.Id))
		}
		return fmt.Sprintf(`{"rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[%s],"endedBefore":%t,"started":%q}`,
			strings.Join(ids, ","), endedBefore, clk.Now().UTC().Format(time.RFC3339Nano))
	}
	ended := must(c.ResumeRunFromToken(legacy(true)))(t)
	assert.Equal(t, unknown, answerOf(t)(c.Experiments.Began(testCtx(t), ended, nil)), "the success it shows may be the one before the start")
	assert.Equal(t, unknown, answerOf(t)(c.Experiments.Began(testCtx(t), ended, &WaitOptions{MaxRunLength: 2 * time.Minute})), "never ruled out: which end showed before is not known")
	assert.Zero(t, srv.Applied("runExperiment")-1, "nothing sent")

	fresh := must(c.ResumeRunFromToken(legacy(false)))(t)
	assert.Equal(t, began, answerOf(t)(c.Experiments.Began(testCtx(t), fresh, nil)), "an end where none showed before is new")
}

// An end of the same outcome with another text than the one before the
// start is a new end (EndChanged), for Began and for the wait.
func TestAnotherTextOfTheSameEndIsNew(t *testing.T) {
	var started atomic.Bool
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		text := "Product is not defined"
		if started.Load() {
			text = "Site is not defined"
		}
		switch path := r.URL.Path; {
		case strings.HasSuffix(path, "/experiments/results"):
			fmt.Fprint(w, `[]`)
		case strings.HasSuffix(path, "/experiments/status"):
			fmt.Fprintf(w, `{"failed":true,"finished":false,"terminal":true,"genericState":"IDLE","step":"IDLE","text":%q}`, text)
		case strings.HasSuffix(path, "/experiments/run"):
			started.Store(true)
			fmt.Fprint(w, `{"animationModelId":10303,"experimentTypeId":"SIMULATION","is3dAnimation":false}`)
		default:
			http.NotFound(w, r)
		}
	}, WithClock(faketest.NewInstantClock()))
	opts := &StartOptions{ScenarioID: 103, Type: "SIMULATION"}
	run := must(c.Experiments.Prepare(testCtx(t), 10303, opts))(t)
	started.Store(true) // as if a lost start took effect
	assert.Equal(t, began, answerOf(t)(c.Experiments.Began(testCtx(t), run, nil)))
	started.Store(false)
	run = must(c.Experiments.Start(testCtx(t), 10303, opts))(t)
	_, err := run.Wait(testCtx(t), nil)
	require.ErrorIs(t, err, ErrFailed)
	assert.Equal(t, EndChanged, EvidenceOf(run).End)
}

// StartPrepared moves the start's time to the send: the token, and the
// errors that say what to check, name when it was sent, not when it was
// prepared an hour before.
func TestStartPreparedMovesTheStartToTheSend(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute)
	must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	run := must(c.Experiments.Prepare(testCtx(t), 10303, nil))(t)
	clk.Advance(time.Hour)
	sent := clk.Now()
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler, Times: 1})
	require.ErrorIs(t, c.Experiments.StartPrepared(testCtx(t), run, nil), ErrMayHaveBeenApplied)
	subject := must(TokenSubject(must(run.ResumeToken())(t)))(t)
	assert.True(t, sent.Equal(subject.Started), "the token's start is the send: %v, not %v", subject.Started, sent)
	_, err := c.Experiments.Began(testCtx(t), run, nil)
	require.ErrorIs(t, err, ErrStartUnknown)
	assert.Contains(t, err.Error(), sent.UTC().Format(time.RFC3339), "what to check names the send")
}

// A send that the context cuts after it reached the server is a start that
// may have been applied: never recorded as not sent, so never sent again,
// and a second StartPrepared is refused.
func TestASendCutByCancellationMayHaveBeenApplied(t *testing.T) {
	var applied atomic.Int32
	reached := make(chan struct{})
	var once sync.Once
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch path := r.URL.Path; {
		case strings.HasSuffix(path, "/experiments/results"):
			fmt.Fprint(w, `[]`)
		case strings.HasSuffix(path, "/experiments/status"):
			fmt.Fprint(w, `{"failed":false,"finished":true,"terminal":false,"genericState":"IDLE","step":"IDLE"}`)
		case strings.HasSuffix(path, "/experiments/run"):
			applied.Add(1)
			once.Do(func() { close(reached) })
			<-r.Context().Done() // the run is started; the answer never comes
		}
	})
	opts := &StartOptions{ScenarioID: 103, Type: "SIMULATION"}
	run := must(c.Experiments.Prepare(testCtx(t), 10303, opts))(t)
	ctx, cancel := context.WithCancel(testCtx(t))
	go func() {
		<-reached
		cancel()
	}()
	err := c.Experiments.StartPrepared(ctx, run, opts)
	require.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied, "the server had the request")
	err = c.Experiments.StartPrepared(testCtx(t), run, opts)
	assert.ErrorIs(t, err, ErrValidation, "never sent twice")
	assert.EqualValues(t, 1, applied.Load())
}

// Two waits on one Run with different stale windows each keep their own:
// a short wait that gives up does not shorten the settling of a long one.
func TestEachWaitKeepsItsStaleWindow(t *testing.T) {
	_, c, clk := newVirtualFake(t, time.Minute, fake.WithStatusLag(0))
	must(c.RunAndWait(testCtx(t), 10303, nil))(t)
	run := must(c.Experiments.Start(testCtx(t), 10303, nil))(t)
	end := clk.Now().Add(time.Minute)
	short := &WaitOptions{StaleWindow: 5 * time.Second, MaxWait: time.Second}
	asked := false
	for s, err := range run.States(testCtx(t), &WaitOptions{StaleWindow: 2 * time.Minute}) {
		require.NoError(t, err)
		if !asked && RunStateValue(s) != RunFinished {
			asked = true
			_, err := run.Wait(testCtx(t), short)
			require.ErrorIs(t, err, ErrTimeout)
		}
	}
	require.True(t, asked, "the run was seen under way")
	assert.GreaterOrEqual(t, clk.Now().Sub(end), 2*time.Minute, "settled by the long wait's own window")
}

// The success of a run the server lists is a start's only with its entry:
// where the status lags longer than the stale window, the last run's
// success settles before this run shows, and is not taken for it.
func TestAListedSuccessNeedsItsEntry(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute, fake.WithStatusLag(30*time.Second))
	must(c.RunAndWait(testCtx(t), 10303, &WaitOptions{StaleWindow: 31 * time.Second}))(t)
	run := must(c.Experiments.Start(testCtx(t), 10303, nil))(t)
	end := clk.Now().Add(time.Minute)
	must(run.Wait(testCtx(t), nil))(t) // the default window, shorter than the lag
	assert.False(t, clk.Now().Before(end), "waited for this run's end")
	_, ours, _ := srv.LastRun(10303)
	assert.Equal(t, ours, must(run.ResultID())(t))
}
