package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// testFollowPoll is the pace of the waits of scm run --wait and scm batch
// in these tests, whose fake's runs last a fraction of a second of real
// time.
var testFollowPoll = facade.PollPolicy{MinInterval: 100 * time.Millisecond, MaxInterval: 200 * time.Millisecond}

// testStaleWindow is the stale window of scm run --wait and scm batch in
// these tests, whose fakes show a start at once (fake.WithStatusLag(0)) or
// run shorter than their lag: a run's end is taken 200 ms after it shows,
// not 10 s.
const testStaleWindow = 200 * time.Millisecond

func init() { followPoll, followStaleWindow = &testFollowPoll, testStaleWindow }

// Outside the tests scm run --wait paces its polls by the client's policy:
// its pause while a run is young is at least 1.5 s (the default's 2 s, less
// a quarter of jitter), so a run of 1.2 s still under way at the wait's
// first read is seen over by the one poll after that pause (a pace of 1 s,
// the progress bar's, would poll twice), and taken as the start's by one
// more, a stale window after it.
func TestRunWaitTakesTheClientsPolicy(t *testing.T) {
	followPoll = nil
	t.Cleanup(func() { followPoll = &testFollowPoll })
	srv, flags := newServer(t, fake.WithRunDuration(1200*time.Millisecond))
	r := scm(t, "", append([]string{"run", "10303", "--wait"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 4, srv.Calls("getExperimentStatus"), "the read before the start, the wait's first read, at once, one poll after a pause, and one a stale window after it")
}
