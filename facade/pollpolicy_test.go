package facade

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withJitterSeed draws the client's poll jitter from a source seeded with
// seed, so that a test repeats its waits exactly.
func withJitterSeed(seed uint64) Option {
	return func(c *config) error {
		c.pollJitter = &jitterSource{rnd: rand.New(rand.NewPCG(seed, seed))}
		return nil
	}
}

// runLengths are the lengths of run the policy is held to.
var runLengths = []time.Duration{10 * time.Second, time.Minute, 10 * time.Minute, 2 * time.Hour}

// pollSeeds are the seeds of the jitter each length is waited with.
var pollSeeds = []uint64{1, 2, 3, 4, 5}

// lateBound is how late the end of a run of length runFor may be seen at
// the default policy: within max(2 s, 5 % of the run).
func lateBound(runFor time.Duration) time.Duration { return max(2*time.Second, runFor/20) }

// requestBound is how many status requests a run of length runFor may
// cost: 100 + runFor / 30 s.
func requestBound(runFor time.Duration) int { return 100 + int(runFor/(30*time.Second)) }

// waited is what one wait for a run cost: how late its end was seen and the
// status requests sent (the start's read of the status included).
type waited struct {
	late     time.Duration
	requests int
}

// waitOnFake starts a run of length runFor on a fake that answers without
// progress, as the real server does, and waits for it on virtual time with
// the jitter of seed and opts (nil: the client's default policy).
func waitOnFake(t testing.TB, runFor time.Duration, seed uint64, opts *WaitOptions) waited {
	t.Helper()
	srv, clock := faketest.NewInstantServer(t, fake.WithAPIKeys(testKey), fake.WithRunDuration(runFor))
	c := newTestClient(t, srv.URL, WithClock(clock), withJitterSeed(seed))
	start := clock.Now()
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	state, err := run.Wait(testCtx(t), opts)
	require.NoError(t, err, "waiting for a run of %v to end", runFor)
	require.Equal(t, RunFinished, RunStateValue(state))
	// The wait takes the end as this start's once a read a stale window
	// after the one that first showed it still shows it: late is how late
	// that first read was.
	return waited{late: clock.Now().Sub(start.Add(runFor)) - staleWindowOf(opts), requests: srv.Calls("getExperimentStatus")}
}

// staleWindowOf is the stale window of a wait with opts.
func staleWindowOf(opts *WaitOptions) time.Duration {
	if opts == nil || opts.StaleWindow == 0 {
		return DefaultStaleWindow
	}
	return opts.StaleWindow
}

// medianOf returns the median of the waits by field.
func medianOf[T int | time.Duration](ws []waited, field func(waited) T) T {
	vs := make([]T, len(ws))
	for i, w := range ws {
		vs[i] = field(w)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

// Without progress, the default policy sees a run's end within max(2 s,
// 5 % of the run) and spends at most 100 + length / 30 s status requests,
// for every seed of the jitter.
func TestDefaultPolicyPacesByTheRunsAge(t *testing.T) {
	for _, runFor := range runLengths {
		t.Run(runFor.String(), func(t *testing.T) {
			var ws []waited
			for _, seed := range pollSeeds {
				w := waitOnFake(t, runFor, seed, nil)
				assert.GreaterOrEqual(t, w.late, time.Duration(0), "seed %d: the end was seen before it happened", seed)
				assert.LessOrEqual(t, w.late, lateBound(runFor), "seed %d: the end of a %v run was seen %v late", seed, runFor, w.late)
				assert.LessOrEqual(t, w.requests, requestBound(runFor), "seed %d: status requests for a %v run", seed, runFor)
				ws = append(ws, w)
			}
			t.Logf("%v: median %v late, %d status requests", runFor,
				medianOf(ws, func(w waited) time.Duration { return w.late }), medianOf(ws, func(w waited) int { return w.requests }))
		})
	}
}

// The jitter stays: two waiters of different seeds do not poll in step.
func TestPollJitterDiffersBetweenWaiters(t *testing.T) {
	a := waitOnFake(t, 10*time.Minute, 1, nil)
	b := waitOnFake(t, 10*time.Minute, 2, nil)
	assert.NotEqual(t, a, b, "two seeds waited alike")
	assert.Equal(t, a, waitOnFake(t, 10*time.Minute, 1, nil), "one seed waited two ways")
}

// Each pause without progress is drawn from the last quarter below
// Lateness × max(age, 40 s), within [MinInterval, MaxInterval].
func TestPauseWithoutProgressFollowsTheAge(t *testing.T) {
	cases := map[string]struct {
		policy PollPolicy
		age    time.Duration
		bound  time.Duration
	}{
		"just started":          {DefaultPollPolicy(), 0, 2 * time.Second},
		"younger than 40 s":     {DefaultPollPolicy(), 30 * time.Second, 2 * time.Second},
		"one minute":            {DefaultPollPolicy(), time.Minute, 3 * time.Second},
		"one hour":              {DefaultPollPolicy(), time.Hour, 3 * time.Minute},
		"past the cap":          {DefaultPollPolicy(), 24 * time.Hour, 10 * time.Minute},
		"a started clock ahead": {DefaultPollPolicy(), -time.Hour, 2 * time.Second},
		"lateness 0.2":          {PollPolicy{Lateness: 0.2}.withDefaults(), 20 * time.Minute, 4 * time.Minute},
		"lateness 0.01, floor":  {PollPolicy{Lateness: 0.01}.withDefaults(), 0, time.Second},
		"fixed interval":        {PollPolicy{MinInterval: 5 * time.Second, MaxInterval: 5 * time.Second}.withDefaults(), time.Hour, 5 * time.Second},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.policy.jitter = &jitterSource{rnd: rand.New(rand.NewPCG(7, 7))}
			lowest, highest := time.Duration(math.MaxInt64), time.Duration(0)
			for n := range 200 {
				d := tc.policy.next(estimator{}, n, tc.age)
				lowest, highest = min(lowest, d), max(highest, d)
			}
			assert.LessOrEqual(t, highest, tc.bound)
			assert.GreaterOrEqual(t, lowest, max(tc.bound*3/4, tc.policy.MinInterval))
			if tc.policy.MinInterval < tc.bound*3/4 {
				assert.Less(t, lowest, tc.bound*7/8, "the jitter spreads the pauses")
			}
		})
	}
}

// With progress, the pause ends just after the estimated finish, never
// later than 30 s ahead while the work is young (as before the pace
// followed the age), and no later than the pause without progress after.
func TestEstimatorPlacesPollAfterTheFinish(t *testing.T) {
	var e estimator
	t0 := time.Unix(0, 0)
	e.observe(ptr(0.0), t0)
	_, ok := e.remaining()
	assert.False(t, ok)
	e.observe(ptr(25.0), t0.Add(10*time.Second))
	left, ok := e.remaining()
	require.True(t, ok)
	assert.Equal(t, 30*time.Second, left)
	p := DefaultPollPolicy()
	assert.Equal(t, estimateCap, p.next(e, 2, 10*time.Second))
	assert.Equal(t, left+estimateSlack, p.next(e, 2, time.Hour), "an hour in, the pause without progress is 3 min")
	e.observe(ptr(90.0), t0.Add(36*time.Second))
	assert.Equal(t, 4*time.Second+estimateSlack, p.next(e, 3, 36*time.Second))
	e.observe(ptr(99.99), t0.Add(40*time.Second))
	assert.Equal(t, p.MinInterval, p.next(e, 4, 40*time.Second))
}

// A server that reports progress rising steadily gets a poll just after
// the finish it estimates, for every length: no later than the old policy,
// which placed it estimateSlack after.
func TestProgressStillGetsTheEstimatedFinish(t *testing.T) {
	for _, runFor := range runLengths {
		t.Run(runFor.String(), func(t *testing.T) {
			c, clock, polls := progressServer(t, runFor)
			start := clock.Now()
			_, err := c.Run(1).Wait(testCtx(t), nil)
			require.NoError(t, err, "waiting for a run of %v that reports progress", runFor)
			late := clock.Now().Sub(start.Add(runFor))
			assert.GreaterOrEqual(t, late, time.Duration(0))
			assert.LessOrEqual(t, late, estimateSlack+time.Millisecond, "a %v run with progress", runFor)
			assert.LessOrEqual(t, int(polls.Load()), oldPolicyRequestsWithProgress(runFor), "a %v run with progress", runFor)
		})
	}
}

// oldPolicyRequestsWithProgress is what a run of length runFor that
// reports steady progress cost before the pace followed the age: a poll,
// one at about 1 s, then one each 30 s (the old cap), then the one after
// the finish.
func oldPolicyRequestsWithProgress(runFor time.Duration) int {
	return 3 + int(runFor/(30*time.Second))
}

// Lateness is the one setting: a larger one spares the server, a smaller
// one sees the end sooner, each in proportion.
func TestLatenessTradesRequestsForPromptness(t *testing.T) {
	const runFor = 2 * time.Hour
	for _, lateness := range []float64{0.02, 0.2} {
		t.Run(fmt.Sprint(lateness), func(t *testing.T) {
			var def, set []waited
			for _, seed := range pollSeeds {
				def = append(def, waitOnFake(t, runFor, seed, nil))
				w := waitOnFake(t, runFor, seed, &WaitOptions{Policy: &PollPolicy{Lateness: lateness}})
				assert.LessOrEqual(t, w.late, time.Duration(lateness*float64(runFor)), "seed %d", seed)
				set = append(set, w)
			}
			requests := func(w waited) int { return w.requests }
			ratio := float64(medianOf(set, requests)) / float64(medianOf(def, requests))
			assert.InDelta(t, 0.05/lateness, ratio, 0.05/lateness/4, "requests at Lateness %v against the default's", lateness)
		})
	}
}

func TestPollPolicyLatenessIsChecked(t *testing.T) {
	for _, lateness := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		_, err := New("https://x/api/v1", WithPollPolicy(PollPolicy{Lateness: lateness}))
		require.Error(t, err, "Lateness %v", lateness)
		assert.Contains(t, err.Error(), "PollPolicy.Lateness")

		_, c := newStub(t, func(http.ResponseWriter, *http.Request) { t.Error("a policy that is not valid sent a request") })
		_, err = c.Run(1).Wait(testCtx(t), &WaitOptions{Policy: &PollPolicy{Lateness: lateness}})
		var verr *ValidationError
		require.ErrorAs(t, err, &verr)
		assert.Equal(t, "WaitOptions.Policy", verr.Field)
		assert.Contains(t, verr.Reason, "Lateness")
	}
}

// The faster pace while a run is young does not take the last run's end,
// which a real server answers for a while after a start, for this run's:
// with the end still answered 8 s into the new run, every seed sees the
// run's own end, after it happened and within the policy's bound.
func TestYoungRunsPaceDoesNotTakeAStaleEnd(t *testing.T) {
	for _, runFor := range []time.Duration{10 * time.Second, time.Minute} {
		for _, seed := range pollSeeds {
			srv, clock := faketest.NewInstantServer(t, fake.WithAPIKeys(testKey), fake.WithRunDuration(runFor), fake.WithStatusLag(8*time.Second))
			c := newTestClient(t, srv.URL, WithClock(clock), withJitterSeed(seed))
			_, err := c.RunAndWait(testCtx(t), 10101, nil)
			require.NoError(t, err, "the first run")
			start := clock.Now()
			run, err := c.Experiments.Start(testCtx(t), 10101, nil)
			require.NoError(t, err)
			_, err = run.Wait(testCtx(t), nil)
			require.NoError(t, err, "waiting for the second run of %v", runFor)
			late := clock.Now().Sub(start.Add(runFor)) - DefaultStaleWindow // the end is settled a stale window after it is first read
			assert.GreaterOrEqual(t, late, time.Duration(0), "seed %d, %v: the last run's end was taken for this one's", seed, runFor)
			assert.LessOrEqual(t, late, lateBound(runFor), "seed %d, %v", seed, runFor)
			assert.Equal(t, EndSeenUnderWay, EvidenceOf(run).End, "seed %d, %v", seed, runFor)
		}
	}
}

// An estimate too far off for a time.Duration saturates, where it once
// overflowed to a negative pause and polled every MinInterval: progress
// that creeps up by 1e-12 is paced by the longest pause with an estimate.
func TestEstimateOfAFarFinishSaturates(t *testing.T) {
	t0 := time.Unix(0, 0)
	p := DefaultPollPolicy()
	for _, step := range []float64{1e-12, 1e-9, 2e-8} {
		var e estimator
		e.observe(ptr(50.0), t0)
		e.observe(ptr(50+step), t0.Add(2*time.Second))
		left, ok := e.remaining()
		require.True(t, ok, "step %g", step)
		assert.Positive(t, left, "step %g", step)
		assert.Equal(t, estimateCap, p.next(e, 2, 2*time.Second), "step %g: the pause of a young run's far finish", step)
	}
}

// A progress that is no percentage is ignored: the estimate, and so the
// pause, is what it was before it.
func TestProgressThatIsNoPercentageIsIgnored(t *testing.T) {
	t0 := time.Unix(0, 0)
	p := DefaultPollPolicy()
	p.jitter = &jitterSource{rnd: rand.New(rand.NewPCG(7, 7))}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 100.5, 1e300, -5, -1e-9} {
		var e estimator
		e.observe(ptr(10.0), t0)
		e.observe(ptr(v), t0.Add(2*time.Second))
		_, ok := e.remaining()
		assert.False(t, ok, "progress %v after 10 made an estimate", v)
		e.observe(ptr(20.0), t0.Add(4*time.Second))
		left, ok := e.remaining()
		require.True(t, ok, "progress %v", v)
		assert.Equal(t, 32*time.Second, left, "progress %v: 10 to 20 in 4 s", v)
	}
}

// Once an estimated finish passes with the work still under way, no
// estimate of the work is trusted: its pauses are those without progress.
func TestAMissedFinishEndsTheEstimate(t *testing.T) {
	t0 := time.Unix(0, 0)
	var e estimator
	e.observe(ptr(0.0), t0)
	e.observe(ptr(25.0), t0.Add(10*time.Second)) // the finish is estimated at 40 s
	e.observe(ptr(90.0), t0.Add(40*time.Second)) // not past it: 10 % left at 2.25 % a second
	left, ok := e.remaining()
	require.True(t, ok)
	assert.InDelta(t, 4.444, left.Seconds(), 0.001)
	e.observe(ptr(95.0), t0.Add(45*time.Second)) // past it, and not done
	_, ok = e.remaining()
	assert.False(t, ok, "a finish missed is not estimated again")
	e.observe(ptr(0.0), t0.Add(50*time.Second))
	e.observe(ptr(50.0), t0.Add(55*time.Second))
	_, ok = e.remaining()
	assert.False(t, ok, "nor after progress went back to 0 and rose again")
}
