package facade

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy says how operations that do not change state are retried on
// 408, 429, 5xx (but 501 Not Implemented) and connection errors. A 500 is retried at most once: it is
// what the real server answers for a stale id, and a second try rarely
// answers otherwise. State-changing operations are never sent twice,
// whatever the policy.
//
// A wait before a retry that would end after the context's deadline is not
// begun, and one the context ends stops: the call returns the failure it
// would have retried joined with the context's error (DeadlineExceeded when
// the wait was not begun), so errors.Is and errors.As find both.
type RetryPolicy struct {
	// MaxAttempts is the number of tries including the first; 1 disables
	// retries. Zero means the default, 4.
	MaxAttempts int
	// BaseDelay is the backoff before the second attempt; each later one
	// doubles it. A delay is drawn uniformly from [0, backoff] (full
	// jitter). Zero means 200 ms.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. Zero means 5 s.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After honoured; a longer one ends
	// the call with an error matching ErrRateLimited. Zero means 30 s.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy returns the policy used when WithRetryPolicy is not.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 4, BaseDelay: 200 * time.Millisecond, MaxDelay: 5 * time.Second, MaxRetryAfter: 30 * time.Second}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	p.MaxAttempts = cmp.Or(p.MaxAttempts, d.MaxAttempts)
	p.BaseDelay = cmp.Or(p.BaseDelay, d.BaseDelay)
	p.MaxDelay = cmp.Or(p.MaxDelay, d.MaxDelay)
	p.MaxRetryAfter = cmp.Or(p.MaxRetryAfter, d.MaxRetryAfter)
	return p
}

func (p RetryPolicy) validate() error {
	switch {
	case p.MaxAttempts < 0:
		return fmt.Errorf("facade: RetryPolicy.MaxAttempts: %d is negative", p.MaxAttempts)
	case p.BaseDelay < 0 || p.MaxDelay < 0 || p.MaxRetryAfter < 0:
		return errors.New("facade: RetryPolicy: delays must not be negative")
	case p.MaxDelay != 0 && p.BaseDelay > p.MaxDelay:
		return fmt.Errorf("facade: RetryPolicy.BaseDelay %v exceeds MaxDelay %v", p.BaseDelay, p.MaxDelay)
	}
	return nil
}

// backoff returns the full-jitter delay before attempt n+1 (n >= 1).
func (p RetryPolicy) backoff(n int) time.Duration {
	ceiling := p.MaxDelay
	if shift := n - 1; shift < 30 && p.BaseDelay<<shift < p.MaxDelay {
		ceiling = p.BaseDelay << shift
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

// retryableStatus says whether an answer with status may differ when asked
// again: 501 Not Implemented never does.
func retryableStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests ||
		status >= 500 && status != http.StatusNotImplemented
}

// parseRetryAfter reads delay-seconds or an HTTP-date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if err != nil || secs > uint64(math.MaxInt64/time.Second) {
			return time.Duration(math.MaxInt64), true // longer than any cap
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// answeredAt is when the server answered, by its own Date header, which an
// HTTP-date in Retry-After is measured from: the two come from one clock,
// whatever this machine's says. Without a valid Date, it is now.
func answeredAt(resp *http.Response) time.Time {
	if t, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		return t
	}
	return time.Now()
}
