package facade

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// A 408 says the server gave up waiting for the request and did not
// process it. As docs/client.md promises, a safe operation answered 408 is
// sent again and succeeds; one answered 408 on every attempt stops after
// the policy's attempts with the 408. A state-changing call is sent once,
// as every state-changing call is, and its error is the 408, which does
// not match ErrMayHaveBeenApplied: nothing was applied.
func TestRequestTimeoutIsRetriedWhereSafe(t *testing.T) {
	t.Parallel()
	newClient := func(t *testing.T) (*fake.Server, *Client) {
		srv := faketest.NewServer(t, fake.WithAPIKeys(testKey), fake.WithLicense())
		return srv, newTestClient(t, srv.URL, WithClock(faketest.NewInstantClock()))
	}
	t.Run("safe, once", func(t *testing.T) {
		t.Parallel()
		srv, c := newClient(t)
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusRequestTimeout, Times: 1})
		scenarios, err := c.Scenarios.List(testCtx(t), 1)
		require.NoError(t, err, "a read answered 408 once is retried")
		assert.NotEmpty(t, scenarios)
		assert.Equal(t, 2, srv.Calls(string(gen.OpGetScenarios)), "sent again once")
	})
	t.Run("safe, every attempt", func(t *testing.T) {
		t.Parallel()
		srv, c := newClient(t)
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusRequestTimeout, Times: fastRetries.MaxAttempts})
		_, err := c.Scenarios.List(testCtx(t), 1)
		apiErr := requireStatus(t, err, http.StatusRequestTimeout)
		assert.Len(t, apiErr.Attempts, fastRetries.MaxAttempts, "every attempt of the policy")
		assert.Equal(t, fastRetries.MaxAttempts, srv.Calls(string(gen.OpGetScenarios)))
	})
	t.Run("state-changing", func(t *testing.T) {
		t.Parallel()
		srv, c := newClient(t)
		srv.InjectFault(string(gen.OpCopyScenario), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusRequestTimeout, Times: 1})
		_, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, nil)
		requireStatus(t, err, http.StatusRequestTimeout)
		assert.NotErrorIs(t, err, ErrMayHaveBeenApplied, "a 408 was not processed")
		assert.Equal(t, 1, srv.Calls(string(gen.OpCopyScenario)), "sent once")
		assert.Zero(t, srv.Applied(string(gen.OpCopyScenario)), "not applied")
	})
}

// requireStatus is err as the *APIError of an answer with status.
func requireStatus(t *testing.T, err error, status int) *APIError {
	t.Helper()
	var apiErr *APIError
	require.True(t, errors.As(err, &apiErr), "an *APIError, not %v", err)
	require.Equal(t, status, apiErr.StatusCode, "%v", err)
	return apiErr
}

// RetryPolicy.StatusCodes replaces the statuses retried, and ShouldRetry
// has the last word where the SDK may retry, and is never asked about a
// state-changing call whose request reached the server.
func TestRetryStatusCodesAndHook(t *testing.T) {
	t.Parallel()
	newClient := func(t *testing.T, p RetryPolicy) (*fake.Server, *Client) {
		srv := faketest.NewServer(t, fake.WithAPIKeys(testKey), fake.WithLicense())
		return srv, newTestClient(t, srv.URL, WithClock(faketest.NewInstantClock()), WithRetryPolicy(p))
	}
	t.Run("a status list", func(t *testing.T) {
		t.Parallel()
		srv, c := newClient(t, RetryPolicy{MaxAttempts: 3, StatusCodes: []int{http.StatusConflict}})
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusConflict, Times: 1})
		_, err := c.Scenarios.List(testCtx(t), 1)
		require.NoError(t, err, "409 is in the list")
		assert.Equal(t, 2, srv.Calls(string(gen.OpGetScenarios)))
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable, Times: 1})
		_, err = c.Scenarios.List(testCtx(t), 1)
		requireStatus(t, err, http.StatusServiceUnavailable)
		assert.Equal(t, 3, srv.Calls(string(gen.OpGetScenarios)), "503 is not in the list: not retried")
	})
	t.Run("the hook decides for a read", func(t *testing.T) {
		t.Parallel()
		var asked []RetryAttempt
		srv, c := newClient(t, RetryPolicy{MaxAttempts: 3, ShouldRetry: func(a RetryAttempt) bool {
			asked = append(asked, a)
			return !a.Retry // the opposite of the policy
		}})
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusConflict, Times: 1})
		_, err := c.Scenarios.List(testCtx(t), 1)
		require.NoError(t, err, "the hook retries a 409 the policy would not")
		require.Len(t, asked, 1)
		assert.Equal(t, RetryAttempt{Operation: "getScenarios", Attempt: 1, Err: asked[0].Err, Retry: false}, asked[0])
		srv.InjectFault(string(gen.OpGetScenarios), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable, Times: 1})
		_, err = c.Scenarios.List(testCtx(t), 1)
		requireStatus(t, err, http.StatusServiceUnavailable)
	})
	t.Run("never asked for a state-changing call that may have been applied", func(t *testing.T) {
		t.Parallel()
		asked := 0
		srv, c := newClient(t, RetryPolicy{MaxAttempts: 3, ShouldRetry: func(RetryAttempt) bool { asked++; return true }})
		srv.InjectFault(string(gen.OpCopyScenario), fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable, Times: 1})
		_, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, nil)
		require.Error(t, err)
		srv.InjectFault(string(gen.OpCopyScenario), fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
		_, err = c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, nil)
		require.ErrorIs(t, err, ErrMayHaveBeenApplied)
		assert.Zero(t, asked, "the hook was asked about a call whose request reached the server")
		assert.Equal(t, 2, srv.Calls(string(gen.OpCopyScenario)), "each sent once")
	})
}
