package clock

import "time"

// Clock is a time source: what time it is, and a channel that fires after a
// while. The client's retries and polling and the fake server's lifecycles
// read time only through it.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// Real is the system clock: time.Now and time.After.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }
