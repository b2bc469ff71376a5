package fake_test

import (
	"context"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// freshClient opens a new connection per request, so the transport never
// resends a request on its own and each fault is seen exactly once.
func freshClient(e *env) *gen.ClientWithResponses {
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	c, _ := gen.NewClientWithResponses(e.srv.URL, gen.WithHTTPClient(hc), gen.WithRequestEditorFn(bearer(e.srv.APIKey)))
	return c
}

func TestFaultStatusWithRetryAfter(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: "3", Times: 2})
	for range 2 {
		r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcGFA})
		require.NoError(t, err)
		assert.Equal(t, http.StatusTooManyRequests, r.StatusCode())
		assert.Equal(t, "3", r.HTTPResponse.Header.Get("Retry-After"))
		assert.Equal(t, "getExperimentStatus: injected fault: 429 Too Many Requests", *r.JSON4XX.Message)
		assert.Equal(t, map[string]gen.RawJSON{}, *r.JSON4XX.Details, "an injected fault answers the server's error body")
	}
	r, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcGFA})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.StatusCode(), "the fault applied to the next 2 calls only")
	assert.Equal(t, 3, e.srv.Calls("getExperimentStatus"))
}

func TestFaultDropBeforeHandlerAppliesNothing(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("openProject", fake.Fault{Kind: fake.FaultDropBeforeHandler})
	_, err := freshClient(e).OpenProjectWithResponse(e.ctx, &gen.OpenProjectParams{ProjectId: 1})
	require.Error(t, err)
	assert.Equal(t, 1, e.srv.Calls("openProject"))
	assert.Equal(t, 0, e.srv.Applied("openProject"))
}

// TestFaultResponseLostAppliesOnce loses the response of a state-changing
// call: the side effect happened once, and the client saw an error.
func TestFaultResponseLostAppliesOnce(t *testing.T) {
	e := setup(t, fake.WithLicense())
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
	_, err := freshClient(e).RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcGFA})
	require.Error(t, err)
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))
	st := status(t, e, rcGFA)
	assert.False(t, *st.Finished, "the run started although the response was lost")
	_, _, ran := e.h.LastRun(rcGFA)
	assert.True(t, ran, "one run")
}

func TestFaultTruncate(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("getProjects", fake.Fault{Kind: fake.FaultTruncate})
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/open/project/list", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", e.srv.APIKey)
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Less(t, int64(len(body)), resp.ContentLength)
	assert.Positive(t, len(body))
}

func TestFaultLatency(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("getProjects", fake.Fault{Kind: fake.FaultLatency, Latency: time.Hour})
	ctx, cancel := context.WithTimeout(e.ctx, 50*time.Millisecond)
	defer cancel()
	_, err := e.c.GetProjectsWithResponse(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	r, err := e.c.GetProjectsWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.StatusCode())
}

func TestFaultsByOptionAndSnakeCaseName(t *testing.T) {
	e := setup(t, fake.WithFault("get_current_user", fake.Fault{Kind: fake.FaultStatus}))
	r, err := e.c.GetCurrentUserWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, r.StatusCode())
	assert.Equal(t, 1, e.srv.Calls("getCurrentUser"))
}

// sendRaw sends a GET of path with the server's key on a fresh connection
// and returns the response, whose body the caller reads and closes.
func sendRaw(t *testing.T, ctx context.Context, e *env, path string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.srv.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", e.srv.APIKey)
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	return hc.Do(req)
}

// The faults before the handler apply nothing: a reset reads as one, a
// stall holds the call until the caller gives up.
func TestFaultsBeforeTheHandlerApplyNothing(t *testing.T) {
	e := setup(t, fake.WithLicense())
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultResetBeforeHandler})
	_, err := sendRaw(t, e.ctx, e, "/open/experiments/run?rcId=10101")
	assert.ErrorIs(t, err, syscall.ECONNRESET)

	stalled := make(chan struct{}, 1)
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultStall, Stalled: stalled})
	ctx, cancel := context.WithCancel(e.ctx)
	go func() {
		select { // the caller gives up once the server says it stalls
		case <-stalled:
		case <-time.After(10 * time.Second):
			t.Error("no stall reported within 10s")
		}
		cancel()
	}()
	_, err = sendRaw(t, ctx, e, "/open/experiments/run?rcId=10101")
	assert.ErrorIs(t, err, context.Canceled)

	assert.Equal(t, 2, e.srv.Calls("runExperiment"))
	assert.Zero(t, e.srv.Applied("runExperiment"))
}

// The body faults run the handler, send the headers with the full length
// and half the body, then reset the connection or stall until the caller
// gives up.
func TestFaultsMidBody(t *testing.T) {
	for kind, want := range map[fake.FaultKind]error{
		fake.FaultResetBody: syscall.ECONNRESET,
		fake.FaultStallBody: context.DeadlineExceeded,
	} {
		t.Run(kind.String(), func(t *testing.T) {
			e := setup(t, fake.WithLicense())
			e.srv.InjectFault("runExperiment", fake.Fault{Kind: kind})
			ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
			if kind == fake.FaultStallBody {
				ctx, cancel = context.WithTimeout(e.ctx, 100*time.Millisecond)
			}
			defer cancel()
			resp, err := sendRaw(t, ctx, e, "/open/experiments/run?rcId=10101")
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			body, err := io.ReadAll(resp.Body)
			assert.ErrorIs(t, err, want)
			assert.Positive(t, len(body))
			assert.Less(t, int64(len(body)), resp.ContentLength)
			assert.Equal(t, 1, e.srv.Applied("runExperiment"), "the handler ran")
		})
	}
}

// A slow body arrives whole, in pieces with pauses between them.
func TestFaultSlowBody(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("getProjects", fake.Fault{Kind: fake.FaultSlowBody, Latency: 10 * time.Millisecond, Chunks: 4})
	start := time.Now()
	resp, err := sendRaw(t, e.ctx, e, "/open/project/list")
	require.NoError(t, err)
	slow, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond, "three pauses")

	resp, err = sendRaw(t, e.ctx, e, "/open/project/list")
	require.NoError(t, err)
	whole, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, string(whole), string(slow))
}
