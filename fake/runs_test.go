package fake_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func status(t *testing.T, e *env, rcID ids.RcID) gen.ExecutionState {
	t.Helper()
	r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

// statusBody is getExperimentStatus's answer as it is on the wire.
func statusBody(t *testing.T, e *env, rcID ids.RcID) string {
	t.Helper()
	r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcID})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	return string(r.Body)
}

// The ExecutionState answers of world.md, by the state of the run.
const (
	neverRan = `{"failed": false, "finished": false, "terminal": false, "genericState": "IDLE", "step": "IDLE", "routesLoading": false, "stopTrigger": false, "text": null}`
	underWay = `{"failed": false, "finished": false, "terminal": false, "genericState": "IDLE", "step": "IDLE", "routesLoading": false, "stopTrigger": false, "text": null}`
	marked   = `{"failed": false, "finished": false, "terminal": false, "genericState": "RUNNING", "step": "RUNNING", "routesLoading": false, "stopTrigger": false, "text": null}`
	finished = `{"failed": false, "finished": true, "terminal": false, "genericState": "IDLE", "step": "IDLE", "routesLoading": false, "stopTrigger": false, "text": null}`
	stopped  = `{"failed": false, "finished": false, "terminal": true, "genericState": "IDLE", "step": "IDLE", "routesLoading": false, "stopTrigger": true, "text": null}`
	failed   = `{"failed": true, "finished": false, "terminal": true, "genericState": "IDLE", "step": "IDLE", "routesLoading": false, "stopTrigger": false, "text": "The scenario has validation errors"}`
)

func TestRunAdvancesOnTheClockToFinished(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second))
	assert.JSONEq(t, neverRan, statusBody(t, e, rcSimulation))
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcSimulation})
	require.NoError(t, err)
	assert.JSONEq(t, `{"animationModelId": 10303, "experimentTypeId": "SIMULATION", "is3dAnimation": false}`, string(r.Body))
	assert.JSONEq(t, underWay, statusBody(t, e, rcSimulation), "under way from the instant it starts")
	e.clock.Advance(9999 * time.Millisecond)
	assert.JSONEq(t, underWay, statusBody(t, e, rcSimulation))
	e.clock.Advance(time.Millisecond)
	assert.JSONEq(t, finished, statusBody(t, e, rcSimulation), "finished as a real server answered: terminal false")
	e.clock.Advance(time.Hour)
	assert.JSONEq(t, finished, statusBody(t, e, rcSimulation))
}

// A run under way answers RUNNING in genericState and step only with
// WithRunningMarked; by default IDLE, as recorded.
func TestRunningMarked(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second), fake.WithRunningMarked(), fake.WithStatusLag(0))
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcSimulation})
	require.NoError(t, err)
	assert.JSONEq(t, marked, statusBody(t, e, rcSimulation))
	e.clock.Advance(10 * time.Second)
	assert.JSONEq(t, finished, statusBody(t, e, rcSimulation))
}

// WithFailingRuns makes the runs of a configuration fail, in any scenario.
func TestFailingRuns(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second), fake.WithFailingRuns(rcGFA), fake.WithStatusLag(0))
	for _, rc := range []ids.RcID{rcGFA, rcSimulation} {
		_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rc})
		require.NoError(t, err)
	}
	e.clock.Advance(10 * time.Second)
	assert.JSONEq(t, failed, statusBody(t, e, rcGFA))
	assert.JSONEq(t, finished, statusBody(t, e, rcSimulation), "another configuration")
}

func TestRunStopped(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	e.clock.Advance(fake.DefaultRunDuration / 2)
	r, err := e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.JSONEq(t, stopped, string(r.Body))
	e.clock.Advance(time.Hour)
	assert.JSONEq(t, stopped, statusBody(t, e, rcGFA))
	res, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA, Take: 1000})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, res.StatusCode(), "a stopped run has no result")
}

func TestSecondStartWhileRunningFails(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	again, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, again.StatusCode())
	assert.Equal(t, "rcId 10101: run 5001 is already running", *again.JSON5XX.Message)
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))
	e.clock.Advance(fake.DefaultRunDuration)
	third, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, third.StatusCode(), "a finished run can be started again")
}

func TestAsyncRunInBrokenScenarioFails(t *testing.T) {
	e := setup(t, fake.WithLicense())
	e.run(t, 10403)
	assert.JSONEq(t, failed, statusBody(t, e, 10403))
}

// syncRun runs an experiment synchronously, advancing the clock once the
// call waits on it.
func syncRun(t *testing.T, e *env, rcID ids.RcID) *gen.RunExperimentSynchronouslyResponse {
	t.Helper()
	done := make(chan *gen.RunExperimentSynchronouslyResponse, 1)
	go func() {
		r, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: rcID})
		assert.NoError(t, err)
		done <- r
	}()
	e.clock.BlockUntilWaiters(1)
	e.clock.Advance(fake.DefaultRunDuration)
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("runExperimentSynchronously did not answer once the run had ended on the clock")
		return nil
	}
}

func TestRunSynchronouslyWaitsForTheClock(t *testing.T) {
	e := setup(t, fake.WithLicense())
	r := syncRun(t, e, rcNO)
	require.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	assert.JSONEq(t, `{"experimentResultId": 5002, "validationStatus": "OK", "validationErrors": null, "validationWarnings": null}`, string(r.Body))
	runID, resultID := e.lastRun(t, rcNO)
	assert.Equal(t, resultID, r.JSON200.ExperimentResultId)
	assert.Equal(t, ids.ExperimentResultID(runID+1), resultID, "the result's id is the run's plus one")
	assert.JSONEq(t, finished, statusBody(t, e, rcNO))
}

// TestRunSynchronouslyHasErrors: a scenario with validation errors runs
// nothing and answers HAS_ERRORS at once with the rcId as
// experimentResultId, as the real server did.
func TestRunSynchronouslyHasErrors(t *testing.T) {
	e := setup(t, fake.WithLicense())
	r, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: 10403})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	assert.EqualValues(t, 10403, r.JSON200.ExperimentResultId, "the rcId, as the real server answered")
	assert.Equal(t, gen.ApiExperimentResultValidationStatusHASERRORS, r.JSON200.ValidationStatus)
	assert.Nil(t, r.JSON200.ValidationWarnings, "null, as in every answer recorded")
	errs := *r.JSON200.ValidationErrors
	assert.Len(t, errs, 297, "the scenario's errors, then hundreds of repeats as a real server answered")
	assert.Equal(t, gen.ApiValidationError{Message: "Demand must not be negative", Source: []string{"Demand", "4"}}, errs[0])
	counts := map[string]int{}
	for _, e := range errs {
		counts[e.Message]++
	}
	assert.Equal(t, 90, counts["Product is not defined"])
	runs, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 104})
	require.NoError(t, err)
	assert.Empty(t, *runs.JSON200, "nothing ran")
	assert.JSONEq(t, neverRan, statusBody(t, e, 10403))
}

func TestRunSynchronouslyStoppedFails(t *testing.T) {
	e := setup(t, fake.WithLicense())
	done := make(chan *gen.RunExperimentSynchronouslyResponse, 1)
	go func() {
		r, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: rcGFA})
		assert.NoError(t, err)
		done <- r
	}()
	e.clock.BlockUntilWaiters(1)
	_, err := e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	r := <-done
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Equal(t, "rcId 10101: run 5001 was stopped", *r.JSON5XX.Message)
}

func TestRunNeedsALicense(t *testing.T) {
	e := setup(t)
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Equal(t, "Access is denied", *r.JSON5XX.Message)
	s, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: 10403})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, s.StatusCode(), "the license is checked before the scenario")
	assert.Equal(t, "Access is denied", *s.JSON5XX.Message)
	assert.Zero(t, e.srv.Applied("runExperiment"))
	_, err = e.c.RequestLicenseWithResponse(e.ctx)
	require.NoError(t, err)
	r, err = e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.StatusCode())
	drop, err := e.c.DropLicenseWithResponse(e.ctx)
	require.NoError(t, err)
	assert.True(t, drop.JSON200.Dropped)
}

// TestRunsForScenario lists every run that has finished as ApiBasicRun,
// as the real server does: its rcId is its experimentResultId, its id one
// less, named Statistics, Statistics 2, ... per scenario; a VARIATION run
// and a run under way are not listed.
func TestRunsForScenario(t *testing.T) {
	e := setup(t, fake.WithLicense())
	e.run(t, rcGFA)
	e.run(t, rcVariation)
	e.run(t, rcGFA)
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcComparison})
	require.NoError(t, err)
	r, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 101})
	require.NoError(t, err)
	const block = 3 + fake.DefaultPages*(1+fake.DefaultChartsPerPage)
	first, second := ids.RunID(5001), ids.RunID(5001+2*block) // the variation's run took the block between
	assert.JSONEq(t, fmt.Sprintf(`[
		{"hasOptions": false, "id": %d, "name": "Statistics", "rcId": %d, "removing": false, "scenarioId": 101, "type": "GFA"},
		{"hasOptions": false, "id": %d, "name": "Statistics 2", "rcId": %d, "removing": false, "scenarioId": 101, "type": "GFA"}
	]`, first, first+1, second, second+1), string(r.Body), "neither the VARIATION run nor the run under way is listed")
	pages, err := e.c.GetExperimentDashboardPagesWithResponse(e.ctx, &gen.GetExperimentDashboardPagesParams{ExperimentResultId: ids.ExperimentResultID(second + 1)})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, pages.StatusCode())
}
