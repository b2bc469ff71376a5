package api_test

import (
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observedFacts are the facts of what a real client of the real server
// sends and reads (shared/reference/observed-client.md), each with the spec
// element that must carry it, marked x-observed, and what the element must
// say.
var observedFacts = map[string]struct {
	marked func(*openapi3.T) map[string]any
	holds  func(t *testing.T, doc *openapi3.T)
}{
	"findAndOpenProjectByName sends fullMatch always, first": {
		marked: func(d *openapi3.T) map[string]any {
			return param(d, "findAndOpenProjectByName", "fullMatch").Extensions
		},
		holds: func(t *testing.T, d *openapi3.T) {
			p := op(d, "findAndOpenProjectByName").Parameters
			assert.Equal(t, "fullMatch", p[0].Value.Name)
			assert.True(t, p[0].Value.Required)
		},
	},
	"the project's id is id": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiProjectResponse", "id").Extensions },
		holds:  requires("ApiProjectResponse", "id"),
	},
	"getScenarios takes projectId": {
		marked: func(d *openapi3.T) map[string]any { return param(d, "getScenarios", "projectId").Extensions },
	},
	"each scenario has id, name, type": {
		marked: func(d *openapi3.T) map[string]any { return ok(d, "getScenarios").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, "#/components/schemas/ApiScenarioData", ok(d, "getScenarios").Content.Get("application/json").Schema.Value.Items.Ref)
			requires("ApiScenarioData", "id", "name")(t, d)
			assert.Contains(t, schema(d, "ApiScenarioData").Properties, "type")
			assert.NotNil(t, prop(d, "ApiScenarioData", "id").Extensions["x-observed"])
			assert.NotNil(t, prop(d, "ApiScenarioData", "name").Extensions["x-observed"])
		},
	},
	"getExperiments takes projectId and scenarioId": {
		marked: func(d *openapi3.T) map[string]any { return param(d, "getExperiments", "scenarioId").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.NotNil(t, param(d, "getExperiments", "projectId").Extensions["x-observed"])
		},
	},
	"each run configuration has id and type": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiBasicRunConfiguration", "id").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			requires("ApiBasicRunConfiguration", "id", "type")(t, d)
			assert.Equal(t, "#/components/schemas/ExperimentType", schema(d, "ApiBasicRunConfiguration").Properties["type"].Ref)
			assert.NotNil(t, ok(d, "getExperiments").Extensions["x-observed"])
		},
	},
	"runExperimentSynchronously takes the run configuration's id": {
		marked: func(d *openapi3.T) map[string]any { return param(d, "runExperimentSynchronously", "rcId").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.Len(t, op(d, "runExperimentSynchronously").Parameters, 1, "one input")
		},
	},
	"runExperimentSynchronously answers experimentResultId": {
		marked: func(d *openapi3.T) map[string]any {
			return prop(d, "ApiRunExperiment", "experimentResultId").Extensions
		},
		holds: func(t *testing.T, d *openapi3.T) {
			assert.Equal(t, "#/components/schemas/ApiRunExperiment", ok(d, "runExperimentSynchronously").Content.Get("application/json").Schema.Ref)
			requires("ApiRunExperiment", "experimentResultId")(t, d)
			for _, name := range []string{"validationStatus", "validationErrors"} {
				p := prop(d, "ApiRunExperiment", name)
				assert.Equal(t, true, p.Extensions["x-inferred"], "%s is inferred", name)
				assert.NotContains(t, schema(d, "ApiRunExperiment").Required, name)
			}
		},
	},
	"getExperimentDashboardPages takes experimentResultId": {
		marked: func(d *openapi3.T) map[string]any {
			return param(d, "getExperimentDashboardPages", "experimentResultId").Extensions
		},
	},
	"each dashboard page has id and name": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiDashboardPage", "id").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			requires("ApiDashboardPage", "id", "name")(t, d)
			assert.NotNil(t, prop(d, "ApiDashboardPage", "name").Extensions["x-observed"])
		},
	},
	"exportDashboardPage takes experimentResultId and pageId, in that order": {
		marked: func(d *openapi3.T) map[string]any { return op(d, "exportDashboardPage").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			var names []string
			for _, p := range op(d, "exportDashboardPage").Parameters {
				names = append(names, p.Value.Name)
				assert.True(t, p.Value.Required, p.Value.Name)
				assert.NotNil(t, p.Value.Extensions["x-observed"], p.Value.Name)
			}
			assert.Equal(t, []string{"experimentResultId", "pageId"}, names)
		},
	},
	"importExcel sends newScenarioName, projectId, file and needToImportExperiments": {
		marked: func(d *openapi3.T) map[string]any { return op(d, "importExcel").RequestBody.Value.Extensions },
	},
	"a workbook's file name must end in .xlsx": {
		marked: func(d *openapi3.T) map[string]any { return formField(d, "importExcel", "file").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.NotNil(t, formField(d, "importExcelExisting", "file").Extensions["x-observed"])
		},
	},
	"importExcel answers jobId": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiImportResponse", "jobId").Extensions },
		holds:  requires("ApiImportResponse", "jobId"),
	},
	"getImportStatus takes jobId and answers status, scenarioId, error": {
		marked: func(d *openapi3.T) map[string]any { return param(d, "getImportStatus", "jobId").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.NotNil(t, ok(d, "getImportStatus").Extensions["x-observed"])
			requires("ApiImportScenarioStatus", "status")(t, d)
			assert.NotNil(t, prop(d, "ApiImportScenarioStatus", "scenarioId").Extensions["x-observed"])
			assert.NotNil(t, prop(d, "ApiImportScenarioStatus", "error").Extensions["x-observed"])
		},
	},
	"the import status values are DONE, FAILED, CANCELED": {
		marked: func(d *openapi3.T) map[string]any { return schema(d, "ImportJobStatus").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			enum := schema(d, "ImportJobStatus").Enum
			for _, v := range []string{"DONE", "FAILED", "CANCELED"} {
				assert.Contains(t, enum, v)
			}
			assert.NotContains(t, enum, "FINISHED")
			assert.NotContains(t, enum, "CANCELLED")
		},
	},
	"importExcelExisting answered null in a field a client treated as required": {
		marked: func(d *openapi3.T) map[string]any { return ok(d, "importExcelExisting").Extensions },
	},
	"a stale id answers 500 with a JSON message": {
		marked: func(d *openapi3.T) map[string]any { return prop(d, "ApiError", "message").Extensions },
		holds: func(t *testing.T, d *openapi3.T) {
			assert.NotNil(t, d.Components.Responses["Error"].Value.Extensions["x-observed"])
		},
	},
	"the security scheme is ApiKey": {
		marked: func(d *openapi3.T) map[string]any { return d.Components.SecuritySchemes["ApiKey"].Value.Extensions },
	},
	"servers are reached over HTTPS with their own certificates": {
		marked: func(d *openapi3.T) map[string]any { return d.Servers[0].Extensions },
	},
}

func TestEveryObservedFactIsMarked(t *testing.T) {
	doc := loadSpec(t)
	for claim, f := range observedFacts {
		t.Run(claim, func(t *testing.T) {
			source, _ := f.marked(doc)["x-observed"].(string)
			assert.NotEmpty(t, source, "the element carries x-observed with its source")
			if f.holds != nil {
				f.holds(t, doc)
			}
		})
	}
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

func schema(d *openapi3.T, name string) *openapi3.Schema { return d.Components.Schemas[name].Value }

func prop(d *openapi3.T, model, name string) *openapi3.Schema {
	p, found := schema(d, model).Properties[name]
	if !found {
		panic(model + " has no property " + name)
	}
	return p.Value
}

func formField(d *openapi3.T, opID, name string) *openapi3.Schema {
	return op(d, opID).RequestBody.Value.Content.Get("multipart/form-data").Schema.Value.Properties[name].Value
}

func requires(model string, names ...string) func(*testing.T, *openapi3.T) {
	return func(t *testing.T, d *openapi3.T) {
		t.Helper()
		req := schema(d, model).Required
		for _, n := range names {
			require.Contains(t, schema(d, model).Properties, n, model)
			assert.True(t, slices.Contains(req, n), "%s requires %s", model, n)
		}
	}
}
