package facade

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake/faketest"
)

// busyServer answers every request 503 with Retry-After retryAfter
// seconds, and counts the requests.
func busyServer(t *testing.T, retryAfter int, opts ...Option) (*Client, *atomic.Int32) {
	var requests atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Retry-After", fmt.Sprint(retryAfter))
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"message":"busy"}`)
	}, opts...)
	return c, &requests
}

// waitForWaiters returns once n waits are pending on clk, failing the test
// when ctx ends first.
func waitForWaiters(t *testing.T, ctx context.Context, clk *clock.Virtual, n int) {
	t.Helper()
	for clk.Waiters() < n {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %d waits on the client's clock: %v", n, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// A call cancelled while it waits to retry returns the failure it was
// retrying with the cancellation: errors.Is finds both, and the message is
// one line.
func TestCancelDuringRetryWaitKeepsTheLastFailure(t *testing.T) {
	clk := clock.NewVirtual(faketest.Epoch)
	c, requests := busyServer(t, 1, WithClock(clk))
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.User.Current(ctx)
		done <- err
	}()
	waitForWaiters(t, testCtx(t), clk, 1)
	cancel()
	var err error
	select {
	case err = <-done:
	case <-testCtx(t).Done():
		t.Fatal("the call did not return after its context was cancelled")
	}
	assert.ErrorIs(t, err, context.Canceled)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr, "the failure retried is kept")
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.Equal(t, "busy", apiErr.Message)
	require.Len(t, apiErr.Attempts, 1)
	assert.Zero(t, apiErr.Attempts[0].Delay, "no attempt followed")
	assert.Equal(t, int32(1), requests.Load())
	assert.NotContains(t, err.Error(), "\n")
	assert.Contains(t, err.Error(), "busy")
}

// A retry whose wait would end after the context's deadline is not waited
// for: the call returns at once with the failure and DeadlineExceeded. The
// deadline is real time, so this holds on the real clock; on an injected
// clock the wait runs on that clock, and ends with the context.
func TestRetryWaitPastTheDeadlineIsNotBegun(t *testing.T) {
	policy := fastRetries
	policy.MaxRetryAfter = time.Hour
	c, requests := busyServer(t, 60, WithRetryPolicy(policy)) // the real clock
	ctx := testCtx(t)                                         // ends in 10 s, before the 60 s the server asks for
	_, err := c.User.Current(ctx)
	require.Error(t, err)
	assert.NoError(t, ctx.Err(), "the call returned before its context ended: no wait was begun")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, time.Minute, apiErr.RetryAfter)
	assert.True(t, errors.Is(err, ErrServer))
	assert.Equal(t, int32(1), requests.Load())
	assert.Equal(t, 1, strings.Count(err.Error(), "busy"))

	clk := clock.NewVirtual(faketest.Epoch)
	c, requests = busyServer(t, 60, WithClock(clk), WithRetryPolicy(policy))
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() { _, err := c.User.Current(ctx); done <- err }()
	waitForWaiters(t, testCtx(t), clk, 1) // the wait runs on the injected clock, not measured against the real deadline
	cancel()
	select {
	case err = <-done:
	case <-testCtx(t).Done():
		t.Fatal("the call did not return after its context was cancelled")
	}
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int32(1), requests.Load())
}
