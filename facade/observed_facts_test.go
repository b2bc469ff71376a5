package facade

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// observedFact is one fact of what a real server was recorded answering
// and real clients send: the spec element that must carry it marked
// x-observed (and what the spec must say), and what the facade does with
// it, against the recorded answers.
type observedFact struct {
	marked func(d *openapi3.T) map[string]any
	spec   func(t *testing.T, d *openapi3.T)
	facade func(t *testing.T)
}

var observedFacts = map[string]observedFact{
	"clients send the key in the Authorization header of scheme ApiKey": {
		marked: func(d *openapi3.T) map[string]any { return d.Components.SecuritySchemes["ApiKey"].Value.Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, "Authorization", d.Components.SecuritySchemes["ApiKey"].Value.Name)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			_, err := c.User.Current(testCtx(t))
			require.NoError(t, err)
			assert.Equal(t, testKey, rs.Headers()[0].Get("Authorization"), "the key alone, with no prefix word")
		},
	},
	"servers are reached over HTTPS under /api/v1, often with their own certificate": {
		marked: func(d *openapi3.T) map[string]any { return d.Servers[0].Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.True(t, strings.HasSuffix(d.Servers[0].URL, "/api/v1"))
			assert.Equal(t, "https", d.Servers[0].Variables["scheme"].Default)
		},
		facade: func(t *testing.T) {
			_, err := New("https://scm.example.com/api/v1", WithAPIKey(testKey), WithCACertFile("testdata/no-such-ca.pem"))
			assert.ErrorContains(t, err, "no-such-ca.pem", "a server's own CA is trusted by file")
		},
	},
	"getCurrentUser answers ApiUserData {email, firstName, id, lastName, username}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiUserData").Extensions },
		spec:   requiresExactly("ApiUserData", "email", "firstName", "id", "lastName", "username"),
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			u, err := c.User.Current(testCtx(t))
			require.NoError(t, err)
			assert.Equal(t, gen.ApiUserData{Email: "analyst@example.com", FirstName: "Ana", Id: 7, LastName: "", Username: "analyst"}, *u)
		},
	},
	"projects have accessible, creationDate, currentUserId (or null), deleted, id, name, ownerUserId": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiProjectResponse").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiProjectResponse", "accessible", "creationDate", "currentUserId", "deleted", "id", "name", "ownerUserId")(t, d)
			assert.True(t, prop(d, "ApiProjectResponse", "currentUserId").Nullable)
			for _, op := range []string{"getProjects", "findAndOpenProjectByName", "closeProject"} {
				assert.NotEmpty(t, ok(d, op).Extensions["x-observed"], op)
			}
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			list, err := c.Projects.List(testCtx(t))
			require.NoError(t, err)
			require.Len(t, list, 2)
			assert.Nil(t, list[0].CurrentUserId)
			assert.Equal(t, time.Date(2026, 3, 10, 16, 19, 55, 145394000, time.UTC), list[0].CreationDate, "microseconds and Z")
			p, err := c.Projects.OpenByName(testCtx(t), "Retail Network", nil)
			require.NoError(t, err)
			assert.EqualValues(t, 7, *p.CurrentUserId)
			closed, err := c.Projects.Close(testCtx(t))
			require.NoError(t, err)
			assert.Nil(t, closed.CurrentUserId)
		},
	},
	"scenarios are {id, name, type SIM|NO|GFA}, and names are not unique": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiScenarioData").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiScenarioData", "id", "name", "type")(t, d)
			assert.ElementsMatch(t, []any{"SIM", "NO", "GFA"}, schema(d, "ScenarioType").Enum)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			list, err := c.Scenarios.List(testCtx(t), 12)
			require.NoError(t, err)
			require.Len(t, list, 6)
			assert.Equal(t, list[0].Name, list[1].Name, "two scenarios named Baseline")
			assert.NotEqual(t, list[0].Id, list[1].Id)
			types := map[gen.ScenarioType]bool{}
			for _, s := range list {
				types[s.Type] = true
			}
			assert.Equal(t, map[gen.ScenarioType]bool{gen.ScenarioTypeSIM: true, gen.ScenarioTypeNO: true, gen.ScenarioTypeGFA: true}, types)
		},
	},
	"getExperiments answers five ApiBasicRunConfiguration of 16 fields per scenario": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiBasicRunConfiguration").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Len(t, schema(d, "ApiBasicRunConfiguration").Properties, 16)
			assert.Contains(t, prop(d, "ApiBasicRunConfiguration", "validationStatus").Enum, "NOT_CONDUCTED")
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			list, err := c.Experiments.List(testCtx(t), 12, 1201)
			require.NoError(t, err)
			var types []gen.ExperimentType
			for _, e := range list {
				types = append(types, e.Type)
				assert.Nil(t, e.AnimationModelId, "null in every configuration listed")
				assert.True(t, strings.HasPrefix(e.Name, "i18n-Experiment_"), e.Name)
				assert.Zero(t, e.AdditionalProperties.Len(), "every field is in the spec: %v", e.AdditionalProperties)
			}
			assert.Equal(t, []gen.ExperimentType{gen.ExperimentTypeSIMULATION, gen.ExperimentTypeVARIATION, gen.ExperimentTypeCOMPARISON,
				gen.ExperimentTypeSAFETYSTOCK, gen.ExperimentTypeRISKANALYSIS}, types)
		},
	},
	"getExperimentRunsForScenario answers ApiBasicRun {hasOptions, id, name, rcId, removing, scenarioId, type}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiBasicRun").Extensions },
		spec:   requiresExactly("ApiBasicRun", "hasOptions", "id", "name", "rcId", "removing", "scenarioId", "type"),
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			latest, err := c.Experiments.LatestRun(testCtx(t), 5101)
			require.NoError(t, err)
			assert.EqualValues(t, 90021, latest.RcId, "the newest SIMULATION run of the scenario: its rcId is its experimentResultId")
			assert.EqualValues(t, 90020, latest.Id)
			assert.Equal(t, "Statistics 2", latest.Name)
			none, err := c.Experiments.LatestRun(testCtx(t), 5105)
			require.NoError(t, err)
			assert.Nil(t, none, "no RISK_ANALYSIS run is listed")
		},
	},
	"runExperimentSynchronously answers ApiExperimentResult; with HAS_ERRORS experimentResultId is the rcId": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiExperimentResult").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, "#/components/schemas/ApiExperimentResult", ok(d, "runExperimentSynchronously").Content.Get("application/json").Schema.Ref)
			requiresExactly("ApiExperimentResult", "experimentResultId", "validationStatus", "validationErrors", "validationWarnings")(t, d)
			assert.ElementsMatch(t, []any{"OK", "HAS_ERRORS"}, prop(d, "ApiExperimentResult", "validationStatus").Enum)
			requiresExactly("ApiValidationError", "message", "source")(t, d)
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			out, err := c.Experiments.RunSync(testCtx(t), 5101)
			require.NoError(t, err)
			assert.EqualValues(t, 90101, out.ExperimentResultId, "a new result id for the run")
			out, err = c.Experiments.RunSync(testCtx(t), 5104)
			assert.Nil(t, out)
			assert.ErrorIs(t, err, ErrFailed, "no result id is handed out: the answer's is the rcId")
		},
	},
	"runExperiment(rcId, skipScenarioWarnings) answers ApiRunExperiment {animationModelId, experimentTypeId, is3dAnimation}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiRunExperiment").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiRunExperiment", "animationModelId", "experimentTypeId", "is3dAnimation")(t, d)
			assert.NotEmpty(t, param(d, "runExperiment", "skipScenarioWarnings").Extensions["x-observed"])
			assert.False(t, param(d, "runExperiment", "skipScenarioWarnings").Required)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			run, err := c.Experiments.Start(testCtx(t), 5101, &StartOptions{SkipScenarioWarnings: true})
			require.NoError(t, err)
			assert.Equal(t, "rcId=5101&skipScenarioWarnings=true", rs.lastQuery(gen.OpRunExperiment))
			assert.Equal(t, gen.ExperimentTypeSIMULATION, EvidenceOf(run).StartAnswer.ExperimentTypeId)
			assert.Nil(t, run.State(), "the answer carries no state")
			_, err = c.Experiments.Start(testCtx(t), 5101, nil)
			require.NoError(t, err)
			assert.Equal(t, "rcId=5101", rs.lastQuery(gen.OpRunExperiment))
		},
	},
	"getExperimentStatus answers ExecutionState booleans, no state and no progress": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ExecutionState").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ExecutionState", "failed", "finished", "genericState", "routesLoading", "step", "stopTrigger", "terminal", "text")(t, d)
			assert.NotContains(t, schema(d, "ExecutionState").Properties, "state")
			assert.NotContains(t, schema(d, "ExecutionState").Properties, "progress")
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			run := c.Run(5102)
			st, err := run.Wait(testCtx(t), nil)
			require.NoError(t, err)
			assert.Equal(t, RunFinished, RunStateValue(st))
			assert.Equal(t, 1, rs.calls(gen.OpGetExperimentStatus), "a Run from its rcId alone takes the first end, the last run's")
			assert.Equal(t, EndUnchecked, EvidenceOf(run).End)
		},
	},
	"getExperimentRunResult(rcId, skip 0, take 1000) answers pages of {page: {id string, name}, charts}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiExperimentResultData").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiExperimentResultData", "pages")(t, d)
			assert.True(t, prop(d, "ApiPage", "id").Type.Is("string"))
			assert.Equal(t, "pages", op(d, "getExperimentRunResult").Extensions["x-paged-items"])
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			var names []string
			for p, err := range c.Results.Result(testCtx(t), 5101, nil) {
				require.NoError(t, err)
				names = append(names, p.Page.Name)
			}
			assert.Equal(t, []string{"Financial and customer performance", "Operational performance ", "Inventory and capacity dynamics"}, names)
			assert.Equal(t, "rcId=5101&skip=0&take=1000", rs.lastQuery(gen.OpGetExperimentRunResult))
		},
	},
	"dashboard pages have integer ids, unlike the result's pages": {
		marked: func(d *openapi3.T) map[string]any { return ok(d, "getExperimentDashboardPages").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.True(t, prop(d, "ApiDashboardPage", "id").Type.Is("integer"))
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			pages, err := c.Dashboards.Pages(testCtx(t), 90021)
			require.NoError(t, err)
			assert.Equal(t, []ids.PageID{90023, 90026}, []ids.PageID{pages[0].Id, pages[1].Id})
		},
	},
	"exportDashboardPage exports one page per call; clients merge the workbooks": {
		marked: func(d *openapi3.T) map[string]any { return op(d, "exportDashboardPage").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			var names []string
			for _, p := range op(d, "exportDashboardPage").Parameters {
				names = append(names, p.Value.Name)
			}
			assert.Equal(t, []string{"experimentResultId", "pageId"}, names)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			_, err := exportEveryPage(testCtx(t), c, 90021)
			require.NoError(t, err)
			assert.Equal(t, 2, rs.calls(gen.OpExportDashboardPage))
			assert.Equal(t, "experimentResultId=90021&pageId=90026", rs.lastQuery(gen.OpExportDashboardPage))
		},
	},
	"importExcel answers ApiImportResponse {error, jobId}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiImportResponse").Extensions },
		spec:   requiresExactly("ApiImportResponse", "error", "jobId"),
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			job, err := c.Imports.Excel(testCtx(t), 12, "Variant", UploadReader("v.xlsx", strings.NewReader("PK")), nil)
			require.NoError(t, err)
			assert.EqualValues(t, 78, job.JobID)
			assert.Nil(t, job.Start.Error)
		},
	},
	"getImportStatus answers status, scenarioId and error; DONE on the first poll": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ImportJobStatus").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Contains(t, schema(d, "ImportJobStatus").Enum, "DONE")
			for _, name := range []string{"status", "scenarioId", "error"} {
				assert.Contains(t, schema(d, "ApiImportScenarioStatus").Properties, name)
			}
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			st, err := c.Job(78).Wait(testCtx(t), nil)
			require.NoError(t, err)
			assert.Equal(t, gen.ImportJobStatusDONE, st.Status)
			assert.Equal(t, 1, rs.calls(gen.OpGetImportStatus))
		},
	},
	"copyScenarioSynchronously takes {newName} and answers a copy named null": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiConvertAndCopyParameters").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, []string{"newName"}, slices.Sorted(maps.Keys(schema(d, "ApiConvertAndCopyParameters").Properties)))
			assert.True(t, prop(d, "ApiScenarioData", "name").Nullable)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			s, err := c.Scenarios.CopySync(testCtx(t), 1201, gen.ScenarioTypeSIM, &NewScenarioOptions{Name: "Copy"})
			require.NoError(t, err)
			assert.Nil(t, s.Name)
			assert.EqualValues(t, 1208, s.Id)
			assert.JSONEq(t, `{"newName":"Copy"}`, rs.lastBody(gen.OpCopyScenarioSynchronously))
		},
	},
	"importScenarioExisting answers the scenario synchronously": {
		marked: func(d *openapi3.T) map[string]any { return ok(d, "importScenarioExisting").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Nil(t, op(d, "importScenarioExisting").Extensions["x-async"])
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			s, err := c.Imports.ScenarioExisting(testCtx(t), 12, 1201, UploadReader("network-2026-04.xlsx", strings.NewReader("PK")), nil)
			require.NoError(t, err)
			assert.Equal(t, "network-2026-04", *s.Name)
		},
	},
	"importExcel needs needToImportExperiments=true to create the scenario": {
		marked: func(d *openapi3.T) map[string]any {
			return specFormField(d, "importExcel", "needToImportExperiments").Extensions
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			_, err := c.Imports.Excel(testCtx(t), 12, "A", UploadReader("a.xlsx", strings.NewReader("PK")), nil)
			require.NoError(t, err)
			assert.Equal(t, []string{"true"}, rs.lastForm(gen.OpImportExcel)["needToImportExperiments"], "true unless told otherwise")
			_, err = c.Imports.Excel(testCtx(t), 12, "A", UploadReader("a.xlsx", strings.NewReader("PK")), &ImportOptions{SkipExperiments: true})
			require.NoError(t, err)
			assert.Equal(t, []string{"false"}, rs.lastForm(gen.OpImportExcel)["needToImportExperiments"])
		},
	},
	"importExcelExisting requires newScenarioName": {
		marked: func(d *openapi3.T) map[string]any {
			return specFormField(d, "importExcelExisting", "newScenarioName").Extensions
		},
		spec: func(t *testing.T, d *openapi3.T) {
			form := op(d, "importExcelExisting").RequestBody.Value.Content.Get("multipart/form-data").Schema.Value
			assert.Contains(t, form.Required, "newScenarioName")
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			_, err := c.Imports.ExcelExisting(testCtx(t), 12, 1201, "", UploadReader("a.xlsx", strings.NewReader("PK")), nil)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "newScenarioName", ve.Field)
		},
	},
	"a workbook's file name must end in .xlsx": {
		marked: func(d *openapi3.T) map[string]any { return specFormField(d, "importExcel", "file").Extensions },
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			_, err := c.Imports.Excel(testCtx(t), 12, "A", UploadReader("network", strings.NewReader("PK")), nil)
			require.NoError(t, err)
			assert.Equal(t, []string{"network.xlsx"}, rs.lastForm(gen.OpImportExcel)["file"], "the uploaded file's name")
		},
	},
	"findAndOpenProjectByName sends fullMatch always, first": {
		marked: func(d *openapi3.T) map[string]any {
			return param(d, "findAndOpenProjectByName", "fullMatch").Extensions
		},
		spec: func(t *testing.T, d *openapi3.T) {
			p := op(d, "findAndOpenProjectByName").Parameters
			assert.Equal(t, "fullMatch", p[0].Value.Name)
			assert.True(t, p[0].Value.Required)
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			_, err := c.Projects.OpenByName(testCtx(t), "Retail Network", nil)
			require.NoError(t, err)
			assert.Equal(t, "fullMatch=true&projectName=Retail+Network", rs.lastQuery(gen.OpFindAndOpenProjectByName))
		},
	},
	"variations: ApiOptionList {list: [{id, name}]}, objects paged, NUMBER_RANGE with data.body": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiOptionList").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			requiresExactly("ApiOptionList", "list")(t, d)
			assert.ElementsMatch(t, []string{"rcId", "apiVariation"}, schema(d, "ApiVariationCreateRequest").Required)
			assert.Equal(t, "list", op(d, "getVariableParameterObjects").Extensions["x-paged-items"])
		},
		facade: func(t *testing.T) {
			rs, c := newRecorded(t)
			types, err := c.Variations.ObjectTypes(testCtx(t), 1201)
			require.NoError(t, err)
			assert.Equal(t, "DemandData_SIM_FULL", types.List[0].Id)
			var objects []string
			for o, err := range c.Variations.Objects(testCtx(t), 1201, "DemandData_SIM_FULL", nil) {
				require.NoError(t, err)
				objects = append(objects, o.Id)
			}
			assert.Equal(t, []string{"101", "102"}, objects)
			quantity := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "101", ParameterID: "quantity"}
			v := quantity.Variation(gen.VariationTypeNUMBERRANGE, &gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(10.0), Max: ptr(20.0), Step: ptr(5.0)}})
			created, err := c.Variations.CreateNew(testCtx(t), gen.ApiVariationCreateRequest{RcId: 5102, ApiVariation: v})
			require.NoError(t, err)
			assert.EqualValues(t, 31, *created.Id)
			assert.JSONEq(t, `{"rcId":5102,"apiVariation":{"objectType":{"id":"DemandData_SIM_FULL","name":""},"object":{"id":"101","name":""},
				"parameter":{"id":"quantity","name":""},"variationType":{"id":"NUMBER_RANGE","name":""},"data":{"body":{"min":10,"max":20,"step":5}}}}`,
				rs.lastBody(gen.OpCreateNewVariableParameter))
			assert.Equal(t, "i18n-Parameter-Quantity", created.Parameter.Name, "the answer names each field")
			assert.Zero(t, rs.calls(gen.OpDoesVariableParameterHasSelectedData), "a number range has no table to select in")
		},
	},
	"every error is HTTP 500 with {message, details}": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ApiError").Extensions },
		spec: func(t *testing.T, d *openapi3.T) {
			assert.Contains(t, schema(d, "ApiError").Properties, "details")
			assert.NotEmpty(t, d.Components.Responses["Error"].Value.Extensions["x-observed"])
		},
		facade: func(t *testing.T) {
			_, c := newRecorded(t)
			_, err := c.Dashboards.ExportPage(testCtx(t), 5104, 5106)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
			assert.Contains(t, apiErr.Message, `because "run" is null`)
			require.NotNil(t, apiErr.Detail)
			assert.NotNil(t, apiErr.Detail.Details)
			assert.True(t, strings.HasPrefix(err.Error(), "facade: exportDashboardPage: Cannot invoke"), err.Error())
			for _, err := range c.Variations.ExistingTableRows(testCtx(t), 5102, 31, ParameterRef{"DemandData_SIM_FULL", "101", "quantity"},
				gen.VariationTypeNUMBERRANGE, nil) {
				assert.ErrorContains(t, err, "getExistingVariableParameterTableData: Tables exist only for link data types")
			}
		},
	},
	"access denied is a 500, matches ErrForbidden and is not retried": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiError", "message").Extensions },
		facade: func(t *testing.T) {
			var calls atomic.Int32
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"message":"Access is denied","details":{}}`)
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.Scenarios.List(testCtx(t), 12)
			assert.ErrorIs(t, err, ErrForbidden)
			assert.EqualValues(t, 1, calls.Load(), "a safe read that is denied is not retried")
		},
	},
}

func TestObservedFacts(t *testing.T) {
	doc, err := api.Load()
	require.NoError(t, err)
	facts := maps.Clone(observedFacts)
	maps.Copy(facts, moreObservedFacts)
	for claim, f := range facts {
		t.Run(claim, func(t *testing.T) {
			source, _ := f.marked(doc)["x-observed"].(string)
			assert.NotEmpty(t, source, "the element carries x-observed with its source")
			if f.spec != nil {
				f.spec(t, doc)
			}
			f.facade(t)
		})
	}
}

// The errors of an answer the facade cannot go on with name what it has.
func TestMissingFieldsStopTheFacade(t *testing.T) {
	answers := map[gen.OperationID]string{
		gen.OpGetExperimentRunResult:      `{"results":[{"key":"cost"}],"totalResults":1}`,
		gen.OpGetExperimentStatus:         `{"genericState":"IDLE","progress":50}`,
		gen.OpRunExperimentSynchronously:  `{"experimentResultId":90013}`,
		gen.OpGetVariableParameterObjects: `{"options":[{"id":"1","name":"a"}]}`,
	}
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		op, _ := operationAt(r.Method, strings.TrimPrefix(r.URL.Path, "/api/v1"))
		fmt.Fprint(w, answers[op])
	}, WithClock(faketest.NewInstantClock()))
	var missing *MalformedError
	for _, err := range c.Results.Result(testCtx(t), 1, nil) {
		require.ErrorAs(t, err, &missing)
		assert.Equal(t, &MalformedError{Operation: "getExperimentRunResult", Model: "ApiExperimentResultData", Field: "pages",
			Has: []string{"results", "totalResults"}}, missing)
	}
	for _, err := range c.Variations.Objects(testCtx(t), 1, "T", nil) {
		require.ErrorAs(t, err, &missing)
		assert.Equal(t, []string{"options"}, missing.Has)
	}
	_, err := c.Run(1).Wait(testCtx(t), nil)
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, "finished, failed, terminal or state", missing.Field)
	assert.Contains(t, missing.Has, "progress")
	_, err = c.Experiments.RunSync(testCtx(t), 1)
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, "validationStatus", missing.Field)
	assert.ErrorIs(t, err, ErrMalformed)
}

// A server that sends a state string (and progress) instead of the flags is
// understood, and polling estimates from the progress.
func TestRunStateStringIsUnderstood(t *testing.T) {
	var polls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch polls.Add(1) {
		case 1:
			fmt.Fprint(w, `{"state":"RUNNING","progress":50}`)
		default:
			fmt.Fprint(w, `{"state":"finished","progress":100}`)
		}
	}, WithClock(faketest.NewInstantClock()))
	st, err := c.Run(1).Wait(testCtx(t), nil)
	require.NoError(t, err)
	assert.Equal(t, RunState("finished"), RunStateValue(st))
	assert.EqualValues(t, 2, polls.Load())

	_, c = newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"failed":true,"finished":false,"terminal":true,"text":"out of memory"}`)
	}, WithClock(faketest.NewInstantClock()))
	_, err = c.Run(1).Wait(testCtx(t), nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.EqualError(t, err, "facade: run 1 ended in state FAILED: out of memory")
}

func schema(d *openapi3.T, name string) *openapi3.Schema { return d.Components.Schemas[name].Value }

func prop(d *openapi3.T, model, name string) *openapi3.Schema {
	p, found := schema(d, model).Properties[name]
	if !found {
		panic(model + " has no property " + name)
	}
	return p.Value
}

func op(d *openapi3.T, id string) *openapi3.Operation {
	for _, item := range d.Paths.Map() {
		for _, o := range item.Operations() {
			if o.OperationID == id {
				return o
			}
		}
	}
	panic("no operation " + id)
}

func param(d *openapi3.T, opID, name string) *openapi3.Parameter {
	for _, p := range op(d, opID).Parameters {
		if p.Value.Name == name {
			return p.Value
		}
	}
	panic(opID + " has no parameter " + name)
}

func ok(d *openapi3.T, opID string) *openapi3.Response {
	return op(d, opID).Responses.Value("200").Value
}

func specFormField(d *openapi3.T, opID, name string) *openapi3.Schema {
	return op(d, opID).RequestBody.Value.Content.Get("multipart/form-data").Schema.Value.Properties[name].Value
}

// requiresExactly checks that a model requires exactly these properties,
// the ones a recording showed every time. The model may have optional
// properties besides (a field added to the spec since): they contradict no
// recording.
func requiresExactly(model string, names ...string) func(*testing.T, *openapi3.T) {
	return func(t *testing.T, d *openapi3.T) {
		t.Helper()
		s := schema(d, model)
		for _, name := range names {
			assert.Contains(t, s.Properties, name, "%s has the recorded property %s", model, name)
		}
		assert.ElementsMatch(t, names, s.Required, "%s's required properties", model)
	}
}
