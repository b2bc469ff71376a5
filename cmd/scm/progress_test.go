package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
