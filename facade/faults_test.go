package facade

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faultCase is one operation of the fault matrix.
type faultCase struct {
	op   string
	call func(ctx context.Context, c *Client) error
}

var safeCalls = []faultCase{
	{"getCurrentUser", func(ctx context.Context, c *Client) error { _, err := c.User.Current(ctx); return err }},
	{"getScenarios", func(ctx context.Context, c *Client) error { _, err := c.Scenarios.List(ctx, 1); return err }},
	{"getScenariosFromImportedDatabase", func(ctx context.Context, c *Client) error {
		_, err := c.Imports.DatabaseScenarios(ctx, testDB())
		return err
	}},
}

var stateChangingCalls = []faultCase{
	{"openProject", func(ctx context.Context, c *Client) error { _, err := c.Projects.Open(ctx, 1); return err }},
	{"requestLicense", func(ctx context.Context, c *Client) error { _, err := c.User.RequestLicense(ctx); return err }},
	{"copyScenario", func(ctx context.Context, c *Client) error {
		_, err := c.Scenarios.Copy(ctx, 101, gen.ScenarioTypeGFA, &NewScenarioOptions{Name: "matrix"})
		return err
	}},
}

func testDB() gen.DBConnectionProperties {
	return gen.DBConnectionProperties{Host: ptr("db.internal"), User: ptr("scm"), Password: ptr(testDBPassword), Type: ptr("POSTGRESQL")}
}

var faultKinds = map[string]fake.Fault{
	"status 503":          {Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable},
	"status 500":          {Kind: fake.FaultStatus, Status: http.StatusInternalServerError},
	"drop before handler": {Kind: fake.FaultDropBeforeHandler},
	"drop after handler":  {Kind: fake.FaultDropAfterHandler},
	"truncate":            {Kind: fake.FaultTruncate},
	"latency":             {Kind: fake.FaultLatency, Latency: 20 * time.Millisecond},
}

// TestFaultMatrix: safe calls recover from every fault; state-changing
// calls are never applied twice, and a failure after the request may have
// reached the handler says it may have been applied.
func TestFaultMatrix(t *testing.T) {
	for kindName, fault := range faultKinds {
		for _, tc := range safeCalls {
			t.Run(fmt.Sprintf("safe/%s/%s", tc.op, kindName), func(t *testing.T) {
				srv, c := newFake(t)
				srv.InjectFault(tc.op, fault)
				require.NoError(t, tc.call(ctxBG, c))
				assert.LessOrEqual(t, srv.Calls(tc.op), 2)
			})
		}
		for _, tc := range stateChangingCalls {
			t.Run(fmt.Sprintf("state-changing/%s/%s", tc.op, kindName), func(t *testing.T) {
				srv, c := newFake(t)
				_, err := c.User.Current(ctxBG) // a keep-alive connection for the call to reuse
				require.NoError(t, err)
				srv.InjectFault(tc.op, fault)
				err = tc.call(ctxBG, c)
				assert.Equal(t, 1, srv.Calls(tc.op), "sent once")
				assert.LessOrEqual(t, srv.Applied(tc.op), 1, "never applied twice")
				switch fault.Kind {
				case fake.FaultLatency:
					assert.NoError(t, err)
				case fake.FaultDropAfterHandler, fake.FaultTruncate:
					assert.Equal(t, 1, srv.Applied(tc.op))
					assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
				case fake.FaultStatus:
					assert.Zero(t, srv.Applied(tc.op))
					var apiErr *APIError
					require.ErrorAs(t, err, &apiErr)
					assert.Equal(t, fault.Status, apiErr.StatusCode)
					assert.Equal(t, fault.Status != http.StatusServiceUnavailable, apiErr.MayHaveBeenApplied)
				case fake.FaultDropBeforeHandler:
					assert.Zero(t, srv.Applied(tc.op))
					assert.ErrorIs(t, err, ErrMayHaveBeenApplied, "the client cannot tell it was not applied")
				}
			})
		}
	}
}
