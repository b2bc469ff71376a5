package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// referenceModels are the model names the reference lists, copied from its
// resource table and the paragraphs below it.
var referenceModels = strings.Fields(`
ApiProjectResponse ApiScenarioData ApiConvertAndCopyParameters ApiImportResponse ApiImportScenarioStatus
ApiImportScenarioCancelRequest DBConnectionProperties ApiTableMeta ApiTableProperties ApiBasicRunConfiguration
ApiARunConfigurationWrapper ApiRunExperiment ExecutionState ApiBasicRun ApiExperimentResultData ApiExperimentResult
ApiExperimentResultOption ApiPage ApiDashboardPage ApiExperimentResultPageWrapper ApiChartMetadataShort
ApiGraphChartData ApiStrictTableChartData ApiDashboardChartData ApiChartLayoutData ApiExperimentResultChartWrapper
ApiExperimentResultGraphChartWrapper ApiExperimentResultTableChartWrapper ApiStatisticsConfiguration StatisticsKey
ApiVariation ApiVariationCreateRequest ApiVariationData ApiVariationDataObject ApiOptionList ApiIdNameObject
ApiStrictTableData ApiStrictClassData Cell CellDouble CellInteger CellString Row Sort Filter Aggregation
AggregationValue KeyValue PropertyValue Point Graph ApiIndexColumnSelection ApiBaseIndexSelectionValueRequest
ApiBooleanIndexSelectionValueRequest ApiListIndexSelectionValueRequest ApiNumberIndexSelectionValueRequest
ApiStringIndexSelectionValueRequest ApiCheckUncheckResponse ApiValidationError ApiValidationWarning ApiUserData
ApiLicenseData ApiLicenseDropData ApiMilkRunsGenerateRequest ApiShipmentGenerateRequest ApiRoutesProgressEntry
ApiOptionRequest ApiGfaRunConfiguration ApiGfaWithRoadsRunConfiguration ApiSimulationRunConfiguration ApiNORC
ApiVariationRC ApiComparisonRC ApiSSRC ApiRARC ApiLastMileOptimizationRunConfiguration ApiBasePropertyData
ApiBooleanPropertyData ApiNumberPropertyData ApiObjectPropertyData ApiStringPropertyData`)

var typeSpecificRunConfigurations = strings.Fields(`ApiGfaRunConfiguration ApiGfaWithRoadsRunConfiguration
ApiSimulationRunConfiguration ApiNORC ApiVariationRC ApiComparisonRC ApiSSRC ApiRARC ApiLastMileOptimizationRunConfiguration`)

func TestEveryReferenceModelIsASchema(t *testing.T) {
	schemas := loadSpec(t).Components.Schemas
	for _, name := range referenceModels {
		assert.Contains(t, schemas, name)
	}
	for _, name := range typeSpecificRunConfigurations {
		assert.Contains(t, schemas, name+"Wrapper", "each type-specific run configuration has a wrapper")
	}
	for name, want := range map[string][]string{
		"ScenarioType":   {"GFA", "NO", "SIM"},
		"ExperimentType": {"GFA", "GFA_WITH_ROADS", "SIMULATION", "NETWORK_OPTIMIZATION", "VARIATION", "COMPARISON", "SAFETY_STOCK", "RISK_ANALYSIS", "LAST_MILE_OPTIMIZATION"},
		"VariationType":  {"NUMBER_RANGE", "LINK_LIST", "MULTIPLE_LINK_LIST", "SOURCING_SPLIT", "SCENARIO"},
	} {
		require.Contains(t, schemas, name)
		var got []string
		for _, v := range schemas[name].Value.Enum {
			got = append(got, v.(string))
		}
		assert.Equal(t, want, got, name)
	}
}

// TestEveryObjectSchemaDeclaresAdditionalProperties walks every schema of
// the document, components and inline ones in operations, recursively.
func TestEveryObjectSchemaDeclaresAdditionalProperties(t *testing.T) {
	doc := loadSpec(t)
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, ref *openapi3.SchemaRef)
	walk = func(where string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if s.Type.Is("object") {
			declared := s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil
			assert.True(t, declared, "%s: object schema without additionalProperties", where)
		}
		for name, p := range s.Properties {
			walk(where+"."+name, p)
		}
		walk(where+"[]", s.Items)
		walk(where+"{}", s.AdditionalProperties.Schema)
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range group {
				walk(where+"|", sub)
			}
		}
	}
	for name, s := range doc.Components.Schemas {
		walk(name, s)
	}
	for id, op := range specOperations(doc) {
		if op.op.RequestBody != nil {
			for mt, media := range op.op.RequestBody.Value.Content {
				walk(id+" "+mt, media.Schema)
			}
		}
	}
	assert.Greater(t, len(seen), 80)
}

// A run configuration read, changed and sent back must keep every field the
// server sent, including ones we do not model and integers beyond float64.
func TestRunConfigurationKeepsUnknownFields(t *testing.T) {
	const sent = `{"id":42,"type":"SIMULATION","name":"Base",` +
		`"futureSetting":12345678901234567890123,"nested":{"a":[1,2.50,"x"]},` +
		`"runConfiguration":{"replications":5,"unknownKnob":9007199254740993,"properties":[{"name":"p","value":{"deep":true},"extra":1}]}}`

	var w gen.ApiARunConfigurationWrapper
	require.NoError(t, json.Unmarshal([]byte(sent), &w))
	sim, err := w.RunConfiguration.AsApiSimulationRunConfiguration()
	require.NoError(t, err)
	assert.Equal(t, int32(5), *sim.Replications)

	*w.Name = "Changed"
	out, err := json.Marshal(w)
	require.NoError(t, err)
	assert.JSONEq(t, strings.Replace(sent, `"Base"`, `"Changed"`, 1), string(out))
	assert.Contains(t, string(out), `12345678901234567890123`, "big integer kept verbatim")
	assert.Contains(t, string(out), `9007199254740993`, "integer beyond float64 precision kept verbatim")

	var typed gen.ApiSimulationRunConfigurationWrapper
	require.NoError(t, json.Unmarshal([]byte(sent), &typed))
	typed.RunConfiguration.Replications = ptr(int32(6))
	out, err = json.Marshal(typed)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"unknownKnob":9007199254740993`)
	assert.Contains(t, string(out), `"futureSetting":12345678901234567890123`)
	assert.Contains(t, string(out), `"extra":1`)
}

func ptr[T any](v T) *T { return &v }
