package facade

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSafeOperationRetriesThenSucceeds(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		fmt.Fprint(w, `[{"projectId":1,"name":"P"}]`)
	})
	ps, err := c.Projects.List(testCtx(t))
	require.NoError(t, err)
	assert.Len(t, ps, 1)
	assert.EqualValues(t, 3, calls.Load())
}

func TestRetriesExhaustedListsAttempts(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("X-Request-Id", "req-7")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, "<html><body>proxy says no</body></html>")
	})
	_, err := c.Projects.List(testCtx(t))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "getProjects", apiErr.Operation)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.Equal(t, "req-7", apiErr.RequestID)
	assert.Contains(t, string(apiErr.Body), "proxy says no")
	assert.Nil(t, apiErr.Detail)
	assert.Len(t, apiErr.Attempts, fastRetries.MaxAttempts)
	assert.EqualValues(t, fastRetries.MaxAttempts, calls.Load())
	assert.ErrorIs(t, err, ErrServer)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
}

func TestStateChangingOperationIsSentOnce(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"status":500,"error":"Internal","message":"openProject: boom"}`)
	})
	_, err := c.Projects.Open(testCtx(t), 1)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, "openProject: boom", apiErr.Message)
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Contains(t, err.Error(), "may have been applied")
}

// A 500 "no such ..." to a state-changing call is a refusal before the
// server acted, as "Access is denied" is: not applied, sent once, and
// ErrNotFound.
func TestUnknownIDIsNotApplied(t *testing.T) {
	srv, c := newFake(t)
	_, err := c.Projects.Open(testCtx(t), 999)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	assert.Equal(t, "projectId 999: no such project", apiErr.Message)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Equal(t, 1, srv.Calls("openProject"))
}

func TestStatusSentinels(t *testing.T) {
	for status, want := range map[int]error{400: ErrValidation, 401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 409: ErrConflict, 429: ErrServer} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "3600")
				w.WriteHeader(status)
				fmt.Fprintf(w, `{"status":%d,"message":"m","requestId":"rid"}`, status)
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.User.Current(testCtx(t))
			assert.ErrorIs(t, err, want)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, status, apiErr.StatusCode)
			assert.Equal(t, "rid", apiErr.RequestID)
			assert.Len(t, apiErr.Attempts, 1, "4xx are not retried, and a Retry-After over the cap ends the call")
		})
	}
}

// TestRetryAfterIsHonoured: the retry waits the server's Retry-After (3 s;
// an HTTP-date is measured from the answer's own Date), not the backoff of
// at most a millisecond.
func TestRetryAfterIsHonoured(t *testing.T) {
	answered := time.Date(2026, 3, 10, 16, 19, 55, 0, time.UTC) // the server's clock, not this machine's
	for name, header := range map[string]string{
		"seconds":   "3",
		"http-date": answered.Add(3 * time.Second).Format(http.TimeFormat),
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			clock := faketest.NewInstantClock()
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					w.Header().Set("Date", answered.Format(http.TimeFormat))
					w.Header().Set("Retry-After", header)
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				fmt.Fprint(w, `{"username":"u"}`)
			}, WithClock(clock), WithRetryPolicy(RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, MaxRetryAfter: 10 * time.Second}))
			start := clock.Now()
			_, err := c.User.Current(testCtx(t))
			require.NoError(t, err)
			assert.Equal(t, 3*time.Second, clock.Now().Sub(start))
			assert.EqualValues(t, 2, calls.Load())
		})
	}
}

func TestRetryAfterOverCapFailsAsRateLimited(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	}, WithClock(faketest.NewInstantClock()))
	_, err := c.User.Current(testCtx(t))
	assert.ErrorIs(t, err, ErrServer)
	assert.EqualValues(t, 1, calls.Load())
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 120*time.Second, apiErr.RetryAfter)
	assert.Equal(t, 120*time.Second, apiErr.Attempts[0].RetryAfter)
}

func TestUndecodableSuccessKeepsStatus(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"username": 12`)
	}, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	_, err := c.User.Current(testCtx(t))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusOK, apiErr.StatusCode)
	assert.Error(t, apiErr.Err)
	assert.Contains(t, err.Error(), "decoding")
}

func TestValidationBeforeAnyRequest(t *testing.T) {
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { calls.Add(1) })
	cases := map[string]struct {
		call  func() error
		op    string
		field string
	}{
		"negative project": {func() error { _, err := c.Projects.Open(testCtx(t), -1); return err }, "openProject", "projectId"},
		"empty name":       {func() error { _, err := c.Projects.OpenByName(testCtx(t), " ", nil); return err }, "findAndOpenProjectByName", "projectName"},
		"bad enum": {func() error {
			_, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioType("XX"), nil)
			return err
		}, "copyScenario", "newType"},
		"bad experiment type": {func() error { _, err := c.Experiments.Get(testCtx(t), 101, "NOPE"); return err }, "getExperiment", "experimentType"},
		"rcId over int32": {func() error {
			_, err := c.Variations.HasSelectedData(testCtx(t), 1<<40, "1", ids.NewVariation)
			return err
		}, "doesVariableParameterHasSelectedData", "rcId"},
		"objectId not a 32-bit integer": {func() error {
			_, err := c.Variations.HasSelectedData(testCtx(t), 10105, "Site 3", ids.NewVariation)
			return err
		}, "doesVariableParameterHasSelectedData", "objectId"},
		"variationId negative but not new": {func() error {
			_, err := c.Variations.HasSelectedData(testCtx(t), 10105, "103", -2)
			return err
		}, "doesVariableParameterHasSelectedData", "variationId"},
		"variationId new where an existing one is wanted": {func() error {
			return c.Variations.Delete(testCtx(t), 10105, ids.NewVariation)
		}, "deleteVariableParameter", "variationId"},
		"no rows": {func() error { _, err := c.LastMile.SelectOrders(testCtx(t), 10109, nil); return err }, "selectLastMileOptimizationOrderInOrdersTable", "rowIndexes"},
		"no file": {func() error { _, err := c.Imports.Excel(testCtx(t), 1, "n", Upload{}, nil); return err }, "importExcel", "file"},
		"page size": {func() error {
			for _, err := range c.Results.ChartTableRows(testCtx(t), 1, 1, &PageOptions{PageSize: -5}) {
				return err
			}
			return nil
		}, "getExperimentRunResultChartTableData", "PageSize"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.call()
			var v *ValidationError
			require.ErrorAs(t, err, &v)
			assert.ErrorIs(t, err, ErrValidation)
			assert.Equal(t, tc.op, v.Operation)
			assert.Equal(t, tc.field, v.Field)
			assert.Contains(t, err.Error(), tc.op)
		})
	}
	assert.Zero(t, calls.Load())
}

// TestNoSilentReplayOnDeadKeepAlive proves that net/http does resend a GET
// whose reused connection dies before the response, and that the facade
// stops it for state-changing operations: the handler runs once and the
// error says the operation may have been applied.
func TestNoSilentReplayOnDeadKeepAlive(t *testing.T) {
	var opens, conns atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/open/user", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"username":"u"}`) })
	mux.HandleFunc("/api/v1/open/project/open", func(w http.ResponseWriter, r *http.Request) {
		if opens.Add(1) == 1 {
			// The side effect happened; the response is lost: reset the
			// connection, which net/http treats as a replayable failure.
			conn, _, err := w.(http.Hijacker).Hijack()
			require.NoError(t, err)
			require.NoError(t, conn.(*net.TCPConn).SetLinger(0))
			conn.Close()
			return
		}
		fmt.Fprint(w, `{"projectId":1,"name":"P"}`)
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	reset := func() { opens.Store(0); conns.Store(0) }

	t.Run("plain net/http replays", func(t *testing.T) {
		reset()
		hc := &http.Client{Transport: &http.Transport{}}
		defer hc.CloseIdleConnections()
		get := func(path string) error {
			resp, err := hc.Get(srv.URL + "/api/v1" + path)
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			return err
		}
		require.NoError(t, get("/open/user"))
		require.NoError(t, get("/open/project/open?projectId=1"))
		assert.EqualValues(t, 2, opens.Load(), "net/http replayed the GET on a new connection")
	})
	t.Run("facade does not", func(t *testing.T) {
		reset()
		c := newTestClient(t, srv.URL+"/api/v1")
		_, err := c.User.Current(testCtx(t)) // leaves a keep-alive connection to reuse
		require.NoError(t, err)
		_, err = c.Projects.Open(testCtx(t), 1)
		require.Error(t, err)
		assert.EqualValues(t, 1, conns.Load(), "the open request reused the keep-alive connection")
		assert.EqualValues(t, 1, opens.Load())
		assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
		var reqErr *RequestError
		assert.ErrorAs(t, err, &reqErr)
	})
}

func TestDialFailureIsNotApplied(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	c := newTestClient(t, "http://"+addr+"/api/v1")
	_, err = c.Projects.Close(testCtx(t))
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.False(t, reqErr.MayHaveBeenApplied)
	assert.Len(t, reqErr.Attempts, fastRetries.MaxAttempts, "nothing was sent: a state-changing call is retried too")
	_, err = c.Projects.List(testCtx(t))
	require.ErrorAs(t, err, &reqErr)
	assert.Len(t, reqErr.Attempts, fastRetries.MaxAttempts)
	assert.NotContains(t, err.Error(), "timed out", "a refused connection is not a timeout")
	for _, a := range reqErr.Attempts {
		assert.NotErrorIs(t, a.Err, ErrTimeout)
	}
}

func TestAttemptTimeoutIsRetried(t *testing.T) {
	var calls atomic.Int32
	var hang atomic.Bool
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 || hang.Load() {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			return
		}
		fmt.Fprint(w, `{"username":"u"}`)
	}, WithAttemptTimeout(50*time.Millisecond))
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	assert.EqualValues(t, 2, calls.Load())

	hang.Store(true) // every attempt now times out
	_, err = c.User.Current(testCtx(t))
	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "attempt timed out: nothing moved for 50ms waiting for the response")
}

// The caller's context ending stops the retries: no attempt after it, and
// the error is the context's.
func TestCallerCancelStopsRetries(t *testing.T) {
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 3 {
			cancel()
			<-r.Context().Done() // the client gave up on this attempt: it gets no answer
			return
		}
		w.WriteHeader(http.StatusBadGateway)
	}, WithRetryPolicy(RetryPolicy{MaxAttempts: 50, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	_, err := c.Projects.List(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.EqualValues(t, 3, calls.Load(), "no attempt after the context ended")
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"0": 0, "7": 7 * time.Second, now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat): 0,
		"99999999999999999":                         time.Duration(math.MaxInt64), // would overflow: longer than any cap
	} {
		got, ok := parseRetryAfter(in, now)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "-1", "soon"} {
		_, ok := parseRetryAfter(bad, now)
		assert.False(t, ok, bad)
	}
}

func TestBackoffStaysUnderCap(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for n := 1; n < 70; n++ {
		d := p.backoff(n)
		assert.GreaterOrEqual(t, d, time.Duration(0))
		assert.LessOrEqual(t, d, time.Second)
	}
}
