package batch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// The answer to runExperiment is lost after the server started the run: the
// batch finds the run among the scenario's runs and sends nothing again.
func TestLostRunAnswerIsAdopted(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
	sum := e.run(t, p, batch.Options{Parallel: 1})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.NotZero(t, sum.Items[0].State.RunID)
	assert.Equal(t, 3, e.srv.Applied("runExperiment"))
	assert.Equal(t, 3, e.srv.Calls("runExperiment"), "nothing sent again")
}

// The connection drops before the server saw runExperiment, for a
// configuration whose last run finished, and the plan declares how long a
// run takes: past that and the stale window the status still shows that
// end and the scenario lists no new run, so the start did not take effect,
// and the batch starts it again, once.
func TestLostRunRequestIsSentAgain(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, "project: 1\noutput: out\nmaxRunLength: 1m\nitems:\n  - {name: baseline, scenario: 101, experiment: GFA}\n")
	_, err := e.c.RunAndWait(deadline(t), 10101, nil) // an earlier run, which finished
	require.NoError(t, err)
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler})
	sum := e.run(t, p, batch.Options{Parallel: 1})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.Equal(t, 2, e.srv.Applied("runExperiment"))
	assert.Equal(t, 3, e.srv.Calls("runExperiment"), "the lost start was sent again")
}

// The connection drops before the server saw runExperiment, for a
// configuration that never ran: a run under way shows as one never started
// (finished false, IDLE), so whether the start took effect cannot be told.
// The item is unknown and nothing is sent again, by this batch or a resumed
// one, until a batch with RetryFailed.
func TestLostRunRequestOfANewConfigurationIsUnknown(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, "project: 1\noutput: out\nitems:\n  - {name: baseline, scenario: 101, experiment: GFA}\n")
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropBeforeHandler})
	sum := e.run(t, p, batch.Options{Parallel: 1})
	require.Equal(t, batch.Unknown, sum.Items[0].Status, sum.Items[0].Error)
	assert.Contains(t, sum.Items[0].Error, "whether the start took effect cannot be told")
	assert.Contains(t, sum.Items[0].Error, "check on the server")
	assert.Equal(t, 1, e.srv.Calls("runExperiment"))

	sum = e.run(t, p, batch.Options{Parallel: 1})
	assert.Equal(t, batch.Unknown, sum.Items[0].Status, "a resume looks again")
	assert.Equal(t, 1, e.srv.Calls("runExperiment"), "and sends nothing")

	sum = e.run(t, p, batch.Options{Parallel: 1, RetryFailed: true})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.Equal(t, 2, e.srv.Calls("runExperiment"), "the user's retry sends it again, once")
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))
}

// dieOnAnswer is a transport that, once, lets a request of the path reach
// the server and then kills the batch (cancels its context) before the
// answer is read: the process died with the call's effect applied and
// unrecorded.
type dieOnAnswer struct {
	next http.RoundTripper
	path string
	kill context.CancelFunc
	done bool
}

func (d *dieOnAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := d.next.RoundTrip(req)
	if d.done || err != nil || !strings.HasSuffix(req.URL.Path, d.path) {
		return resp, err
	}
	d.done = true
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	d.kill()
	return nil, errors.New("connection reset: the batch died")
}

// killedOnAnswer runs the batch of p until the answer to the request of
// path arrives, and kills it then.
func (e *env) killedOnAnswer(t *testing.T, p *batch.Plan, path string) *batch.Summary {
	t.Helper()
	ctx, cancel := context.WithCancel(deadline(t))
	defer cancel()
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper {
		return &dieOnAnswer{next: next, path: path, kill: cancel}
	})
	sum, err := e.runner(t, c, p, batch.Options{Parallel: 1}).Run(ctx)
	require.NoError(t, err)
	return sum
}

// Killed as the server's answer to runExperiment arrives, the state file
// says the start was sent but not its answer; the batch resumed once that
// run has ended adopts it. (Resumed while the run is under way, the status
// cannot tell it from a start that never took effect, and the item is
// unknown unless MaxRunLength is declared, as in
// TestLostRunRequestOfANewConfigurationIsUnknown.)
func TestKilledAsTheRunAnswerArrives(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	sum := e.killedOnAnswer(t, p, "/open/experiments/run")
	st := sum.Items[0].State
	assert.Equal(t, batch.Interrupted, st.Status)
	assert.True(t, st.RunSent)
	assert.False(t, st.RunStarted)
	assert.Zero(t, st.RunID)
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))

	// The batch is resumed an hour later: the run has ended. Without this,
	// whether it had ended depended on how far the other items' waits had
	// moved the shared instant clock when item 0 was looked at.
	e.clock.Advance(time.Hour)
	sum = e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.EqualValues(t, 5001, sum.Items[0].State.RunID, "the run started before the kill")
	assert.Equal(t, 3, e.srv.Applied("runExperiment"))
}

// Killed as the answer to importExcel arrives, the job id is unknown. The
// scenario exists only once the job is done: the resumed batch finds none
// yet, sends nothing and says the outcome is unknown; once the job is done
// the next batch adopts its scenario.
func TestKilledAsTheImportAnswerArrives(t *testing.T) {
	e := newEnv(t, fake.WithImportDuration(time.Minute))
	p := e.plan(t, threeItems)
	st := e.killedOnAnswer(t, p, "/open/import/import-excel").Items[0].State
	assert.True(t, st.ImportSent)
	assert.Zero(t, st.JobID)
	assert.Equal(t, 1, e.srv.Applied("importExcel"))

	sum := e.run(t, p, batch.Options{Parallel: 1})
	assert.Equal(t, batch.Unknown, sum.Items[0].Status)
	assert.Contains(t, sum.Items[0].Error, `no new scenario "High demand" yet`)
	assert.Equal(t, batch.Done, sum.Items[1].Status, "the other items go on")
	assert.Equal(t, 1, e.srv.Applied("importExcel"))

	e.clock.Advance(time.Hour)
	sum = e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.EqualValues(t, 1001, sum.Items[0].ScenarioID)
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
}

// A scenario that had the name before the import is not taken for the
// import's; RetryFailed imports again when no new one appears.
func TestUnknownImportRetried(t *testing.T) {
	e := newEnv(t, fake.WithImportDuration(time.Minute))
	p := e.plan(t, `project: 1
items:
  - name: copy
    workbook: book.xlsx
    scenarioName: Baseline
    experiment: SIMULATION
`)
	e.srv.InjectFault("importExcel", fake.Fault{Kind: fake.FaultDropBeforeHandler})
	sum := e.run(t, p, batch.Options{})
	assert.Equal(t, batch.Unknown, sum.Items[0].Status)
	assert.Equal(t, []ids.ScenarioID{101}, sum.Items[0].State.KnownScenarios, "the seeded Baseline")
	assert.Zero(t, e.srv.Applied("importExcel"))

	sum = e.run(t, p, batch.Options{RetryFailed: true})
	assert.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.EqualValues(t, 1001, sum.Items[0].ScenarioID)
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
}
