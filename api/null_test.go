package api_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// responseModels makes a value of each generated model that an answer can
// carry. TestNullDecodesInEveryResponseModel fails when the spec names one
// that is missing here.
var responseModels = map[string]func() any{
	"ApiARunConfigurationWrapper":             func() any { return new(gen.ApiARunConfigurationWrapper) },
	"ApiBasePropertyData":                     func() any { return new(gen.ApiBasePropertyData) },
	"ApiBasicRun":                             func() any { return new(gen.ApiBasicRun) },
	"ApiBasicRunConfiguration":                func() any { return new(gen.ApiBasicRunConfiguration) },
	"ApiChartLayoutData":                      func() any { return new(gen.ApiChartLayoutData) },
	"ApiChartMetadataShort":                   func() any { return new(gen.ApiChartMetadataShort) },
	"ApiCheckUncheckResponse":                 func() any { return new(gen.ApiCheckUncheckResponse) },
	"ApiComparisonRC":                         func() any { return new(gen.ApiComparisonRC) },
	"ApiDashboardChartData":                   func() any { return new(gen.ApiDashboardChartData) },
	"ApiDashboardPage":                        func() any { return new(gen.ApiDashboardPage) },
	"ApiError":                                func() any { return new(gen.ApiError) },
	"ApiExperimentResult":                     func() any { return new(gen.ApiExperimentResult) },
	"ApiExperimentResultData":                 func() any { return new(gen.ApiExperimentResultData) },
	"ApiExperimentResultGraphChartWrapper":    func() any { return new(gen.ApiExperimentResultGraphChartWrapper) },
	"ApiExperimentResultTableChartWrapper":    func() any { return new(gen.ApiExperimentResultTableChartWrapper) },
	"ApiExperimentResultOption":               func() any { return new(gen.ApiExperimentResultOption) },
	"ApiExperimentResultPageWrapper":          func() any { return new(gen.ApiExperimentResultPageWrapper) },
	"ApiGfaRunConfiguration":                  func() any { return new(gen.ApiGfaRunConfiguration) },
	"ApiGfaWithRoadsRunConfiguration":         func() any { return new(gen.ApiGfaWithRoadsRunConfiguration) },
	"ApiGraphChartData":                       func() any { return new(gen.ApiGraphChartData) },
	"ApiIdNameObject":                         func() any { return new(gen.ApiIdNameObject) },
	"ApiImportResponse":                       func() any { return new(gen.ApiImportResponse) },
	"ApiImportScenarioStatus":                 func() any { return new(gen.ApiImportScenarioStatus) },
	"ApiLastMileOptimizationRunConfiguration": func() any { return new(gen.ApiLastMileOptimizationRunConfiguration) },
	"ApiLicenseData":                          func() any { return new(gen.ApiLicenseData) },
	"ApiLicenseDropData":                      func() any { return new(gen.ApiLicenseDropData) },
	"ApiNORC":                                 func() any { return new(gen.ApiNORC) },
	"ApiOptionList":                           func() any { return new(gen.ApiOptionList) },
	"ApiPage":                                 func() any { return new(gen.ApiPage) },
	"ApiProjectResponse":                      func() any { return new(gen.ApiProjectResponse) },
	"ApiRARC":                                 func() any { return new(gen.ApiRARC) },
	"ApiRunExperiment":                        func() any { return new(gen.ApiRunExperiment) },
	"ApiSSRC":                                 func() any { return new(gen.ApiSSRC) },
	"ApiScenarioData":                         func() any { return new(gen.ApiScenarioData) },
	"ApiScenarioValidationStatus":             func() any { return new(gen.ApiScenarioValidationStatus) },
	"ApiSimulationRunConfiguration":           func() any { return new(gen.ApiSimulationRunConfiguration) },
	"ApiStatisticsConfiguration":              func() any { return new(gen.ApiStatisticsConfiguration) },
	"ApiStrictClassData":                      func() any { return new(gen.ApiStrictClassData) },
	"ApiStrictTableChartData":                 func() any { return new(gen.ApiStrictTableChartData) },
	"ApiStrictTableData":                      func() any { return new(gen.ApiStrictTableData) },
	"ApiTableMeta":                            func() any { return new(gen.ApiTableMeta) },
	"ApiTableProperties":                      func() any { return new(gen.ApiTableProperties) },
	"ApiUserData":                             func() any { return new(gen.ApiUserData) },
	"ApiValidationError":                      func() any { return new(gen.ApiValidationError) },
	"ApiValidationWarning":                    func() any { return new(gen.ApiValidationWarning) },
	"ApiVariation":                            func() any { return new(gen.ApiVariation) },
	"ApiVariationData":                        func() any { return new(gen.ApiVariationData) },
	"ApiVariationDataObject":                  func() any { return new(gen.ApiVariationDataObject) },
	"ApiVariationRC":                          func() any { return new(gen.ApiVariationRC) },
	"Cell":                                    func() any { return new(gen.Cell) },
	"ExecutionState":                          func() any { return new(gen.ExecutionState) },
	"Filter":                                  func() any { return new(gen.Filter) },
	"Graph":                                   func() any { return new(gen.Graph) },
	"Point":                                   func() any { return new(gen.Point) },
	"Row":                                     func() any { return new(gen.Row) },
	"Sort":                                    func() any { return new(gen.Sort) },
	"StatisticsKey":                           func() any { return new(gen.StatisticsKey) },
}

// TestNullDecodesInEveryResponseModel: the real server answers null for
// fields a generated client treats as required. Every model an answer can
// carry decodes null in each of its fields, in all of them at once, and as
// a whole, without error, and keeps the other fields.
func TestNullDecodesInEveryResponseModel(t *testing.T) {
	doc := loadSpec(t)
	names := responseModelNames(doc)
	require.Greater(t, len(names), 40)
	assert.Equal(t, names, slices.Sorted(maps.Keys(responseModels)), "responseModels lists exactly the response models")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			newModel, found := responseModels[name]
			require.True(t, found, "response model %s has no entry in responseModels", name)
			props := slices.Sorted(maps.Keys(doc.Components.Schemas[name].Value.Properties))
			require.NoError(t, json.Unmarshal([]byte(`null`), newModel()), "null as the whole answer")
			all := map[string]any{}
			for _, p := range props {
				all[p] = nil
				one := map[string]any{p: nil, "notInTheSpec": "kept"}
				v := newModel()
				require.NoError(t, json.Unmarshal(mustJSON(t, one), v), "field %s null", p)
				assert.Contains(t, string(mustJSON(t, v)), `"notInTheSpec":"kept"`, "the other fields survive a null %s", p)
			}
			require.NoError(t, json.Unmarshal(mustJSON(t, all), newModel()), "every field null")
		})
	}
}

// TestNullDecodesInsideLists: list items of null decode too.
func TestNullDecodesInsideLists(t *testing.T) {
	var page gen.ApiStrictTableChartData
	require.NoError(t, json.Unmarshal([]byte(`{"entityList":[null,{"index":1,"cells":[null,{"value":null}]}],"totalEntityCount":null}`), &page))
	require.Len(t, page.EntityList, 2)
	assert.Len(t, page.EntityList[1].Cells, 2)
	var scenarios []gen.ApiScenarioData
	require.NoError(t, json.Unmarshal([]byte(`[null,{"id":1,"name":null,"type":null,"tables":[null]}]`), &scenarios))
	assert.EqualValues(t, 1, scenarios[1].Id)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// responseModelNames lists the component schemas an answer can carry: those
// the responses of every operation reference, and those they reference in
// turn, that are objects.
func responseModelNames(doc *openapi3.T) []string {
	seen := map[string]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		if ref.Ref != "" {
			name := ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
			if seen[name] {
				return
			}
			seen[name] = true
		}
		s := ref.Value
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range group {
				walk(sub)
			}
		}
	}
	for _, o := range specOperations(doc) {
		for _, r := range o.op.Responses.Map() {
			for _, media := range r.Value.Content {
				walk(media.Schema)
			}
		}
	}
	var names []string
	for name := range seen {
		if s := doc.Components.Schemas[name].Value; s.Type.Is("object") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
