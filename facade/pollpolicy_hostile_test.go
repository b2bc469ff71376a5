package facade

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// progressWaitCost waits on virtual time for a run that never ends, whose
// n-th status (from 0) reports the progress text progress(n), for span or
// until its progress fails to decode, and returns the status requests the
// wait sent.
func progressWaitCost(t *testing.T, span time.Duration, seed uint64, progress func(n int) string) int {
	t.Helper()
	clock := faketest.NewInstantClock()
	var polls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, _ *http.Request) {
		n := int(polls.Add(1)) - 1
		fmt.Fprintf(w, `{"state":"RUNNING","progress":%s}`, progress(n))
	}, WithClock(clock), withJitterSeed(seed))
	_, err := c.Run(1).Wait(testCtx(t), &WaitOptions{MaxWait: span})
	require.ErrorIs(t, err, ErrTimeout, "waiting %v for a run that never ends", span)
	return int(polls.Load())
}

// fixed reports the same progress text at every poll.
func fixed(text string) func(int) string { return func(int) string { return text } }

// A server's progress that does not bring the end nearer costs no more
// status requests than progress stuck at one value: at most twice as many
// an hour, whether it creeps up by steps too small to matter (where the
// estimate of the finish once overflowed time.Duration and polled every
// MinInterval), jitters around a value, jumps back and forth, or is no
// percentage at all (NaN, infinite, past 100, negative, 1e300).
func TestHostileProgressCostsNoMoreThanStuckProgress(t *testing.T) {
	noise := func(seed uint64, amplitude float64) func(int) string {
		rnd := rand.New(rand.NewPCG(seed, seed))
		return func(int) string { return fmt.Sprintf("%.17g", 50+amplitude*(2*rnd.Float64()-1)) }
	}
	cases := map[string]struct {
		span     time.Duration
		progress func(n int) string
	}{
		"creeps up 1e-12 a poll":            {time.Hour, func(n int) string { return fmt.Sprintf("%.17g", 50+1e-12*float64(n)) }},
		"creeps up 1e-9 a poll":             {time.Hour, func(n int) string { return fmt.Sprintf("%.17g", 50+1e-9*float64(n)) }},
		"creeps up 1e-9 a poll, 12.5 h":     {12*time.Hour + 30*time.Minute, func(n int) string { return fmt.Sprintf("%.17g", 50+1e-9*float64(n)) }},
		"a finish about 100 years away":     {time.Hour, func(n int) string { return fmt.Sprintf("%.17g", 50+2e-8*float64(n)) }},
		"jitters by 0.1 around 50":          {time.Hour, noise(1, 0.1)},
		"jitters by 20 around 50":           {time.Hour, noise(2, 20)},
		"jitters by 49 around 50":           {time.Hour, noise(3, 49)},
		"jumps between 10 and 90":           {time.Hour, func(n int) string { return []string{"10", "90"}[n%2] }},
		"jumps between 0, 99 and 100":       {time.Hour, func(n int) string { return []string{"0", "99", "100"}[n%3] }},
		"jumps from 0 to 99.9 every 3rd":    {time.Hour, func(n int) string { return fmt.Sprint(min(99.9, float64(n%3)*60)) }},
		"NaN":                               {time.Hour, fixed(`"NaN"`)},
		"Infinity":                          {time.Hour, fixed(`"Infinity"`)},
		"-Infinity":                         {time.Hour, fixed(`"-Infinity"`)},
		"1e999":                             {time.Hour, fixed(`1e999`)},
		"1e300":                             {time.Hour, fixed(`1e300`)},
		"150":                               {time.Hour, fixed(`150`)},
		"100 and never done":                {time.Hour, fixed(`100`)},
		"-5":                                {time.Hour, fixed(`-5`)},
		"rising from -1e300":                {time.Hour, func(n int) string { return fmt.Sprintf("%g", -1e300+float64(n)*1e298) }},
		"NaN, then rising by 10":            {time.Hour, func(n int) string { return []string{`"NaN"`, fmt.Sprint(n % 100)}[min(n, 1)] }},
		"rising by 10 then back to 0":       {time.Hour, func(n int) string { return fmt.Sprint(n % 10 * 10) }},
		"rising to 99.99, stuck there":      {time.Hour, func(n int) string { return fmt.Sprint(min(99.99, float64(n)*10)) }},
		"alternating NaN and 50":            {time.Hour, func(n int) string { return []string{`"NaN"`, "50"}[n%2] }},
		"alternating 150 and 50":            {time.Hour, func(n int) string { return []string{"150", "50"}[n%2] }},
		"creeps from 99.999999 by 1e-12":    {time.Hour, func(n int) string { return fmt.Sprintf("%.17g", 99.999999+1e-12*float64(n)) }},
		"the smallest step above 50, twice": {time.Hour, func(n int) string { return []string{"50", "50.000000000000007"}[min(n, 1)] }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, seed := range []uint64{1, 2} {
				stuck := progressWaitCost(t, tc.span, seed, fixed("50"))
				got := progressWaitCost(t, tc.span, seed, tc.progress)
				perHour := float64(got) / tc.span.Hours()
				assert.LessOrEqual(t, got, 2*stuck, "seed %d: %d status requests in %v (%.0f an hour); stuck at 50: %d", seed, got, tc.span, perHour, stuck)
				t.Logf("seed %d: %d status requests in %v (%.0f an hour); stuck at 50: %d", seed, got, tc.span, perHour, stuck)
			}
		})
	}
}
