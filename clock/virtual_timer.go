package clock

import "time"

// virtualTimer is a call of AfterFunc pending on a Virtual clock.
type virtualTimer struct {
	c       *Virtual
	at      time.Time
	f       func()
	pending bool
}

// AfterFunc calls f on its own goroutine once the clock has been advanced
// by at least d; at once when d is zero or less.
func (c *Virtual) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &virtualTimer{c: c, f: f}
	t.arm(d)
	return t
}

// arm makes t pending at d from now, or calls it at once when d is zero or
// less; c.mu is held.
func (t *virtualTimer) arm(d time.Duration) {
	if d <= 0 {
		if t.pending {
			t.pending = false
			t.c.dropTimer(t)
		}
		go t.f()
		return
	}
	t.at = t.c.now.Add(d)
	if !t.pending {
		t.pending = true
		t.c.timers = append(t.c.timers, t)
	}
}

// Reset makes the call pending again, d from the clock's now.
func (t *virtualTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.pending
	t.arm(d)
	return was
}

// Stop keeps the call from being made.
func (t *virtualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.pending
	if was {
		t.pending = false
		t.c.dropTimer(t)
	}
	return was
}

// dropTimer removes t from the pending timers; c.mu is held.
func (c *Virtual) dropTimer(t *virtualTimer) {
	for i, p := range c.timers {
		if p == t {
			last := len(c.timers) - 1
			c.timers[i], c.timers[last] = c.timers[last], nil
			c.timers = c.timers[:last]
			return
		}
	}
}

// dueTimers takes the timers whose time has come off the pending ones and
// returns their functions; c.mu is held.
func (c *Virtual) dueTimers() []func() {
	var due []func()
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.pending = false
		due = append(due, t.f)
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	return due
}
