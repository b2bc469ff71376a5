package facade

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// The synchronous run is held open by the server for the whole run: with
// the default attempt timeout (60 s), a two-hour run answers, as the
// README's snippet needs. The attempt timeout's clock and the server's are
// virtual: hours pass in no time.
func TestHeldOpenCallOutlivesTheAttemptTimeout(t *testing.T) {
	op, _ := gen.LookupOperation(string(gen.OpRunExperimentSynchronously))
	require.True(t, op.HeldOpen, "the spec marks the synchronous run x-held-open")
	serverClock := clock.NewVirtual(faketest.Epoch)
	srv := faketest.NewServer(t, fake.WithAPIKeys(testKey), fake.WithClock(serverClock), fake.WithRunDuration(2*time.Hour))
	watch := newManualClock()
	c := newTestClient(t, srv.URL, withWatchClock(watch)) // the default attempt timeout
	require.Equal(t, time.Minute, c.cfg.attemptTimeout)

	done := make(chan error, 1)
	go func() {
		_, err := c.Experiments.RunSync(testCtx(t), 10303)
		done <- err
	}()
	serverClock.BlockUntilWaiters(1) // the run is under way, the call held open
	for range 120 {                  // two hours of the attempt timeout's clock, a minute at a time
		watch.Advance(time.Minute)
		select {
		case err := <-done:
			t.Fatalf("the call ended before the run did: %v", err)
		default:
		}
	}
	serverClock.Advance(2 * time.Hour)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-testCtx(t).Done():
		t.Fatal("runExperimentSynchronously did not answer once the run had ended")
	}
}

// A call the server does not hold open still ends when nothing moves for
// the attempt timeout after its request was written: the exemption is the
// held-open operations', not every call's.
func TestNotHeldOpenCallStillTimesOut(t *testing.T) {
	op, _ := gen.LookupOperation(string(gen.OpGetExperimentStatus))
	require.False(t, op.HeldOpen)
	srv := faketest.NewServer(t, fake.WithAPIKeys(testKey))
	srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultLatency, Latency: time.Hour, Times: 100})
	watch := newManualClock()
	c := newTestClient(t, srv.URL, withWatchClock(watch), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	go func() {
		_, err := c.Experiments.Status(ctx, 10303)
		done <- err
	}()
	for {
		select {
		case err := <-done:
			assert.ErrorIs(t, err, ErrTimeout)
			return
		case <-ctx.Done():
			t.Fatal("getExperimentStatus was not cut by the attempt timeout")
		case <-time.After(time.Millisecond):
			watch.Advance(time.Minute)
		}
	}
}
