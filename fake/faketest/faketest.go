package faketest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake"
)

// Epoch is the time a clock of [NewInstantClock] starts at:
// 2025-01-01 00:00 UTC.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// InstantClock is a [clock.Virtual] whose After advances it by the wait at
// once and fires: the code under test never blocks on it. Advance, Now and
// the rest are the embedded clock's. Pass it to fake.WithClock and
// facade.WithClock alike (both take a [clock.Clock]). It is safe for
// concurrent use; concurrent waits each advance it, so the time it reads
// is the sum of every wait.
//
// To start at another time, make one from a virtual clock:
// InstantClock{Virtual: clock.NewVirtual(start)}.
//
// A clock made by [NewInstantClock] has a horizon: a wait that would take
// it more than [Horizon] past [Epoch] panics, naming the wait. Code that
// polls for a state it never recognizes would otherwise spin through
// virtual time until the test's real deadline; with the horizon it fails
// at once, and the panic's stack names the test.
type InstantClock struct {
	*clock.Virtual
	horizon time.Time // zero: none
}

// Horizon is how much virtual time a test may spend on a clock of
// [NewInstantClock]: more than any wait a test means to take.
const Horizon = 24 * time.Hour

// NewInstantClock returns an instant clock that reads [Epoch] until it is
// waited on or advanced, with a horizon of [Horizon].
func NewInstantClock() InstantClock {
	return InstantClock{Virtual: clock.NewVirtual(Epoch), horizon: Epoch.Add(Horizon)}
}

// After advances the clock by d (nothing when d is zero or less) and
// returns a channel that holds the clock's time. It panics when the wait
// would take the clock past its horizon.
func (c InstantClock) After(d time.Duration) <-chan time.Time {
	if !c.horizon.IsZero() && c.Now().Add(d).After(c.horizon) {
		panic(fmt.Sprintf("faketest: a wait of %v takes the instant clock past %v of virtual time: "+
			"the code under test is waiting for something that never comes", d, Horizon))
	}
	c.Advance(max(d, 0))
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// AfterFunc returns a timer that is never called. On an instant clock the
// work a deadline races (the client's attempt, timed by its attempt
// timeout) takes no time, so its deadline never comes, however far the
// waits of others move the clock meanwhile.
func (c InstantClock) AfterFunc(time.Duration, func()) clock.Timer { return new(stillTimer) }

// stillTimer is a timer that is pending until stopped, and never fires.
type stillTimer struct {
	mu      sync.Mutex
	stopped bool
}

func (t *stillTimer) Reset(time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = false
	return was
}

func (t *stillTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// NewServer starts a licensed fake server on the real clock and closes it
// when the test ends. opts are applied after fake.WithLicense.
func NewServer(t testing.TB, opts ...fake.Option) *fake.Server {
	t.Helper()
	srv := fake.NewServer(append([]fake.Option{fake.WithLicense()}, opts...)...)
	t.Cleanup(srv.Close)
	return srv
}

// NewInstantServer starts a licensed fake server on a new [InstantClock]
// and closes it when the test ends. Give its clients the same clock
// (facade.WithClock) so that their waits advance the server's lifecycles.
// opts are applied after fake.WithLicense and fake.WithClock.
func NewInstantServer(t testing.TB, opts ...fake.Option) (*fake.Server, InstantClock) {
	t.Helper()
	srv, clk := StartInstantServer(opts...)
	t.Cleanup(srv.Close)
	return srv, clk
}

// StartInstantServer is [NewInstantServer] for code that has no test to
// close the server with, such as Example functions: the caller closes it.
func StartInstantServer(opts ...fake.Option) (*fake.Server, InstantClock) {
	clk := NewInstantClock()
	srv := fake.NewServer(append([]fake.Option{fake.WithLicense(), fake.WithClock(clk)}, opts...)...)
	return srv, clk
}
