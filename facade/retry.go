package facade

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// RetryPolicy says how operations that do not change state are retried on
// 408, 429, 5xx (but 501 Not Implemented) and connection errors. A 500 is retried at most once: it is
// what the real server answers for a stale id, and a second try rarely
// answers otherwise. State-changing operations are never sent twice,
// whatever the policy: they are retried only when their request provably
// never left (a connection that was never made), and ShouldRetry is never
// consulted for one whose request may have left.
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
	// the call with an error matching ErrServer. Zero means 30 s.
	MaxRetryAfter time.Duration
	// StatusCodes are the statuses of an answer that are retried. Nil
	// means [DefaultRetryStatusCodes]; an empty list retries no status
	// (connection errors still are). A 500 is retried at most once, and an
	// answer that says the request was refused before anything was done is
	// never retried, whatever the list.
	StatusCodes []int
	// ShouldRetry, when set, has the last word on each failed attempt the
	// SDK may retry: it is given the failure and what the policy decided,
	// and returns whether to retry (after the policy's backoff, or the
	// answer's Retry-After up to MaxRetryAfter). It is never consulted for
	// a state-changing call whose request may have reached the server, nor
	// past MaxAttempts, nor for a Retry-After longer than MaxRetryAfter.
	ShouldRetry func(RetryAttempt) bool
}

// RetryAttempt is what [RetryPolicy].ShouldRetry is asked about: a failed
// attempt.
type RetryAttempt struct {
	Operation string // camelCase operationId
	Attempt   int    // the attempt that failed, from 1
	// Err is the failure: an [*APIError] (an answer) or a
	// [*RequestError] (no answer).
	Err error
	// Retry is what the policy decided without the hook.
	Retry bool
}

// DefaultRetryStatusCodes are the statuses retried by default: 408, 429
// and every 5xx but 501 Not Implemented.
func DefaultRetryStatusCodes() []int {
	return []int{http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout, 505, 506, 507, 508, 510, 511}
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

// retryableStatus says whether the policy retries an answer with status:
// by default 408, 429 and 5xx but 501 Not Implemented, which never
// differs when asked again; else those StatusCodes lists.
func (p RetryPolicy) retryableStatus(status int) bool {
	if p.StatusCodes == nil {
		return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests ||
			status >= 500 && status != http.StatusNotImplemented
	}
	return slices.Contains(p.StatusCodes, status)
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
