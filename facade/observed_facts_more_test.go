package facade

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// moreObservedFacts are the facts of the second reading of the recordings
// (observed-client.md, "More recorded facts"): each in the spec and in what
// the facade does with it.
var moreObservedFacts = map[string]observedFact{
	"a result page's chart is one of two wrappers told apart by className": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiExperimentResultChartWrapper").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			w := schema(d, "ApiExperimentResultChartWrapper")
			assert.Len(t, w.OneOf, 2)
			require.NotNil(t, w.Discriminator)
			assert.Equal(t, "className", w.Discriminator.PropertyName)
			requiresExactly("ApiExperimentResultGraphChartWrapper", "chart", "className", "data")(t, d)
			requiresExactly("ApiExperimentResultTableChartWrapper", "chart", "className", "data")(t, d)
			requiresExactly("ApiChartMetadataShort", "id", "isGroupModeEnabled", "layout", "name", "rcId", "type")(t, d)
			requiresExactly("ApiChartLayoutData", "height", "startCol", "startRow", "width")(t, d)
			assert.ElementsMatch(t, []any{"LINE", "TABLE", "BAR", "BMW-LINE", "HISTOGRAM"}, schema(d, "ChartType").Enum)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			types := map[gen.ChartType]int{}
			for p, err := range c.Results.Result(testCtx(t), 5101, nil) {
				require.NoError(t, err)
				for _, w := range p.Charts {
					chart := w.Chart()
					require.NotNil(t, chart, "a known className")
					types[chart.Type]++
					assert.Equal(t, chart.Type == gen.ChartTypeTABLE, w.Table != nil, "TABLE charts carry table data, the others graph data")
					assert.Equal(t, 2, int(chart.Layout.Width))
				}
			}
			assert.Equal(t, map[gen.ChartType]int{gen.ChartTypeBAR: 1, gen.ChartTypeLINE: 10, gen.ChartTypeHISTOGRAM: 4, gen.ChartTypeTABLE: 2}, types)
			assert.Empty(t, c.Drift())
		},
	},
	"graph and table data are {entityList, id, (showX,) totalEntityCount, totalTechnicalRowCount, type}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiStrictTableChartData").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiStrictTableChartData", "entityList", "id", "totalEntityCount", "totalTechnicalRowCount", "type")(t, d)
			assert.Contains(t, schema(d, "ApiGraphChartData").Properties, "showX")
			assert.NotContains(t, schema(d, "ApiStrictTableChartData").Properties, "rows")
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			table, err := c.Results.VariationResult(testCtx(t), 5102)
			require.NoError(t, err)
			assert.Equal(t, gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Id: 5102, Type: "TABLE"}, *table, "no rows, the rcId as id")
		},
	},
	"dashboard pages carry their charts {id, name}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiDashboardPage").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiDashboardChartData", "id", "name")(t, d)
			assert.Contains(t, schema(d, "ApiDashboardPage").Properties, "charts")
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			pages, err := c.Dashboards.Pages(testCtx(t), 90021)
			require.NoError(t, err)
			require.NotNil(t, pages[0].Charts)
			assert.Equal(t, int64(pages[0].Id)+1, (*pages[0].Charts)[0].Id, "chart ids follow their page's")
		},
	},
	"a listed run's rcId is its experimentResultId, its id one less; VARIATION runs are not listed": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiBasicRun", "rcId").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Contains(t, prop(d, "ApiBasicRun", "rcId").Description, "experimentResultId")
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			out, err := c.Experiments.RunSync(testCtx(t), 5101)
			require.NoError(t, err)
			latest, err := c.Experiments.LatestRun(testCtx(t), 5101)
			require.NoError(t, err)
			assert.Equal(t, out.ExperimentResultId, latest.RcId)
			assert.Equal(t, ids.RunID(out.ExperimentResultId-1), latest.Id)
			pages, err := c.Dashboards.Pages(testCtx(t), out.ExperimentResultId)
			require.NoError(t, err)
			assert.Equal(t, ids.PageID(out.ExperimentResultId+2), pages[0].Id, "the first dashboard page is experimentResultId+2")
			again, err := c.Experiments.RunSync(testCtx(t), 5101)
			require.NoError(t, err)
			assert.NotEqual(t, out.ExperimentResultId, again.ExperimentResultId, "every run gives a new result id")
		},
	},
	"a variation's objectType, object, parameter and variationType are {id, name}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiVariation").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			for _, name := range []string{"objectType", "object", "parameter", "variationType"} {
				assert.Equal(t, "#/components/schemas/ApiIdNameObject", schema(d, "ApiVariation").Properties[name].Ref, name)
			}
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			ref := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "101", ParameterID: "quantity"}
			v, err := c.Variations.CreateNew(testCtx(t), gen.ApiVariationCreateRequest{RcId: 5102, ApiVariation: ref.Variation(gen.VariationTypeNUMBERRANGE,
				&gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(10.0), Max: ptr(20.0), Step: ptr(5.0)}})})
			require.NoError(t, err)
			assert.Equal(t, gen.ApiIdNameObject{Id: "NUMBER_RANGE", Name: "i18n-Variation_NumberRange"}, *v.VariationType)
			assert.Empty(t, c.Drift())
		},
	},
	"animationModelId is null in every listed run configuration": {
		marked: func(d *openapi3.T) map[string]any {
			return prop(d, "ApiBasicRunConfiguration", "animationModelId").Extensions
		},
		spec: func(t *testing.T, d *openapi3.T) {
			assert.True(t, prop(d, "ApiBasicRunConfiguration", "animationModelId").Nullable)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			list, err := c.Experiments.List(testCtx(t), 12, 1201)
			require.NoError(t, err)
			for _, e := range list {
				assert.Nil(t, e.AnimationModelId)
			}
			assert.Empty(t, c.Drift(), "null is allowed")
		},
	},
	"closeProject answers currentUserId null": {
		marked: func(d *openapi3.T) map[string]any { return ok(d, "closeProject").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.True(t, prop(d, "ApiProjectResponse", "currentUserId").Nullable)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			p, err := c.Projects.Close(testCtx(t))
			require.NoError(t, err)
			assert.Nil(t, p.CurrentUserId)
			assert.Empty(t, c.Drift())
		},
	},
	"right after a start the status shows the last run's end; the synchronous run is held open": {
		marked: func(d *openapi3.T) map[string]any { return op(d, "runExperimentSynchronously").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, true, op(d, "runExperimentSynchronously").Extensions["x-held-open"])
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			rs.RunsEndUnseen()
			run, err := c.Experiments.Start(testCtx(t), 5101, nil)
			require.NoError(t, err)
			st, err := run.Poll(testCtx(t))
			require.NoError(t, err)
			assert.True(t, *st.Finished, "the last run's end")
			assert.False(t, run.Done(), "not this run's")
		},
	},
	"HAS_ERRORS holds hundreds of validation errors, mostly repeats; validationWarnings is null": {
		marked: func(d *openapi3.T) map[string]any {
			return prop(d, "ApiExperimentResult", "validationErrors").Extensions
		},
		spec: func(t *testing.T, d *openapi3.T) {
			assert.True(t, prop(d, "ApiExperimentResult", "validationWarnings").Nullable)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			_, err := c.Experiments.RunSync(testCtx(t), 5104)
			var se *StateError
			require.ErrorAs(t, err, &se)
			assert.Len(t, se.Validation, 301)
			assert.Len(t, se.Groups(), 7)
			assert.Less(t, len(err.Error()), 600)
		},
	},
	"skip, take and fullMatch are required with defaults; clients always send them": {
		marked: func(d *openapi3.T) map[string]any { return d.Components.Parameters["take"].Value.Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			for _, name := range []string{"skip", "take"} {
				p := d.Components.Parameters[name].Value
				assert.True(t, p.Required, name)
				assert.NotNil(t, p.Schema.Value.Default, name)
			}
			assert.True(t, param(d, "getExperimentDashboardPage", "fullMatch").Required)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			for _, err := range c.Results.Result(testCtx(t), 5101, nil) {
				require.NoError(t, err)
			}
			assert.Equal(t, "rcId=5101&skip=0&take=1000", rs.LastQuery(gen.OpGetExperimentRunResult))
		},
	},
	"every error answer carries the headers of the nginx in front of the server": {
		marked: func(d *openapi3.T) map[string]any { return d.Components.Responses["Error"].Value.Extensions },
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			_, err := c.Scenarios.ConvertSSEResult(testCtx(t), 90011, false, nil)
			require.Error(t, err)
			srv := faketest.NewServer(t, fake.WithAPIKeys(testKey))
			req, _ := http.NewRequestWithContext(testCtx(t), http.MethodGet, srv.URL+"/open/project/open?projectId=999", nil)
			req.Header.Set("Authorization", testKey)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			for k, v := range recorded.ErrorHeaders {
				assert.Equal(t, v, resp.Header.Get(k), "the fake's error answers carry %s, as recorded", k)
			}
		},
	},
	"Access is denied also answers an id the user does not own": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiError", "message").Extensions },
		facade: func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"message":"Access is denied","details":{}}`)
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.Scenarios.ConvertNOResult(testCtx(t), 90011, 7, gen.ScenarioTypeSIM, nil)
			assert.ErrorIs(t, err, ErrForbidden)
			assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
			assert.True(t, strings.Contains(err.Error(), "the id may be wrong"), err.Error())
		},
	},
}
