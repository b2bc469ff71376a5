package clock_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
)

var (
	_ clock.Clock = clock.Real{}
	_ clock.Clock = (*clock.Virtual)(nil)
)

var start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// fired reports whether ch has a value now, and that value.
func fired(ch <-chan time.Time) (time.Time, bool) {
	select {
	case t := <-ch:
		return t, true
	default:
		return time.Time{}, false
	}
}

func TestVirtualMovesOnlyWhenAdvanced(t *testing.T) {
	c := clock.NewVirtual(start)
	ch := c.After(10 * time.Second)
	assert.Equal(t, start, c.Now())
	assert.Equal(t, 1, c.Waiters())
	c.Advance(9 * time.Second)
	_, ok := fired(ch)
	assert.False(t, ok, "fired 1 s early")
	c.Advance(time.Second)
	at, ok := fired(ch)
	require.True(t, ok, "not fired when its time came")
	assert.Equal(t, start.Add(10*time.Second), at)
	assert.Equal(t, start.Add(10*time.Second), c.Now())
	assert.Zero(t, c.Waiters())
}

func TestVirtualFiresInTimeOrder(t *testing.T) {
	c := clock.NewVirtual(start)
	late, early := c.After(3*time.Second), c.After(time.Second)
	kept := c.After(time.Hour)
	c.Advance(5 * time.Second)
	for name, ch := range map[string]<-chan time.Time{"late": late, "early": early} {
		at, ok := fired(ch)
		require.True(t, ok, name)
		assert.Equal(t, start.Add(5*time.Second), at, "%s receives the time of the advance", name)
	}
	_, ok := fired(kept)
	assert.False(t, ok)
	assert.Equal(t, 1, c.Waiters())
}

func TestVirtualAfterZeroFiresAtOnce(t *testing.T) {
	c := clock.NewVirtual(start)
	for _, d := range []time.Duration{0, -time.Second} {
		at, ok := fired(c.After(d))
		require.True(t, ok, "After(%v)", d)
		assert.Equal(t, start, at)
	}
	assert.Zero(t, c.Waiters())
}

func TestBlockUntilWaitersReturnsOnceSomeoneWaits(t *testing.T) {
	c := clock.NewVirtual(start)
	unblocked := make(chan struct{})
	go func() {
		c.BlockUntilWaiters(2)
		close(unblocked)
	}()
	c.After(time.Second)
	select {
	case <-unblocked:
		t.Fatal("BlockUntilWaiters(2) returned with one waiter")
	case <-time.After(20 * time.Millisecond):
	}
	c.After(time.Second)
	select {
	case <-unblocked:
	case <-time.After(10 * time.Second):
		t.Fatal("BlockUntilWaiters(2) still blocked with two waiters after 10 s")
	}
}

func TestRealIsTheSystemClock(t *testing.T) {
	before := time.Now()
	now := clock.Real{}.Now()
	assert.False(t, now.Before(before))
	select {
	case at := <-clock.Real{}.After(time.Millisecond):
		assert.False(t, at.Before(before.Add(time.Millisecond)))
	case <-time.After(10 * time.Second):
		t.Fatal("Real.After(1ms) did not fire within 10 s")
	}
}

// A run that takes a minute, seen by a waiter on a virtual clock: the test
// moves time and nothing sleeps.
func ExampleVirtual() {
	clk := clock.NewVirtual(time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC))
	done := clk.After(time.Minute)
	for range 2 {
		clk.Advance(30 * time.Second)
		select {
		case at := <-done:
			fmt.Println("fired at", at.Format(time.TimeOnly))
		default: // a virtual clock fires in Advance, or not at all
			fmt.Println("waiting at", clk.Now().Format(time.TimeOnly))
		}
	}
	// Output:
	// waiting at 09:00:30
	// fired at 09:01:00
}

var (
	_ clock.TimerClock = clock.Real{}
	_ clock.TimerClock = (*clock.Virtual)(nil)
)

// calls counts the calls of a timer's function and tells of each.
type calls struct{ ch chan struct{} }

func newCalls() *calls     { return &calls{ch: make(chan struct{}, 8)} }
func (c *calls) f()        { c.ch <- struct{}{} }
func (c *calls) made() int { return len(c.ch) }
func (c *calls) await(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: the timer's function was not called within 5 s", what)
	}
}

func TestVirtualAfterFuncCallsOnceItsTimeHasCome(t *testing.T) {
	c := clock.NewVirtual(start)
	called := newCalls()
	timer := c.AfterFunc(10*time.Second, called.f)
	c.Advance(9 * time.Second)
	assert.Zero(t, c.Waiters(), "a timer is not a waiter: nobody blocks on it")
	// Pending a second before its time: Reset for the second left keeps it
	// due when it was.
	require.True(t, timer.Reset(time.Second), "fired 1 s early")
	c.Advance(time.Second)
	called.await(t, "at its time")
	assert.False(t, timer.Stop(), "a timer that fired is not pending")
	c.Advance(time.Hour)
	assert.False(t, timer.Stop(), "a timer that fired became pending again")
}

func TestVirtualTimerStopAndReset(t *testing.T) {
	c := clock.NewVirtual(start)
	called := newCalls()
	timer := c.AfterFunc(10*time.Second, called.f)
	assert.True(t, timer.Stop(), "a new timer is pending")
	c.Advance(time.Minute)

	assert.False(t, timer.Reset(5*time.Second), "a stopped timer was not pending, nor fired")
	c.Advance(4 * time.Second)
	// Pending 4 s after Reset: measured from the Reset, not from the
	// timer's start. Reset for the second left keeps it due when it was.
	require.True(t, timer.Reset(time.Second), "Reset measured from the timer's start, not from now")
	c.Advance(time.Second)
	called.await(t, "after Reset")
	assert.Zero(t, called.made(), "the stopped timer was called too")

	moved := c.AfterFunc(10*time.Second, called.f)
	c.Advance(4 * time.Second)
	require.True(t, moved.Reset(10*time.Second), "a timer not yet due is pending")
	c.Advance(7 * time.Second) // past its first time, before its new one
	assert.True(t, moved.Stop(), "Reset of a pending timer kept the time it had")
}

func TestVirtualAfterFuncOfNoTimeCallsAtOnce(t *testing.T) {
	c := clock.NewVirtual(start)
	called := newCalls()
	c.AfterFunc(0, called.f)
	called.await(t, "a timer of 0")
	timer := c.AfterFunc(time.Hour, called.f)
	timer.Reset(-time.Second)
	called.await(t, "a timer reset to a negative duration")
	assert.False(t, timer.Stop(), "a timer that fired is not pending")
}

func TestRealAfterFuncCalls(t *testing.T) {
	called := newCalls()
	clock.Real{}.AfterFunc(time.Millisecond, called.f)
	called.await(t, "the real clock's timer")
}
