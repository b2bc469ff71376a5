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
// process it. As the README promises, a safe operation answered 408 is
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
