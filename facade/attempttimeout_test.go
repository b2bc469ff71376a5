package facade

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake/faketest"
)

// heldAnswer serves an answer only once release is closed, and signals
// the first request's arrival.
type heldAnswer struct {
	arrived, release chan struct{}
	once             sync.Once
}

func newHeldAnswer() *heldAnswer {
	return &heldAnswer{arrived: make(chan struct{}), release: make(chan struct{})}
}

func (h *heldAnswer) serve(w http.ResponseWriter, r *http.Request) {
	h.once.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
		fmt.Fprint(w, `{"id":1,"username":"demo"}`)
	case <-r.Context().Done():
	}
}

// silent never answers: it holds every request until the client gives up.
func silent(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// WithAttemptTimeout(0) means no attempt timeout: an answer that comes
// only after a client with an attempt timeout gave up on the same silence
// still arrives. The held request is sent first, so it has waited longer
// than the other client's limit when its answer comes.
func TestNoAttemptTimeoutWaitsForASlowAnswer(t *testing.T) {
	held := newHeldAnswer()
	_, patient := newStub(t, held.serve, WithAttemptTimeout(0))
	_, hasty := newStub(t, silent, WithAttemptTimeout(20*time.Millisecond), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := testCtx(t)
	answered := make(chan error, 1)
	go func() {
		_, err := patient.User.Current(ctx)
		answered <- err
	}()
	select {
	case <-held.arrived:
	case err := <-answered:
		t.Fatalf("the client without an attempt timeout ended before the server had its request: %v", err)
	case <-ctx.Done():
		t.Fatal("the request of the client without an attempt timeout did not reach the server within 10 s")
	}
	_, err := hasty.User.Current(ctx)
	require.ErrorIs(t, err, ErrTimeout, "a client with an attempt timeout gives up on the same silence")
	close(held.release)
	select {
	case err := <-answered:
		assert.NoError(t, err, "the slow answer arrives")
	case <-ctx.Done():
		t.Fatal("the held answer did not arrive within 10 s of its release")
	}
}

// The attempt timeout runs on the clock WithClock injects: a virtual
// minute of silence ends the attempt, with no real minute waited. A clock
// that has only After (no timers of its own) is timed by timers made of it.
func TestAttemptTimeoutRunsOnTheInjectedClock(t *testing.T) {
	for name, wrap := range map[string]func(*clock.Virtual) Clock{
		"timers of its own": func(v *clock.Virtual) Clock { return v },
		"After only":        func(v *clock.Virtual) Clock { return struct{ Clock }{v} },
	} {
		t.Run(name, func(t *testing.T) {
			clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
			checkAttemptTimeoutOn(t, clk, wrap(clk))
		})
	}
}

func checkAttemptTimeoutOn(t *testing.T, clk *clock.Virtual, injected Clock) {
	held := newHeldAnswer()
	_, c := newStub(t, held.serve, WithClock(injected), WithAttemptTimeout(time.Minute), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := testCtx(t)
	answered := make(chan error, 1)
	go func() {
		_, err := c.User.Current(ctx)
		answered <- err
	}()
	select {
	case <-held.arrived:
	case <-ctx.Done():
		t.Fatal("the request did not reach the server within 10 s")
	}
	clk.Advance(59 * time.Second)
	select {
	case err := <-answered:
		t.Fatalf("the attempt ended a second before its timeout on the injected clock: %v", err)
	default: // the watchdog has no timer due: nothing of it runs until the clock moves again
	}
	clk.Advance(time.Second)
	select {
	case err := <-answered:
		require.ErrorIs(t, err, ErrTimeout)
		assert.Contains(t, err.Error(), "nothing moved for 1m0s waiting for the response")
	case <-ctx.Done():
		t.Fatal("the attempt did not time out within 10 s of the injected clock's minute")
	}
}

// On an instant clock the work an attempt waits for takes no time: other
// waits that move the clock by hours meanwhile do not time it out.
func TestAttemptTimeoutNeverComesOnAnInstantClock(t *testing.T) {
	clk := faketest.NewInstantClock()
	var answer http.HandlerFunc = func(w http.ResponseWriter, _ *http.Request) {
		for range 3 {
			<-clk.After(time.Hour)
		}
		fmt.Fprint(w, `{"id":1,"username":"demo"}`)
	}
	_, c := newStub(t, answer, WithClock(clk), WithAttemptTimeout(time.Minute), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err, "an attempt on an instant clock timed out")
	assert.Equal(t, faketest.Epoch.Add(3*time.Hour), clk.Now(), "the waits moved the clock")
}
