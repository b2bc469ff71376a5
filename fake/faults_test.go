package fake_test

import (
	"context"
	"io"
	"net/http"
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
	assert.Equal(t, gen.ExecutionStateGenericStateRUNNING, st.GenericState, "the run started although the response was lost")
	runs, err := e.c.GetExperimentRunsForScenarioWithResponse(e.ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 101})
	require.NoError(t, err)
	assert.Len(t, *runs.JSON200, 1)
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
