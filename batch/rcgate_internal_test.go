package batch

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/ids"
)

// recv waits for a value of ch, failing the test after a few seconds.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		require.FailNow(t, "timed out waiting for "+what)
		panic("unreachable")
	}
}

// An item whose run was under way when the batch began uses its run
// configuration first, even when another item asks for it while it is free;
// the others go one at a time.
func TestRCGateUnderWayGoesFirst(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	g := newRCGate(map[ids.RcID]map[string]bool{7: {"a": true}})
	waitsFor := make(chan string, 1)
	entered := make(chan string, 1)
	go func() {
		release, err := g.enter(ctx, 7, "b", func(holder string) { waitsFor <- holder })
		if err == nil {
			entered <- "b"
			release()
		}
	}()
	assert.Equal(t, "a", recv(t, waitsFor, "b to queue"), "b waits for a, whose run was under way")

	releaseA, err := g.enter(ctx, 7, "a", func(string) { t.Error("a waited") })
	require.NoError(t, err)
	select {
	case <-entered:
		t.Fatal("b entered while a used the run configuration")
	case <-time.After(20 * time.Millisecond):
	}
	releaseA()
	assert.Equal(t, "b", recv(t, entered, "b to enter once a left"))
	assert.True(t, g.waited("b"))
	assert.False(t, g.waited("a"))

	release, err := g.enter(ctx, 8, "c", func(string) { t.Error("c waited for a free run configuration") })
	require.NoError(t, err)
	release()
}

// An item under way that ends without using its run configuration lets
// the queued ones go; a queued item whose context ends stops waiting.
func TestRCGateForgetAndCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	g := newRCGate(map[ids.RcID]map[string]bool{7: {"a": true}})
	queued := make(chan string, 1)
	entered := make(chan error, 1)
	go func() {
		release, err := g.enter(ctx, 7, "b", func(h string) { queued <- h })
		if err == nil {
			release()
		}
		entered <- err
	}()
	recv(t, queued, "b to queue")
	g.forget("a")
	assert.NoError(t, recv(t, entered, "b to enter once a ended"))

	hold, err := g.enter(ctx, 7, "c", func(string) {})
	require.NoError(t, err)
	defer hold()
	short, stop := context.WithCancel(ctx)
	go func() {
		_, err := g.enter(short, 7, "d", func(string) { stop() })
		entered <- err
	}()
	assert.ErrorIs(t, recv(t, entered, "d to give up"), context.Canceled)
}
