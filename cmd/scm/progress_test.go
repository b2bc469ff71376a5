package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// lastFrame is what a terminal shows last: the text after the last carriage
// return that is not blank.
func lastFrame(out string) string {
	frames := strings.Split(out, "\r")
	for i := len(frames) - 1; i >= 0; i-- {
		if f := strings.TrimSpace(frames[i]); f != "" {
			return f
		}
	}
	return ""
}

func TestBarEndsOnTheFinalState(t *testing.T) {
	for name, tc := range map[string]struct {
		states  []string
		percent []float64
		want    []string
	}{
		"finished": {[]string{"RUNNING", "RUNNING", "FINISHED"}, []float64{12, 87, 100}, []string{"FINISHED", "100%"}},
		"stopped":  {[]string{"RUNNING", "STOPPED"}, []float64{40, 62}, []string{"STOPPED", "62%"}},
	} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			p := &progress{out: &out, label: "run", terminal: true}
			for i, st := range tc.states {
				p.update(st, tc.percent[i])
			}
			p.done()
			frame := lastFrame(out.String())
			for _, w := range tc.want {
				assert.Contains(t, frame, w)
			}
			assert.True(t, strings.HasSuffix(out.String(), "\n"), "the last frame stays, on its own line")
		})
	}
}

// Without progress from the server, the lines say the state and the time
// since the wait began, once per change of state, and never a percentage.
func TestProgressWithoutPercentShowsElapsedTime(t *testing.T) {
	var out bytes.Buffer
	elapsed := 0 * time.Second
	p := &progress{out: &out, label: "run", elapsed: func() time.Duration { return elapsed }}
	for _, st := range []string{"RUNNING", "RUNNING", "FINISHED"} {
		elapsed += 20 * time.Second
		p.updateState(st)
	}
	p.done()
	assert.Equal(t, "  run: RUNNING (20s)\n  run: FINISHED (1m0s)\n", out.String())
}

// On a terminal, a wait without progress is a spinner with its state, and
// no percentage.
func TestSpinnerWithoutPercent(t *testing.T) {
	var out bytes.Buffer
	p := &progress{out: &out, label: "run", terminal: true, elapsed: func() time.Duration { return time.Second }}
	p.updateState("RUNNING")
	p.updateState("FINISHED")
	p.done()
	frame := lastFrame(out.String())
	assert.Contains(t, frame, "FINISHED")
	assert.NotContains(t, out.String(), "%")
}

// On a terminal, scm run --wait's line is redrawn every second, so that
// its elapsed time moves while the server reports nothing new (it showed
// "RUNNING [0s]" for the whole run); a percentage shows only when the
// server reports progress.
func TestRunLineElapsedTimeMoves(t *testing.T) {
	var out faketest.Buffer
	clk := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := &liveLine{out: &out, label: "run", clock: clk, start: clk.Now(), terminal: true}
	l.show("RUNNING", nil)
	for range 3 {
		require.Eventually(t, func() bool { return clk.Waiters() == 1 }, 5*time.Second, time.Millisecond, "the redrawing's timer")
		clk.Advance(time.Second)
	}
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "run: RUNNING   3s") }, 5*time.Second, time.Millisecond, "redrawn at 3s: %q", out.String())
	half := 50.0
	l.show("RUNNING", &half)
	l.close()
	frames := out.String()
	for _, want := range []string{"run: RUNNING   0s", "run: RUNNING   1s", "run: RUNNING   2s"} {
		assert.Contains(t, frames, want)
	}
	assert.Equal(t, 2, strings.Count(frames, "%"), "a percentage only once the server reports progress: %q", frames)
	assert.Contains(t, lastFrame(frames), "50%")
	assert.True(t, strings.HasSuffix(frames, "\n"), "the last frame stays, on its own line")
}
