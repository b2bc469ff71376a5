package facade

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// A 501 Not Implemented (what the fake answers for an operation the spec
// gained and it has no handler for yet) is not retried, and a state-
// changing operation answered so was not applied.
func TestNotImplementedIsNotRetried(t *testing.T) {
	for _, name := range []string{"getScenarios", "removeScenarioById"} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotImplemented)
				fmt.Fprintf(w, `{"message":"%s: not implemented by the fake server","details":{}}`, name)
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.Call(testCtx(t), name, RawRequest{Query: url.Values{"projectId": {"1"}, "scenarioId": {"1"}}})
			var apiErr *APIError
			require.True(t, errors.As(err, &apiErr), "%v", err)
			assert.Equal(t, http.StatusNotImplemented, apiErr.StatusCode)
			assert.Contains(t, err.Error(), name+": not implemented by the fake server")
			assert.False(t, apiErr.MayHaveBeenApplied)
			assert.EqualValues(t, 1, calls.Load(), "requests sent")
		})
	}
}
