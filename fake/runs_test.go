package fake_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func status(t *testing.T, e *env, rcID int64) gen.ExecutionState {
	t.Helper()
	r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

func TestRunAdvancesOnTheClockToFinished(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second))
	assert.Equal(t, gen.ExecutionStateValueNOTSTARTED, status(t, e, rcGFA).State)
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, gen.ExecutionStateValueQUEUED, r.JSON200.State)
	for _, step := range []struct {
		advance  time.Duration
		state    gen.ExecutionStateValue
		progress float64
	}{{2500 * time.Millisecond, gen.ExecutionStateValueRUNNING, 25}, {5 * time.Second, gen.ExecutionStateValueRUNNING, 75}, {2500 * time.Millisecond, gen.ExecutionStateValueFINISHED, 100}} {
		e.clock.Advance(step.advance)
		st := status(t, e, rcGFA)
		assert.Equal(t, step.state, st.State)
		assert.Equal(t, step.progress, *st.Progress)
	}
	assert.Equal(t, epoch.Add(10*time.Second), *status(t, e, rcGFA).FinishedAt)
}

func TestRunStopped(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	e.clock.Advance(fake.DefaultRunDuration / 2)
	r, err := e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, gen.ExecutionStateValueSTOPPED, r.JSON200.State)
	e.clock.Advance(time.Hour)
	st := status(t, e, rcGFA)
	assert.Equal(t, gen.ExecutionStateValueSTOPPED, st.State)
	assert.Equal(t, 50.0, *st.Progress)
	res, err := e.c.GetExperimentRunResultWithResponse(e.ctx, &gen.GetExperimentRunResultParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, res.StatusCode(), "a stopped run has no result")
}

func TestSecondStartWhileRunningIsAConflict(t *testing.T) {
	e := setup(t, fake.WithLicense())
	_, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	again, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusConflict, again.StatusCode())
	assert.Contains(t, *again.JSON4XX.Message, "runExperiment: rcId 10101: run 5001 is already running")
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))
	e.clock.Advance(fake.DefaultRunDuration)
	third, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, third.StatusCode(), "a finished run can be started again")
}

func TestRunInBrokenScenarioFails(t *testing.T) {
	e := setup(t, fake.WithLicense())
	st := e.run(t, 10401)
	assert.Equal(t, gen.ExecutionStateValueFAILED, st.State)
	assert.NotEmpty(t, *st.Message)
}

func TestRunSynchronouslyWaitsForTheClock(t *testing.T) {
	e := setup(t, fake.WithLicense())
	done := make(chan gen.ApiRunExperiment)
	go func() {
		r, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: rcNO})
		assert.NoError(t, err)
		done <- *r.JSON200
	}()
	e.clock.BlockUntilWaiters(1)
	e.clock.Advance(fake.DefaultRunDuration)
	out := <-done
	require.NotNil(t, out.ExecutionState)
	assert.Equal(t, gen.ExecutionStateValueFINISHED, out.ExecutionState.State)
	assert.Equal(t, e.resultOf(t, rcNO), out.ExperimentResultId, "the answer names the result of the run")
	assert.Nil(t, out.ValidationStatus)
}

func TestRunNeedsALicense(t *testing.T) {
	e := setup(t)
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, r.StatusCode())
	_, err = e.c.RequestLicenseWithResponse(e.ctx)
	require.NoError(t, err)
	r, err = e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.StatusCode())
	drop, err := e.c.DropLicenseWithResponse(e.ctx)
	require.NoError(t, err)
	assert.True(t, drop.JSON200.Dropped)
}
