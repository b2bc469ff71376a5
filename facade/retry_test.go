package facade

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// The MaxRetryAfter cap alone decides whether a Retry-After is waited for:
// on the instant clock, with a deadline past every wait, a Retry-After
// at the cap is waited for exactly, and one a second longer ends the call
// at once as rate limited, with nothing waited and no second request.
func TestMaxRetryAfterCapsTheWait(t *testing.T) {
	const maxRetryAfter = 5 * time.Second
	for name, tc := range map[string]struct {
		retryAfter time.Duration
		waited     time.Duration
		requests   int32
	}{
		"at the cap":        {maxRetryAfter, maxRetryAfter, 2},
		"past the cap":      {maxRetryAfter + time.Second, 0, 1},
		"under the cap":     {time.Second, time.Second, 2},
		"zero: the backoff": {0, 0, 2},
	} {
		t.Run(name, func(t *testing.T) {
			var requests atomic.Int32
			clk := faketest.NewInstantClock()
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				if requests.Add(1) == 1 {
					w.Header().Set("Retry-After", fmt.Sprint(int(tc.retryAfter/time.Second)))
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				fmt.Fprint(w, `{"username":"u"}`)
			}, WithClock(clk), WithRetryPolicy(RetryPolicy{MaxAttempts: 2, BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond, MaxRetryAfter: maxRetryAfter}))
			// The test's deadline (10 s) is past every wait here, so only the
			// cap can refuse one; the instant clock makes waits take no time.
			ctx := testCtx(t)
			start := clk.Now()
			_, err := c.User.Current(ctx)
			assert.Equal(t, tc.requests, requests.Load(), "requests")
			assert.LessOrEqual(t, clk.Now().Sub(start)-tc.waited, time.Nanosecond, "the wait, on the client's clock")
			assert.GreaterOrEqual(t, clk.Now().Sub(start), tc.waited, "the wait, on the client's clock")
			if tc.requests == 2 {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrServer)
			assert.NotErrorIs(t, err, context.DeadlineExceeded, "the cap refused the wait, not the deadline")
		})
	}
}
