package facade

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake/faketest"
)

// silentListener accepts TCP connections and never writes on them: a TLS
// handshake with it never completes, and a request to it is never
// answered. It counts the connections, or with read the bytes it reads.
func silentListener(t *testing.T, read bool) (string, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var accepted atomic.Int32
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			if !read {
				accepted.Add(1)
				continue
			}
			go countBytes(c, &accepted)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String(), &accepted
}

func countBytes(c net.Conn, n *atomic.Int32) {
	buf := make([]byte, 4<<10)
	for {
		m, err := c.Read(buf)
		n.Add(int32(m))
		if err != nil {
			return
		}
	}
}

// startAgainstSilence sends runExperiment, which changes state and has no
// body, and once the listener has a connection (or bytes) moves the watchdog's clock
// a minute every millisecond until the call returns.
func startAgainstSilence(t *testing.T, c *Client, clk *clock.Virtual, accepted *atomic.Int32) error {
	done := make(chan error, 1)
	go func() {
		done <- c.Experiments.StartPrepared(testCtx(t), preparedRun(c, 7, 1), nil)
	}()
	for {
		select {
		case err := <-done:
			return err
		case <-testCtx(t).Done():
			t.Fatal("runExperiment did not return while the watchdog's clock moved")
		case <-time.After(time.Millisecond):
			if accepted.Load() > 0 {
				clk.Advance(time.Minute)
			}
		}
	}
}

// A state-changing request without a body that stalls before any of it
// was written (here in a TLS handshake that never completes) was not sent:
// it is not reported as possibly applied, and it is tried again.
func TestStallBeforeTheRequestWasWrittenIsNotApplied(t *testing.T) {
	addr, accepted := silentListener(t, false)
	clk := newManualClock()
	c := newTestClient(t, "https://"+addr+"/api/v1", WithAttemptTimeout(time.Minute),
		WithClock(faketest.NewInstantClock()), withWatchClock(clk)) // retries at once, the attempt timeout on clk
	err := startAgainstSilence(t, c, clk, accepted)
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.False(t, errors.Is(err, ErrMayHaveBeenApplied), "%v", err)
	assert.False(t, reqErr.MayHaveBeenApplied)
	assert.Contains(t, err.Error(), "nothing moved for 1m0s while connecting")
	assert.Len(t, reqErr.Attempts, fastRetries.MaxAttempts, "nothing was sent, so it is tried again")
}

// The same stall ended by the caller's context: nothing was sent.
func TestCancelBeforeTheRequestWasWrittenIsNotApplied(t *testing.T) {
	addr, accepted := silentListener(t, false)
	c := newTestClient(t, "https://"+addr+"/api/v1", WithAttemptTimeout(0))
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	go func() {
		for accepted.Load() == 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := c.Experiments.Start(ctx, 7, nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, errors.Is(err, ErrMayHaveBeenApplied), "%v", err)
	assert.NoError(t, testCtx(t).Err(), "the call ended with its own context")
}

// Once the request was written, a server that never answers may have
// acted on it: a state-changing request is reported as possibly applied
// and not sent again.
func TestStallAfterTheRequestWasWrittenMayHaveBeenApplied(t *testing.T) {
	addr, received := silentListener(t, true)
	clk := newManualClock()
	c := newTestClient(t, "http://"+addr+"/api/v1", WithAttemptTimeout(time.Minute),
		WithClock(faketest.NewInstantClock()), withWatchClock(clk)) // retries at once, the attempt timeout on clk
	err := startAgainstSilence(t, c, clk, received)
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Contains(t, err.Error(), "nothing moved for 1m0s waiting for the response")
	assert.Len(t, reqErr.Attempts, 1, "sent once")
}
