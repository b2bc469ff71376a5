package fake_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// TestRunConfigurationKeepsUnknownFields sends fields the spec does not know,
// a 20-digit integer among them, and reads them back byte for byte.
func TestRunConfigurationKeepsUnknownFields(t *testing.T) {
	e := setup(t)
	body := `{"id":10103,"type":"SIMULATION","futureSetting":12345678901234567890,` +
		`"runConfiguration":{"replications":3,"futureNested":{"a":[1,2.50,"x"]}}}`
	r, err := e.c.UpdateExperimentRunConfigurationWithBodyWithResponse(e.ctx, &gen.UpdateExperimentRunConfigurationParams{RcId: 10103}, "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	got, err := e.c.GetExperimentRunConfigurationWithResponse(e.ctx, &gen.GetExperimentRunConfigurationParams{RcId: 10103})
	require.NoError(t, err)
	assert.Contains(t, string(got.Body), `"futureSetting":12345678901234567890`)
	assert.Contains(t, string(got.Body), `"runConfiguration":{"replications":3,"futureNested":{"a":[1,2.50,"x"]}}`)
	raw, ok := got.JSON200.Get("futureSetting")
	require.True(t, ok)
	assert.Equal(t, "12345678901234567890", string(raw))
}

func TestUpdateRunConfigurationRefusesAnotherExperiment(t *testing.T) {
	e := setup(t)
	resp, apiErr := e.raw(t, http.MethodPost, "/open/experiments/update-run-configuration", map[string][]string{"rcId": {"10103"}},
		bytes.NewBufferString(`{"id":10101,"type":"GFA"}`), http.Header{"Content-Type": {"application/json"}})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, *apiErr.Message, "updateExperimentRunConfiguration: body id: 10101 does not match parameter rcId 10103")
}

func TestEveryScenarioHasNineExperiments(t *testing.T) {
	e := setup(t)
	r, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 3, ScenarioId: 301})
	require.NoError(t, err)
	require.Len(t, *r.JSON200, 9)
	assert.Equal(t, int64(30101), (*r.JSON200)[0].Id)
	assert.Equal(t, gen.ExperimentTypeLASTMILEOPTIMIZATION, (*r.JSON200)[8].Type)
}

func TestValidationFindings(t *testing.T) {
	e := setup(t)
	st, err := e.c.GetScenarioValidationStatusWithResponse(e.ctx, &gen.GetScenarioValidationStatusParams{ScenarioId: 104})
	require.NoError(t, err)
	assert.False(t, st.JSON200.Valid)
	assert.Equal(t, int64(2), *st.JSON200.ErrorCount)
	ok, err := e.c.GetValidationErrorsWithResponse(e.ctx, &gen.GetValidationErrorsParams{ScenarioId: 101})
	require.NoError(t, err)
	assert.Empty(t, *ok.JSON200)
}
