package clock

import "time"

// Timer is a call of a function that is pending on a clock, as a
// *time.Timer made by time.AfterFunc is.
type Timer interface {
	// Reset makes the call pending again, d from the clock's now; it
	// reports whether it was pending.
	Reset(d time.Duration) bool
	// Stop keeps the call from being made; it reports whether it was
	// pending.
	Stop() bool
}

// TimerClock is a [Clock] that also calls a function once a while has
// passed on it, as time.AfterFunc does. The client measures an attempt's
// timeout on it: an attempt is work that races its deadline, which a wait
// on After, that blocks until the clock moves, cannot time. [Real] and
// [Virtual] are TimerClocks.
type TimerClock interface {
	Clock
	AfterFunc(d time.Duration, f func()) Timer
}

// AfterFunc calls f on its own goroutine after d: time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
