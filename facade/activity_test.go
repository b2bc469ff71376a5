package facade

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// The one rule for "a run is under way", from one status read: an end is
// idle; no end is under way when something marks a run or an end showed
// before, and unknown otherwise.
func TestRunActivity(t *testing.T) {
	state := func(json string) *gen.ExecutionState {
		var s gen.ExecutionState
		require.NoError(t, s.UnmarshalJSON([]byte(json)))
		return &s
	}
	idle := `{"failed":false,"finished":false,"terminal":false,"genericState":"IDLE","step":"IDLE"}`
	withState := state(`{"genericState":"IDLE","state":"QUEUED"}`) // a state string, as some servers send
	cases := []struct {
		name      string
		s         *gen.ExecutionState
		endBefore bool
		want      Activity
	}{
		{"finished", state(`{"finished":true,"genericState":"IDLE","step":"IDLE"}`), false, ActivityIdle},
		{"failed", state(`{"failed":true,"terminal":true}`), true, ActivityIdle},
		{"stopped", state(`{"terminal":true,"stopTrigger":true}`), false, ActivityIdle},
		{"no end, as a real server shows a run under way and one never run", state(idle), false, ActivityUnknown},
		{"no end after an end", state(idle), true, ActivityUnderWay},
		{"genericState RUNNING", state(`{"finished":false,"genericState":"RUNNING","step":"IDLE"}`), false, ActivityUnderWay},
		{"step RUNNING", state(`{"finished":false,"genericState":"IDLE","step":"RUNNING"}`), false, ActivityUnderWay},
		{"a state value that is no end", withState, false, ActivityUnderWay},
		{"nil", nil, true, ActivityUnknown},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, RunActivity(tc.s, tc.endBefore), tc.name)
	}
	assert.Equal(t, "under way", ActivityUnderWay.String())
	assert.Equal(t, ActivityUnknown, Activity(0), "the zero value is unknown")
}

// ExperimentsService.Activity reads the status, and where it cannot tell,
// the scenario's runs and experiments: a configuration that is its
// scenario's only one of its type and has a listed run showed an end
// before, so its finished false is a run under way. Prepare refuses such a
// start with ErrRunUnderWay, nothing sent.
func TestActivityOnTheFake(t *testing.T) {
	project := &StartOptions{ProjectID: 1}
	for _, tc := range []struct {
		name     string
		opts     []fake.Option
		ranFirst bool // a run of the configuration ended before the one under way
		given    *StartOptions
		want     Activity
	}{
		{"never ran", nil, false, project, ActivityUnknown},
		{"first run under way", nil, false, project, ActivityUnknown},
		{"second run under way, project given", nil, true, project, ActivityUnderWay},
		{"second run under way, no project", nil, true, nil, ActivityUnknown},
		{"second run under way, two of its type", []fake.Option{fake.WithExtraConfigurations(fake.ExtraConfiguration{ScenarioID: 103, Type: gen.ExperimentTypeSIMULATION})}, true, project, ActivityUnknown},
		{"marked", []fake.Option{fake.WithRunningMarked()}, false, nil, ActivityUnderWay},
		{"ended", nil, true, nil, ActivityIdle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c, clk := newVirtualFake(t, time.Minute, append(tc.opts, fake.WithStatusLag(0))...)
			if tc.ranFirst {
				must(c.RunAndWait(testCtx(t), 10303, nil))(t)
			}
			if tc.name != "never ran" && tc.name != "ended" {
				must(c.Experiments.Start(testCtx(t), 10303, nil))(t)
				clk.Advance(time.Second)
			}
			a, st, err := c.Experiments.Activity(testCtx(t), 10303, tc.given)
			require.NoError(t, err)
			require.NotNil(t, st)
			assert.Equal(t, tc.want, a)

			sent := srv.Calls("runExperiment")
			_, err = c.Experiments.Prepare(testCtx(t), 10303, tc.given)
			if tc.want == ActivityUnderWay {
				require.ErrorIs(t, err, ErrRunUnderWay)
				assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, sent, srv.Calls("runExperiment"), "Prepare sends nothing")
		})
	}
}

// WithRunUnderWayMessages checks its patterns; WaitOptions.MaxRunLength is
// checked wherever it is read, naming the field.
func TestRunUnderWayOptionsAreChecked(t *testing.T) {
	for _, bad := range [][]string{nil, {""}, {"  "}, {"a\nb"}, {string(make([]byte, 201))}} {
		_, err := New("https://x.example/api/v1", WithRunUnderWayMessages(bad...))
		assert.ErrorContains(t, err, "WithRunUnderWayMessages", "%q", bad)
	}
	_, c, _ := newVirtualFake(t, time.Minute)
	run := must(c.Experiments.Prepare(testCtx(t), 10303, nil))(t)
	negative := &WaitOptions{MaxRunLength: -time.Second}
	for name, call := range map[string]func() error{
		"Began":      func() error { _, err := c.Experiments.Began(testCtx(t), run, negative); return err },
		"Wait":       func() error { _, err := run.Wait(testCtx(t), negative); return err },
		"RunAndWait": func() error { _, err := c.RunAndWait(testCtx(t), 10303, negative); return err },
	} {
		var verr *ValidationError
		require.ErrorAs(t, call(), &verr, name)
		assert.Equal(t, "WaitOptions.MaxRunLength", verr.Field, name)
		assert.Contains(t, verr.Reason, fmt.Sprint(-time.Second), name)
	}
}
