package facade

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// serveNewStates answers every poll of a run with a new genericState of
// size bytes, the run never ending, and counts the polls.
func serveNewStates(size int, polls *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := polls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"finished":false,"failed":false,"terminal":false,"genericState":"S%d-%s"}`, n, strings.Repeat("x", size))
	}
}

// waitOneSecondPolls waits for run 1, polling each second, until MaxWait.
var waitOneSecondPolls = &WaitOptions{MaxWait: 30 * time.Second,
	Policy: &PollPolicy{MinInterval: time.Second, MaxInterval: time.Second, DisableEstimate: true}}

// A new 1 MB genericState on every poll: the client keeps
// Limits.MaxUnknownStates of them, each cut to Limits.MaxReportedLen,
// logs each of those once and the limit once, tells its observer the
// states cut, and its ErrTimeout error is short.
func TestHostileNewHugeStateOnEveryPoll(t *testing.T) {
	const max = 10
	var polls atomic.Int32
	log := &faketest.Buffer{}
	_, c := newStub(t, serveNewStates(1<<20, &polls), WithClock(faketest.NewInstantClock()),
		WithLimits(Limits{MaxUnknownStates: max}), WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	rec := &obsRecorder{t: t}
	c.cfg.observer = rec
	before := retained()
	_, err := c.Run(1).Wait(testCtx(t), waitOneSecondPolls)
	held := int64(retained()) - int64(before)
	require.ErrorIs(t, err, ErrTimeout)
	require.Greater(t, polls.Load(), int32(2*max), "polls")
	assert.Less(t, len(err.Error()), 400, "the ErrTimeout error")
	kept, dropped := c.states.unknownStates()
	assert.Equal(t, max, kept, "unknown states kept")
	assert.Equal(t, int(polls.Load())-max, dropped, "unknown states counted past the limit")
	assert.Equal(t, max, strings.Count(log.String(), "unknown state value,"), "each kept value logged once")
	assert.Equal(t, 1, strings.Count(log.String(), "limit=Limits.MaxUnknownStates"), "the limit logged once")
	assert.Less(t, len(log.String()), 1000*int(polls.Load()), "log bytes for %d polls of 1 MB states", polls.Load())
	assert.Less(t, held, int64(8<<20), "bytes held after %d polls of 1 MB states", polls.Load())
	for _, line := range rec.Lines() {
		assert.Less(t, len(line), 1200, "an observer's line: %.80s", line)
	}
}

// A state of exactly MaxUnknownStates values is logged value by value; one
// more is counted, not kept.
func testMaxUnknownStates(t *testing.T) {
	for distinct, dropped := range map[int]int{3: 0, 4: 1} {
		var polls atomic.Int32
		_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
			n := polls.Add(1)
			state := fmt.Sprintf("S%d", min(n, int32(distinct)))
			if n > int32(distinct) {
				state = "DONE"
			}
			fmt.Fprintf(w, `{"finished":false,"failed":false,"terminal":false,"state":%q}`, state)
		}, WithClock(faketest.NewInstantClock()), WithLimits(Limits{MaxUnknownStates: 3}))
		_, err := c.Run(1).Wait(testCtx(t), waitOneSecondPolls)
		require.NoError(t, err)
		kept, gotDropped := c.states.unknownStates()
		assert.Equal(t, 3, kept)
		assert.Equal(t, dropped, gotDropped, "values past Limits.MaxUnknownStates are counted")
	}
}

// A run that fails with a 1 MB state and message: the *StateError keeps
// them whole and its text quotes them cut to MaxReportedLen.
func TestHostileHugeStateErrorIsCut(t *testing.T) {
	huge := strings.Repeat("m", 1<<20)
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"failed":true,"finished":false,"terminal":true,"text":%q}`, huge)
	}, WithClock(faketest.NewInstantClock()), WithLimits(Limits{MaxReportedLen: 50}))
	_, err := c.Run(1).Wait(testCtx(t), nil)
	var stateErr *StateError
	require.ErrorAs(t, err, &stateErr)
	assert.Equal(t, huge, stateErr.Message, "the field holds the message whole")
	assert.Less(t, len(err.Error()), 200, "the error's text")
	assert.Contains(t, err.Error(), strings.Repeat("m", 50)+"…(+1048526 bytes)")
}
