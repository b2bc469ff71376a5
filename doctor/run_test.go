package doctor_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ranBefore runs rcID once to its end, so that the status shows an end
// before the doctor's start.
func ranBefore(t *testing.T, c *facade.Client, rcID ids.RcID) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := c.RunAndWait(ctx, rcID, nil)
	require.NoError(t, err)
}

// On a virtual clock, the run check measures the fake's status lag to
// within a poll's pause, the listing and the length, and recommends a
// stale window above the lag and a maximum run length above the length;
// the one state-changing request is its start.
func TestRunMeasuresTheStatusLag(t *testing.T) {
	for _, lag := range []time.Duration{0, 2 * time.Second, 7 * time.Second} {
		t.Run(lag.String(), func(t *testing.T) {
			srv, clk, c := instant(t, fake.WithStatusLag(lag), fake.WithRunDuration(20*time.Second))
			ranBefore(t, c, 10303)
			starts := srv.Calls(string(gen.OpRunExperiment))
			rep := diagnose(t, c, doctor.Options{Run: 10303, Clock: clk})
			require.NotNil(t, rep.Run, text(t, rep))
			m := *rep.Run
			assert.True(t, m.LagSeen)
			assert.GreaterOrEqual(t, m.StatusLag, lag)
			assert.LessOrEqual(t, m.StatusLag, lag+doctor.DefaultPollInterval, "the lag is seen on the first poll after it")
			assert.Equal(t, facade.RunFinished, m.Ended)
			assert.GreaterOrEqual(t, m.Length, 20*time.Second)
			assert.True(t, m.Listed)
			assert.Greater(t, m.StaleWindow, m.StatusLag)
			assert.Greater(t, m.MaxRunLength, m.Length)
			assert.Equal(t, map[string]int{"runExperiment": starts + 1}, stateChanging(srv.Calls), "the run's start, and nothing else that changes state")
			run, _ := rep.Check(doctor.CheckRun)
			assert.Equal(t, doctor.OK, run.Status)
			assert.Contains(t, run.Fix, "--max-run-length "+m.MaxRunLength.String())
			assert.Contains(t, run.Fix, "WaitOptions.StaleWindow")
		})
	}
}

// The report's words for a measured run, and what it recommends, on the
// fake's default lag.
func TestRunCheckSaysWhatItSawAndWhatToSet(t *testing.T) {
	_, clk, c := instant(t, fake.WithStatusLag(2*time.Second), fake.WithRunDuration(5*time.Second))
	ranBefore(t, c, 10303)
	rep := diagnose(t, c, doctor.Options{Run: 10303, Clock: clk})
	run, _ := rep.Check(doctor.CheckRun)
	assert.Equal(t, doctor.Check{Name: "run", Status: doctor.OK,
		Seen: "rcId 10303 (SIMULATION) FINISHED 5s after its start; the status showed the last run's end (FINISHED) for 2s after the start (the status lag); it was listed 5s after the start",
		Fix: "set a stale window of 5s (WaitOptions.StaleWindow; the Temporal module's Options.StaleWindow; the default is 10s) and a maximum run length of 15s for rcId 10303 " +
			"(scm run and scm batch: --max-run-length 15s; WaitOptions.MaxRunLength; the Temporal module's Options.MaxRunLength)"}, run)
}

// A configuration that never ran shows no lag (a run under way reads as
// one that never ran): the report says so and recommends no stale window.
func TestRunOfAConfigurationThatNeverRan(t *testing.T) {
	_, clk, c := instant(t, fake.WithStatusLag(2*time.Second), fake.WithRunDuration(5*time.Second))
	rep := diagnose(t, c, doctor.Options{Run: 10303, Clock: clk})
	require.NotNil(t, rep.Run, text(t, rep))
	assert.False(t, rep.Run.LagSeen)
	assert.Zero(t, rep.Run.StaleWindow)
	run, _ := rep.Check(doctor.CheckRun)
	assert.Contains(t, run.Seen, "the status lag could not be seen: the configuration had not run before (status IDLE)")
	assert.Equal(t, "set a maximum run length of 15s for rcId 10303 (scm run and scm batch: --max-run-length 15s; WaitOptions.MaxRunLength; the Temporal module's Options.MaxRunLength)", run.Fix)
}

// A lag that lasts the whole run shows as an end throughout: the stale
// window recommended covers the run.
func TestRunWhoseLagLastsTheRun(t *testing.T) {
	_, clk, c := instant(t, fake.WithStatusLag(time.Minute), fake.WithRunDuration(5*time.Second))
	ranBefore(t, c, 10303)
	rep := diagnose(t, c, doctor.Options{Run: 10303, Clock: clk})
	require.NotNil(t, rep.Run, text(t, rep))
	assert.False(t, rep.Run.LagSeen)
	assert.Greater(t, rep.Run.StaleWindow, rep.Run.Length)
	run, _ := rep.Check(doctor.CheckRun)
	assert.Contains(t, run.Seen, "the status showed an end (FINISHED) throughout: the status lag lasted the whole run")
}

// A run the server refuses as a real server refuses a user without a
// license fails the run check, naming how to take one.
func TestRunRefusedForWantOfALicense(t *testing.T) {
	srv, clk, c := instant(t)
	c2, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err = c.User.DropLicense(ctx)
	require.NoError(t, err)
	rep := diagnose(t, c2, doctor.Options{Run: 10303, Clock: clk, Names: doctor.Names{RequestLicense: "scm call requestLicense"}})
	run, _ := rep.Check(doctor.CheckRun)
	assert.Equal(t, doctor.Fail, run.Status, text(t, rep))
	assert.Contains(t, run.Fix, "take one with scm call requestLicense")
	assert.True(t, rep.Failed())
}

// A run that does not end within MaxRunWait fails the check, saying how
// far it got.
func TestRunThatOutlastsTheWait(t *testing.T) {
	_, clk, c := instant(t, fake.WithStatusLag(0), fake.WithRunDuration(time.Hour))
	rep := diagnose(t, c, doctor.Options{Run: 10303, Clock: clk, MaxRunWait: time.Minute})
	run, _ := rep.Check(doctor.CheckRun)
	assert.Equal(t, doctor.Fail, run.Status)
	assert.Contains(t, run.Seen, "rcId 10303 did not end within 1m0s of its start (Options.MaxRunWait)")
}
