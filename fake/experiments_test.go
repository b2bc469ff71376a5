package fake_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// TestRunConfigurationKeepsUnknownFields sends fields the spec does not know,
// a 20-digit integer among them, and reads them back byte for byte.
func TestRunConfigurationKeepsUnknownFields(t *testing.T) {
	e := setup(t)
	e.echoed["futureSetting"], e.echoed["futureNested"] = true, true
	body := `{"id":10303,"type":"SIMULATION","futureSetting":12345678901234567890,` +
		`"runConfiguration":{"replications":3,"futureNested":{"a":[1,2.50,"x"]}}}`
	r, err := e.c.UpdateExperimentRunConfigurationWithBodyWithResponse(e.ctx, &gen.UpdateExperimentRunConfigurationParams{RcId: 10303}, "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	got, err := e.c.GetExperimentRunConfigurationWithResponse(e.ctx, &gen.GetExperimentRunConfigurationParams{RcId: 10303})
	require.NoError(t, err)
	assert.Contains(t, string(got.Body), `"futureSetting":12345678901234567890`)
	assert.Contains(t, string(got.Body), `"runConfiguration":{"replications":3,"futureNested":{"a":[1,2.50,"x"]}}`)
	raw, ok := got.JSON200.Get("futureSetting")
	require.True(t, ok)
	assert.Equal(t, "12345678901234567890", string(raw))
}

func TestUpdateRunConfigurationRefusesAnotherExperiment(t *testing.T) {
	e := setup(t)
	resp, apiErr := e.raw(t, http.MethodPost, "/open/experiments/update-run-configuration", map[string][]string{"rcId": {"10303"}},
		bytes.NewBufferString(`{"id":10101,"type":"GFA"}`), http.Header{"Content-Type": {"application/json"}})
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Equal(t, "body id: 10101 does not match parameter rcId 10303", *apiErr.Message)
}

// TestFiveExperimentsPerScenarioByType: every scenario has the five
// experiments of its type, rcId scenarioId*100+k with k the type's place in
// the reference's order.
func TestFiveExperimentsPerScenarioByType(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct {
		project  ids.ProjectID
		scenario ids.ScenarioID
		want     map[ids.RcID]gen.ExperimentType
	}{
		{1, 103, map[ids.RcID]gen.ExperimentType{10303: "SIMULATION", 10305: "VARIATION", 10306: "COMPARISON", 10307: "SAFETY_STOCK", 10308: "RISK_ANALYSIS"}},
		{1, 101, map[ids.RcID]gen.ExperimentType{10101: "GFA", 10102: "GFA_WITH_ROADS", 10105: "VARIATION", 10106: "COMPARISON", 10109: "LAST_MILE_OPTIMIZATION"}},
		{3, 301, map[ids.RcID]gen.ExperimentType{30104: "NETWORK_OPTIMIZATION", 30105: "VARIATION", 30106: "COMPARISON", 30107: "SAFETY_STOCK", 30109: "LAST_MILE_OPTIMIZATION"}},
	} {
		r, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: tc.project, ScenarioId: tc.scenario})
		require.NoError(t, err)
		got := map[ids.RcID]gen.ExperimentType{}
		var order []ids.RcID
		for _, rc := range *r.JSON200 {
			got[rc.Id] = rc.Type
			order = append(order, rc.Id)
		}
		assert.Equal(t, tc.want, got, "scenario %d", tc.scenario)
		assert.IsIncreasing(t, order, "listed in rcId order")
	}
}

// TestRunConfigurationAsObserved reads the 16 fields a real server sent for
// a run configuration, and the changes world.md gives them.
func TestRunConfigurationAsObserved(t *testing.T) {
	e := setup(t, fake.WithLicense())
	r, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: 103})
	require.NoError(t, err)
	var list []map[string]any
	require.NoError(t, jsonUnmarshal(r.Body, &list))
	assert.Equal(t, map[string]any{"animationModelId": nil, "feasibleCheckStatus": "NOT_CONDUCTED", "id": 10303.0,
		"isFeasibleCheckDataAvailable": false, "modelTime": 0.0, "name": "i18n-Experiment_Simulation_text", "progress": 0.0,
		"projectId": 1.0, "routesProgress": 0.0, "runStatus": "IDLE", "scenarioId": 103.0, "speed": 1.0, "status": "IDLE",
		"step": "IDLE", "type": "SIMULATION", "validationStatus": "VALID"}, list[0])
	names := map[string]bool{}
	for _, rc := range list {
		names[rc["name"].(string)] = true
	}
	assert.Equal(t, map[string]bool{"i18n-Experiment_Simulation_text": true, "i18n-Experiment_Variation_text": true,
		"i18n-Experiment_Comparison_text": true, "i18n-Experiment_SafetyStock_text": true, "i18n-Experiment_RiskAnalysis_text": true}, names)

	e.run(t, 10303)
	after, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: 103})
	require.NoError(t, err)
	assert.Equal(t, 100.0, *(*after.JSON200)[0].Progress, "100 after a finished run")
	broken, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: 104})
	require.NoError(t, err)
	for _, rc := range *broken.JSON200 {
		assert.Equal(t, gen.ApiBasicRunConfigurationValidationStatusNOTCONDUCTED, rc.ValidationStatus)
	}
}

func TestNoExperimentOfAnotherType(t *testing.T) {
	e := setup(t, fake.WithLicense())
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: 10301})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, r.StatusCode())
	assert.Equal(t, "rcId 10301: no such running configuration", *r.JSON5XX.Message, "a SIM scenario has no GFA experiment")
}

func TestValidationFindings(t *testing.T) {
	e := setup(t)
	st, err := e.c.GetScenarioValidationStatusWithResponse(e.ctx, &gen.GetScenarioValidationStatusParams{ScenarioId: 104})
	require.NoError(t, err)
	assert.False(t, st.JSON200.Valid)
	assert.Equal(t, int64(2), *st.JSON200.ErrorCount)
	errs, err := e.c.GetValidationErrorsWithResponse(e.ctx, &gen.GetValidationErrorsParams{ScenarioId: 104})
	require.NoError(t, err)
	assert.Equal(t, []gen.ApiValidationError{{Message: "Demand must not be negative", Source: []string{"Demand", "4"}},
		{Message: "Site R8 has no location", Source: []string{"Sites", "8"}}}, *errs.JSON200)
	ok, err := e.c.GetValidationErrorsWithResponse(e.ctx, &gen.GetValidationErrorsParams{ScenarioId: 101})
	require.NoError(t, err)
	assert.Empty(t, *ok.JSON200)
}
