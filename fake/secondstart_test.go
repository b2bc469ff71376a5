package fake_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// start sends runExperiment and returns its status code.
func start(t *testing.T, e *env, rcID ids.RcID) int {
	t.Helper()
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcID})
	require.NoError(t, err)
	return r.StatusCode()
}

// listedRuns is the ids of the runs getExperimentRunsForScenario lists.
func listedRuns(t *testing.T, e *env, scenarioID ids.ScenarioID) []ids.RunID {
	t.Helper()
	r, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: scenarioID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	var out []ids.RunID
	for _, run := range *r.JSON200 {
		out = append(out, run.Id)
	}
	return out
}

// What a second start of a configuration with a run under way does, by
// WithSecondStart: the status read at each time of the table (runs of
// 10 s, a status lag of 2 s, the second start 4 s after the first), and
// the runs listed at the end.
func TestSecondStart(t *testing.T) {
	before := map[time.Duration]string{1 * time.Second: neverRan, 3 * time.Second: underWay} // the first run, before the second start
	cases := map[fake.SecondStart]struct {
		accepted bool
		after    map[time.Duration]string
		listed   int
	}{
		fake.SecondStartRefused: {accepted: false, listed: 1, after: map[time.Duration]string{
			11 * time.Second: finished, 20 * time.Second: finished}},
		fake.SecondStartQueued: {accepted: true, listed: 2, after: map[time.Duration]string{
			11 * time.Second: finished, // the first's end, within the lag of the second's beginning at 10 s
			13 * time.Second: underWay, // the second
			20 * time.Second: finished}},
		fake.SecondStartBeside: {accepted: true, listed: 2, after: map[time.Duration]string{
			11 * time.Second: underWay, // the first ended, the second (begun at 4 s) goes on
			14 * time.Second: finished}},
	}
	for mode, tc := range cases {
		t.Run(mode.String(), func(t *testing.T) {
			e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second), fake.WithStatusLag(2*time.Second), fake.WithSecondStart(mode))
			var at time.Duration
			readAt := func(reads map[time.Duration]string) {
				for _, d := range []time.Duration{1 * time.Second, 3 * time.Second, 11 * time.Second, 13 * time.Second, 14 * time.Second, 20 * time.Second} {
					if want, ok := reads[d]; ok {
						e.clock.Advance(d - at)
						at = d
						assert.JSONEq(t, want, statusBody(t, e, rcSimulation), "at %v", d)
					}
				}
			}
			require.Equal(t, http.StatusOK, start(t, e, rcSimulation))
			readAt(before)
			e.clock.Advance(4*time.Second - at)
			at = 4 * time.Second
			code := start(t, e, rcSimulation)
			assert.Equal(t, tc.accepted, code == http.StatusOK, "status %d", code)
			readAt(tc.after)
			e.clock.Advance(time.Minute)
			assert.Len(t, listedRuns(t, e, 103), tc.listed)
			assert.Equal(t, map[bool]int{true: 2, false: 1}[tc.accepted], e.srv.Applied("runExperiment"))
		})
	}
}

// A stop stops the run under way: queued, the next run then begins at
// once; beside, every run under way stops.
func TestSecondStartStop(t *testing.T) {
	for mode, wantListed := range map[fake.SecondStart]int{fake.SecondStartQueued: 1, fake.SecondStartBeside: 0} {
		t.Run(mode.String(), func(t *testing.T) {
			e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second), fake.WithSecondStart(mode))
			require.Equal(t, http.StatusOK, start(t, e, rcSimulation))
			e.clock.Advance(time.Second)
			require.Equal(t, http.StatusOK, start(t, e, rcSimulation))
			e.clock.Advance(time.Second)
			_, err := e.c.StopExperimentWithResponse(e.ctx, &gen.StopExperimentParams{RcId: rcSimulation})
			require.NoError(t, err)
			if mode == fake.SecondStartQueued {
				assert.JSONEq(t, underWay, statusBody(t, e, rcSimulation), "the queued run begins at the stop")
			} else {
				assert.JSONEq(t, stopped, statusBody(t, e, rcSimulation))
			}
			e.clock.Advance(time.Minute)
			assert.Len(t, listedRuns(t, e, 103), wantListed)
		})
	}
}

// WithExtraConfigurations adds a configuration of a type to a scenario:
// getExperiments lists both, named apart; both run, and the runs list
// does not tell whose a run is.
func TestExtraConfigurations(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithRunDuration(10*time.Second),
		fake.WithExtraConfigurations(fake.ExtraConfiguration{ScenarioID: 103, Type: gen.ExperimentTypeSIMULATION},
			fake.ExtraConfiguration{ScenarioID: 999, Type: gen.ExperimentTypeSIMULATION}))
	r, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: 103})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	var sims []gen.ApiBasicRunConfiguration
	for _, rc := range *r.JSON200 {
		if rc.Type == gen.ExperimentTypeSIMULATION {
			sims = append(sims, rc)
		}
	}
	require.Len(t, sims, 2)
	assert.EqualValues(t, 10303, sims[0].Id)
	assert.EqualValues(t, 10311, sims[1].Id)
	assert.NotEqual(t, sims[0].Name, sims[1].Name)
	require.Equal(t, http.StatusOK, start(t, e, 10311))
	require.Equal(t, http.StatusOK, start(t, e, rcSimulation), "another configuration of the type runs beside it")
	e.clock.Advance(time.Minute)
	assert.Len(t, listedRuns(t, e, 103), 2)
	assert.JSONEq(t, finished, statusBody(t, e, 10311))
}
