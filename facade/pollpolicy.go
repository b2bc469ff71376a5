package facade

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// PollPolicy says how Wait and States pace their status requests.
//
// Without progress from the server (a real server reports none for runs),
// the pause after a poll grows with the age of the work, the time since it
// started (since the wait began, for work whose start the client does not
// know): at most Lateness × max(age, 40 s), kept within [MinInterval,
// MaxInterval], and drawn at random from the top quarter below that bound
// so that many waiters do not poll in step. The end of work of length T is
// therefore seen within Lateness × max(T, 40 s) of happening (at the
// defaults, 2 s under 40 s and 5 % of T past it), and the requests grow
// with the logarithm of T:
// about (1 + ln(T / 40 s)) / (0.875 × Lateness) of them for T past 40 s,
// until the pause reaches MaxInterval.
//
// The trade-off, on the fake server with the defaults (median of 5 seeds
// of the jitter, BenchmarkPolling): the end of a run of 10 s is seen 0.9 s
// after it, with 8 status requests; of 60 s, 2.1 s after, with 35; of
// 10 min, 6.4 s after, with 88; of 2 h, 16 s after, with 146 (where a poll
// every second costs 7,200). A busy shared server is spared by a larger
// Lateness: at 0.2 the same runs cost 4, 11, 25 and 43 requests, and their
// ends are seen within 20 % of their length (8 s under 40 s). Faster notice
// costs in proportion: at 0.02 they cost 12, 62, 195 and 338, and ends are
// seen within 2 % of their length, or MinInterval if that is longer.
//
// When the server reports progress, the rate of progress over time
// estimates when the work will finish and the next poll is placed just
// after that moment: no sooner than MinInterval, and no later than 30 s or
// the pause without progress, whichever is longer (nor MaxInterval).
// Progress that says nothing of the finish costs no more: a value that is
// no percentage (NaN, infinite, below 0 or above 100) is ignored, an
// estimate too far off for a time.Duration saturates (and the pause is the
// longest above), and once an estimated finish passes with the work still
// under way (progress that went back, creeps, jitters, or stands at 100
// before the end), the work's polls are paced as without progress.
//
// A Retry-After up to MaxInterval is honoured; a longer one ends waiting
// with an error matching ErrServer.
type PollPolicy struct {
	// Lateness is how late the end of the work may be seen, as a share of
	// the time the work has run: the one setting that trades requests for
	// promptness, the requests going about as 1 / Lateness. Zero means
	// 0.05; it must not be above 1.
	Lateness float64
	// MinInterval is the shortest pause between polls; zero means 1 s.
	MinInterval time.Duration
	// MaxInterval is the longest pause between polls; zero means 10 min.
	MaxInterval time.Duration
	// DisableEstimate ignores progress: the pause is always the one
	// without progress.
	DisableEstimate bool

	jitter *jitterSource // nil: math/rand/v2's global source
}

// DefaultPollPolicy returns the policy used when WithPollPolicy is not.
func DefaultPollPolicy() PollPolicy {
	return PollPolicy{Lateness: 0.05, MinInterval: time.Second, MaxInterval: 10 * time.Minute}
}

func (p PollPolicy) withDefaults() PollPolicy {
	d := DefaultPollPolicy()
	p.Lateness = cmp.Or(p.Lateness, d.Lateness)
	p.MinInterval = cmp.Or(p.MinInterval, d.MinInterval)
	p.MaxInterval = cmp.Or(p.MaxInterval, d.MaxInterval)
	return p
}

func (p PollPolicy) validate() error {
	if p.MinInterval < 0 || p.MaxInterval < 0 {
		return errors.New("facade: PollPolicy: intervals must not be negative")
	}
	if !(p.Lateness >= 0 && p.Lateness <= 1) {
		return fmt.Errorf("facade: PollPolicy.Lateness must be between 0 and 1, got %v", p.Lateness)
	}
	if q := p.withDefaults(); q.MinInterval > q.MaxInterval {
		return fmt.Errorf("facade: PollPolicy.MinInterval %v exceeds MaxInterval %v", q.MinInterval, q.MaxInterval)
	}
	return nil
}

// estimateSlack is added to an estimated finish so the poll lands after it.
const estimateSlack = 100 * time.Millisecond

// estimateCap is the longest pause an estimate may ask for while the pause
// without progress is shorter: progress that speeds up is seen within it.
const estimateCap = 30 * time.Second

// youngWork is the age below which work is paced as if it were that old:
// its polls are Lateness × 40 s apart (2 s at the default), not a
// vanishing share of a few seconds.
const youngWork = 40 * time.Second

// next returns the pause before poll n+1, n counting the polls made so far
// and elapsed the time since the work started. Without an estimate the
// pause depends on elapsed alone, not on n.
func (p PollPolicy) next(est estimator, n int, elapsed time.Duration) time.Duration {
	bound := p.bound(elapsed)
	if !p.DisableEstimate {
		if left, ok := est.remaining(); ok {
			return min(max(left+estimateSlack, p.MinInterval), max(bound, estimateCap), p.MaxInterval)
		}
	}
	return max(bound-p.jitter.below(bound/4+1), p.MinInterval)
}

// bound is the longest pause without progress at age elapsed:
// Lateness × max(elapsed, youngWork), within [MinInterval, MaxInterval].
func (p PollPolicy) bound(elapsed time.Duration) time.Duration {
	d := time.Duration(p.Lateness * float64(max(elapsed, youngWork)))
	return min(max(d, p.MinInterval), p.MaxInterval)
}

// jitterSource draws the jitter of polls from a source of its own, so that
// tests can repeat it; a nil *jitterSource draws from the global source.
type jitterSource struct {
	mu  sync.Mutex
	rnd *rand.Rand
}

// below returns a duration in [0, limit); limit must be positive.
func (s *jitterSource) below(limit time.Duration) time.Duration {
	if s == nil {
		return rand.N(limit)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Duration(s.rnd.Int64N(int64(limit)))
}

// estimator extrapolates progress (percent) over time.
//
// It is robust to a server whose progress says nothing of the finish: a
// value that is no percentage (NaN, infinite, below 0 or above 100) is
// ignored; an estimate too far off for time.Duration saturates at
// longestEstimate; and once the finish an estimate placed has passed with
// the work still under way (progress that went back, creeps, jitters or
// stands at 100 before the end), no estimate of the work is trusted again:
// its polls are paced by its age, as for work that reports no progress.
type estimator struct {
	t0, t1 time.Time
	p0, p1 float64
	ok     bool
	missed bool // an estimated finish passed with the work still under way
}

// longestEstimate is where an estimate saturates: far past any pause the
// policy takes, and well within time.Duration.
const longestEstimate = 100 * 365 * 24 * time.Hour

func (e *estimator) observe(progress *float64, now time.Time) {
	if progress == nil || !isPercent(*progress) {
		return
	}
	if left, ok := e.remaining(); ok && now.After(e.t1.Add(left)) {
		e.missed = true
	}
	p := *progress
	if !e.ok || p < e.p1 {
		e.t0, e.p0, e.ok = now, p, true
	}
	e.t1, e.p1 = now, p
}

// isPercent reports whether p is a percentage, 0 to 100.
func isPercent(p float64) bool { return p >= 0 && p <= 100 }

// remaining is the time from the last observation to the estimated
// finish; ok is false when there is no estimate to trust.
func (e estimator) remaining() (time.Duration, bool) {
	if !e.ok || e.missed {
		return 0, false
	}
	if e.p1 >= 100 {
		return 0, true
	}
	elapsed := e.t1.Sub(e.t0).Seconds()
	if elapsed <= 0 || e.p1 <= e.p0 {
		return 0, false
	}
	seconds := (100 - e.p1) / ((e.p1 - e.p0) / elapsed)
	if !(seconds < longestEstimate.Seconds()) {
		return longestEstimate, true
	}
	return time.Duration(seconds * float64(time.Second)), true
}
