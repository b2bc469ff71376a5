package facade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// obsRecorder is an Observer that writes a line per event, and checks that
// every End gets the context its Start returned.
type obsRecorder struct {
	mu     sync.Mutex
	lines  []string
	infos  []any // every info and result given, for the secrets check
	t      testing.TB
	header string // added to every attempt's headers, when set
}

type obsSpanKey struct{}

func (r *obsRecorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
	r.infos = append(r.infos, args...)
}

func (r *obsRecorder) Lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// start returns ctx marked with what started it, which the end checks.
func (r *obsRecorder) start(ctx context.Context, what string) context.Context {
	return context.WithValue(ctx, obsSpanKey{}, what)
}

func (r *obsRecorder) check(ctx context.Context, what string) {
	if got, _ := ctx.Value(obsSpanKey{}).(string); got != what {
		r.t.Errorf("the end of %s has the context of %q", what, got)
	}
}

func (r *obsRecorder) CallStart(ctx context.Context, c CallInfo) context.Context {
	r.add("call %s changes=%v", c.Operation, c.ChangesState)
	return r.start(ctx, "call "+c.Operation)
}

func (r *obsRecorder) CallEnd(ctx context.Context, c CallInfo, res CallResult) {
	r.check(ctx, "call "+c.Operation)
	r.add("end call %s attempts=%d err=%v", c.Operation, res.Attempts, res.Err != nil)
}

func (r *obsRecorder) AttemptStart(ctx context.Context, a AttemptInfo) context.Context {
	r.check(ctx, "call "+a.Operation) // an attempt is inside its call
	if r.header != "" {
		a.Header.Set("Traceparent", r.header)
	}
	r.add("attempt %s #%d %s %s auth=%q", a.Operation, a.N, a.Method, a.URL.Path, a.Header.Get("Authorization"))
	return r.start(ctx, fmt.Sprintf("attempt %s #%d", a.Operation, a.N))
}

func (r *obsRecorder) AttemptEnd(ctx context.Context, a AttemptInfo, res AttemptResult) {
	r.check(ctx, fmt.Sprintf("attempt %s #%d", a.Operation, a.N))
	r.add("end attempt #%d status=%d err=%v", a.N, res.Status, res.Err != nil)
}

func (r *obsRecorder) RetryWait(ctx context.Context, ri RetryInfo) {
	r.check(ctx, "call "+ri.Operation)
	r.add("retry after #%d: %s (status %d) in %v applied=%v", ri.Attempt, ri.Reason, ri.Status, ri.Delay, ri.MayHaveBeenApplied)
}

func (r *obsRecorder) WaitStart(ctx context.Context, w WaitInfo) context.Context {
	r.add("wait %s %d via %s", w.Kind, w.ID, w.Operation)
	return r.start(ctx, "wait")
}

func (r *obsRecorder) WaitPoll(ctx context.Context, w WaitInfo, p PollInfo) {
	r.add("poll %s #%d %q<-%q changed=%v", w.Kind, p.N, p.State, p.Previous, p.Changed)
}

func (r *obsRecorder) WaitEnd(ctx context.Context, w WaitInfo, res WaitResult) {
	r.check(ctx, "wait")
	r.add("end wait %s polls=%d state=%s err=%v", w.Kind, res.Polls, res.State, res.Err)
}

func (r *obsRecorder) StepStart(ctx context.Context, s StepInfo) context.Context {
	r.add("step %s %q id=%d #%d", s.Kind, s.Name, s.ID, s.Index)
	return r.start(ctx, "step")
}

func (r *obsRecorder) StepEnd(ctx context.Context, s StepInfo, err error) {
	r.check(ctx, "step")
	r.add("end step %s err=%v", s.Kind, err)
}

// A read answered 503 twice: a call, three attempts, two retry waits with
// their reason and delay, in that order, and each end under its start's
// context.
func TestObserverSeesCallAttemptsAndRetries(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"message":"busy"}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"username":"demo"}`)
	}, WithClock(faketest.NewInstantClock()))
	rec := &obsRecorder{t: t}
	c.cfg.observer = rec // as WithObserver sets it, on the stub's client
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"call getCurrentUser changes=false",
		`attempt getCurrentUser #1 GET /api/v1/open/user auth=""`,
		"end attempt #1 status=503 err=false",
		"retry after #1: status 503 (status 503) in 1s applied=false",
		`attempt getCurrentUser #2 GET /api/v1/open/user auth=""`,
		"end attempt #2 status=503 err=false",
		"retry after #2: status 503 (status 503) in 1s applied=false",
		`attempt getCurrentUser #3 GET /api/v1/open/user auth=""`,
		"end attempt #3 status=200 err=false",
		"end call getCurrentUser attempts=3 err=false",
	}, rec.Lines())
}

// A call that fails ends with its error and the attempts it made; a
// state-changing one is said to change state.
func TestObserverSeesFailedCall(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"no"}`, http.StatusBadRequest)
	})
	rec := &obsRecorder{t: t}
	c.cfg.observer = rec
	_, err := c.User.RequestLicense(testCtx(t))
	require.Error(t, err)
	lines := rec.Lines()
	assert.Equal(t, "call requestLicense changes=true", lines[0])
	assert.Equal(t, "end call requestLicense attempts=1 err=true", lines[len(lines)-1])
}

// What AttemptStart adds to the headers reaches the server, and the
// context it returns is the request's, which the transport sees; the
// Authorization header is not among the headers it is shown.
func TestObserverAttemptContextAndHeaders(t *testing.T) {
	var got, auth atomic.Value
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Traceparent"))
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"username":"demo"}`)
	})
	rec := &obsRecorder{t: t, header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
	c.cfg.observer = rec
	seen, inner := "", c.hc.Transport
	c.hc.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen, _ = r.Context().Value(obsSpanKey{}).(string)
		return inner.RoundTrip(r)
	})
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, rec.header, got.Load())
	assert.Equal(t, testKey, auth.Load(), "the key still reaches the server")
	assert.Equal(t, "attempt getCurrentUser #1", seen)
	assert.Contains(t, rec.Lines(), `attempt getCurrentUser #1 GET /api/v1/open/user auth=""`)
}

// A run's wait: the wait, each poll with the state before it, and its end
// with the polls it made and the last state; the polls' calls are inside
// the wait.
func TestObserverSeesRunWait(t *testing.T) {
	_, c, _ := newVirtualFake(t, 30*time.Second)
	run, err := c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	rec := &obsRecorder{t: t}
	c.cfg.observer = rec
	_, err = run.Wait(testCtx(t), nil)
	require.NoError(t, err)
	lines := rec.Lines()
	require.NotEmpty(t, lines)
	assert.Equal(t, "wait run 10101 via getExperimentStatus", lines[0])
	var polls, changes []string
	for _, l := range lines {
		if strings.HasPrefix(l, "poll ") {
			polls = append(polls, l)
			if strings.HasSuffix(l, "changed=true") {
				changes = append(changes, l)
			}
		}
	}
	require.NotEmpty(t, polls)
	assert.Equal(t, EvidenceOf(run).Polls, len(polls))
	assert.Equal(t, fmt.Sprintf("end wait run polls=%d state=FINISHED err=<nil>", EvidenceOf(run).Polls), lines[len(lines)-1])
	assert.Contains(t, changes[len(changes)-1], `"FINISHED"<-`, "the end is a change of state")
	assert.Contains(t, lines, "call getExperimentStatus changes=false")
}

// A job's wait that fails ends with the *StateError.
func TestObserverSeesFailedJobWait(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ERROR","error":"broken"}`)
	})
	rec := &obsRecorder{t: t}
	c.cfg.observer = rec
	_, err := c.Job(7).Wait(testCtx(t), nil)
	var stateErr *StateError
	require.ErrorAs(t, err, &stateErr)
	lines := rec.Lines()
	assert.Contains(t, lines, `poll job #1 "ERROR"<-"" changed=true`)
	assert.Contains(t, lines[len(lines)-1], "end wait job polls=1 state=ERROR err=facade: job 7 ended in state ERROR")
}

// startStep (internal/steps.Start) gives the observer the step and its context, and ends it with
// the error; without an observer it returns the context as it is.
func TestStartStep(t *testing.T) {
	_, c := newStub(t, func(http.ResponseWriter, *http.Request) {})
	ctx := testCtx(t)
	got, end := c.startStep(ctx, StepInfo{Kind: "dashboard.page"})
	assert.Equal(t, ctx, got)
	end(nil)

	rec := &obsRecorder{t: t}
	c.cfg.observer = rec
	_, end = c.startStep(ctx, StepInfo{Kind: "dashboard.page", Name: "Overview", ID: 3, Index: 1})
	failure := errors.New("broken with " + testKey)
	end(failure)
	assert.Equal(t, []string{`step dashboard.page "Overview" id=3 #1`, "end step dashboard.page err=broken with [REDACTED]"}, rec.Lines())
	assert.ErrorIs(t, rec.infos[len(rec.infos)-1].(error), failure, "the error is there, its text scrubbed of the key")
}

func TestWithObserverRefusesNil(t *testing.T) {
	_, err := New("http://127.0.0.1/api/v1", WithObserver(nil))
	require.ErrorContains(t, err, "WithObserver: the observer is nil")
	c, err := New("http://127.0.0.1/api/v1", WithObserver(NopObserver{}))
	require.NoError(t, err)
	assert.Equal(t, NopObserver{}, c.cfg.observer)
}

// obsCannedTransport answers every request with the same JSON, without a
// network: the allocations of a call are then the facade's alone.
type obsCannedTransport struct{ body []byte }

func (t obsCannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(t.body)), ContentLength: int64(len(t.body)), Request: r}, nil
}

// obsCannedClient is a client whose calls are answered by obsCannedTransport.
func obsCannedClient(tb testing.TB, opts ...Option) *Client {
	tb.Helper()
	hc := &http.Client{Transport: obsCannedTransport{body: []byte(`{"username":"demo","license":true}`)}}
	c, err := New("http://127.0.0.1/api/v1", append([]Option{WithAPIKey(testKey), WithHTTPClient(hc)}, opts...)...)
	require.NoError(tb, err)
	return c
}

// The hook costs nothing unset: a call allocates no more than with an
// observer that does nothing, whose calls are all the hook adds.
func TestObserverUnsetAllocatesNothingMore(t *testing.T) {
	unset, nop := obsCannedClient(t), obsCannedClient(t, WithObserver(NopObserver{}))
	ctx := testCtx(t)
	read := func(c *Client) func() {
		return func() {
			if _, err := c.User.Current(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	without, with := mallocsPerCall(2000, read(unset)), mallocsPerCall(2000, read(nop))
	t.Logf("allocations per call: %.2f unset, %.2f with a NopObserver", without, with)
	// An allocation of the hook is one more per call; the race detector's
	// sync.Pool, which drops what is put at random, moves the mean by less.
	assert.InDelta(t, without, with, 0.5, "the hook allocates")
}

// mallocsPerCall is the mean number of heap allocations of a call of f, over
// n calls, unrounded (testing.AllocsPerRun rounds down, so that a mean
// near an integer flips between two).
func mallocsPerCall(n int, f func()) float64 {
	f() // warm up
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(n)
}

// Each hook of the call, attempt, retry and poll loops allocates nothing
// when the client has no observer.
func TestUnsetHooksAllocateNothing(t *testing.T) {
	c := obsCannedClient(t)
	cl := newCall("getCurrentUser", func(string) (*http.Request, error) { return nil, nil })
	req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1/api/v1/open/user", nil)
	require.NoError(t, err)
	tr := c.Job(7).t
	s := jobState{&gen.ApiImportScenarioStatus{Status: "RUNNING"}}
	ctx, failure := testCtx(t), errors.New("broken")
	yield := func(jobState, error) bool { return true }
	allocs := testing.AllocsPerRun(100, func() {
		actx := c.startAttempt(ctx, cl, req, 1)
		c.endAttempt(actx, cl, req, 1, Attempt{Status: 200})
		c.observeRetry(ctx, cl, 1, time.Second, failure)
		wctx, _, end := tr.startWait(ctx, yield)
		tr.notePoll(wctx, s)
		end()
		_, endStep := c.startStep(ctx, StepInfo{Kind: "dashboard.page"})
		endStep(nil)
	})
	assert.Zero(t, allocs, "the hooks allocate without an observer")
}

// BenchmarkObserver is a cheap read (getCurrentUser answered in memory) with
// the hook unset and with a NopObserver: the allocations per call must be
// equal.
//
//	go test -run '^$' -bench BenchmarkObserver -benchmem ./facade
func BenchmarkObserver(b *testing.B) {
	for name, opts := range map[string][]Option{"unset": nil, "nop": {WithObserver(NopObserver{})}} {
		b.Run(name, func(b *testing.B) {
			c := obsCannedClient(b, opts...)
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.User.Current(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
