package clock

import (
	"sort"
	"sync"
	"time"
)

// Virtual is a [Clock] that moves only when told to, with [Virtual.Advance].
// It is safe for concurrent use.
type Virtual struct {
	mu      sync.Mutex
	cond    *sync.Cond
	now     time.Time
	waiters []waiter
	timers  []*virtualTimer // pending calls of AfterFunc, in no order
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewVirtual returns a clock that reads start until it is advanced.
func NewVirtual(start time.Time) *Virtual {
	c := &Virtual{now: start}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// Now returns the clock's current time.
func (c *Virtual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives the clock's time once the clock has
// been advanced by at least d. A d of zero or less fires at once.
func (c *Virtual) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{at: c.now.Add(d), ch: ch})
	c.cond.Broadcast()
	return ch
}

// Advance moves the clock forward by d and fires every After channel whose
// time has come, in time order, and calls every function of AfterFunc
// whose time has come, each on its own goroutine.
func (c *Virtual) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	sort.SliceStable(c.waiters, func(i, j int) bool { return c.waiters[i].at.Before(c.waiters[j].at) })
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	clear(c.waiters[len(kept):]) // the fired channels are not kept reachable
	c.waiters = kept
	for _, f := range c.dueTimers() {
		go f()
	}
}

// Waiters returns how many After channels have not fired yet. Pending
// calls of AfterFunc are not waiters: nobody blocks on them.
func (c *Virtual) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// BlockUntilWaiters blocks until at least n After channels are pending. A
// test uses it to advance the clock only once the code under test (for
// example the fake's runExperimentSynchronously) is waiting on it.
func (c *Virtual) BlockUntilWaiters(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.waiters) < n {
		c.cond.Wait()
	}
}
