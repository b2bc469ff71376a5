package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// silentServer accepts connections, reads what comes and never answers.
// requests receives a value whenever a connection has sent bytes.
type silentServer struct {
	url      string
	requests chan struct{}
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &silentServer{url: "http://" + ln.Addr().String() + "/api/v1", requests: make(chan struct{}, 64)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.swallow(conn)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return s
}

// swallow reads a connection until it closes, and says when bytes came.
func (s *silentServer) swallow(conn net.Conn) {
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			select {
			case s.requests <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// A server that accepts and never answers costs a request's
// --request-timeout per attempt, and the error names that limit.
func TestRequestTimeoutOnASilentServer(t *testing.T) {
	srv := newSilentServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r := scmContext(t, ctx, "", "projects", "--base-url", srv.url, "--api-key", testKey, "--request-timeout", "200ms")
	require.NoError(t, ctx.Err(), "scm projects --request-timeout 200ms did not end within 10s")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm projects: getProjects: attempt timed out: nothing moved for 200ms waiting for the response")
	assert.Contains(t, r.stderr, "(--request-timeout 200ms bounds each request's wait on the server; --timeout the whole command)")
}

// --timeout bounds a whole command, every attempt and retry wait included
// (as kubectl's --timeout does), and ends it as a failure (exit 1), not as
// an interrupt. --max-time, its former name, still works and says so.
func TestTimeoutBoundsTheWholeCommand(t *testing.T) {
	srv := newSilentServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	start := time.Now()
	r := scmContext(t, ctx, "", "projects", "--base-url", srv.url, "--api-key", testKey, "--timeout", "300ms", "--request-timeout", "100ms")
	require.NoError(t, ctx.Err(), "scm projects --timeout 300ms did not end within 10s")
	assert.Less(t, time.Since(start), 5*time.Second, "retries of 100 ms attempts do not outlast --timeout")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm projects: getProjects: ")
	assert.Regexp(t, `\(--timeout 300ms (passed|would pass before the next attempt ended)\)\n$|no answer before --timeout 300ms passed\n$`, r.stderr)

	r = scmContext(t, ctx, "", "projects", "--base-url", srv.url, "--api-key", testKey, "--request-timeout", "0", "--timeout", "300ms")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Equal(t, "scm projects: getProjects: no answer before --timeout 300ms passed\n", r.stderr)

	r = scmContext(t, ctx, "", "call", "getCurrentUser", "--base-url", srv.url, "--api-key", testKey, "--timeout", "300ms")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Equal(t, "scm call: getCurrentUser: no answer before --timeout 300ms passed\n", r.stderr)

	r = scmContext(t, ctx, "", "projects", "--base-url", srv.url, "--api-key", testKey, "--max-time", "300ms")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm: --max-time is the former name of --timeout, which bounds the whole command\n")
	assert.Contains(t, r.stderr, "scm projects: getProjects: no answer before --timeout 300ms passed\n")
	require.NoError(t, ctx.Err())
}

func TestTimeoutEndsAWait(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r := scmContext(t, ctx, "", append([]string{"run", "10303", "--wait", "--timeout", "500ms"}, flags...)...)
	require.NoError(t, ctx.Err())
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm run: --timeout 500ms passed: stopped waiting; run 10303 goes on\n")
	assert.Zero(t, srv.Calls("stopExperiment"))
}

// useVirtualClock makes the notices run on a virtual clock.
func useVirtualClock(t *testing.T) *fake.VirtualClock {
	t.Helper()
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	was := waitClock
	waitClock = clock
	t.Cleanup(func() { waitClock = was })
	return clock
}

// While a request has no answer, scm says on standard error what it waits
// for and how long, every 10 s of the clock and no more often.
func TestNoticeWhileWaiting(t *testing.T) {
	clock := useVirtualClock(t)
	srv := newSilentServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var stderr faketest.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"projects", "--base-url", srv.url, "--api-key", testKey, "--request-timeout", "0"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	waitFor(t, ctx, srv.requests, "the request to reach the silent server")
	advance := func(d time.Duration) {
		t.Helper()
		require.Eventually(t, func() bool { return clock.Waiters() == 1 }, 5*time.Second, time.Millisecond, "the notice's timer")
		clock.Advance(d)
	}
	advance(9 * time.Second)
	advance(time.Second)
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "no answer for 10s") }, 5*time.Second, time.Millisecond, stderr.String())
	advance(10 * time.Second)
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "no answer for 20s") }, 5*time.Second, time.Millisecond, stderr.String())
	cancel()
	assert.Equal(t, exitInterrupted, <-done)
	notices, _, _ := strings.Cut(stderr.String(), "scm projects:")
	assert.Equal(t, "scm: waiting for getProjects: no answer for 10s (no time limit per request; --request-timeout sets one, --timeout bounds the command)\n"+
		"scm: waiting for getProjects: no answer for 20s (no time limit per request; --request-timeout sets one, --timeout bounds the command)\n", notices)
}

func waitFor(t *testing.T, ctx context.Context, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-ctx.Done():
		t.Fatalf("waited 10s for %s", what)
	}
}

// However many requests wait, a notice comes at most once per interval.
func TestNoticeAtMostOncePerInterval(t *testing.T) {
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var out bytes.Buffer
	n := &notice{out: &out, every: 10 * time.Second, clock: clock, limit: time.Minute}
	n.say("getScenarios", 10*time.Second)
	n.say("getProjects", 10*time.Second)
	clock.Advance(9 * time.Second)
	n.say("getProjects", 19*time.Second)
	clock.Advance(time.Second)
	n.say("getProjects", 20*time.Second)
	assert.Equal(t, "scm: waiting for getScenarios: no answer for 10s (a request gives up after 1m0s of silence: --request-timeout, --timeout bounds the command)\n"+
		"scm: waiting for getProjects: no answer for 20s (a request gives up after 1m0s of silence: --request-timeout, --timeout bounds the command)\n", out.String())
}

// A key that would go over plain http to another machine is refused before
// anything is sent, and scm names the flag that allows it.
func TestPlainHTTPNamesTheFlag(t *testing.T) {
	r := scm(t, "", "projects", "--base-url", "http://scm.example.com/api/v1", "--api-key", testKey)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "refusing to send the API key over plain http to scm.example.com")
	assert.Contains(t, r.stderr, "use https or --insecure-http")
	assert.NotContains(t, r.stderr, testKey)
}
