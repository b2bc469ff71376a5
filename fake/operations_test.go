package fake_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// fixture is the state every operation case starts from: finished runs of
// the experiments whose results are read (a run's id is also the
// experimentResultId of its result), a variation with selected cells, a
// queued copy job, and selected last mile orders.
type fixture struct {
	runs      map[ids.RcID]ids.RunID              // rcId → its finished run
	results   map[ids.RcID]ids.ExperimentResultID // rcId → the experimentResultId of that run
	variation ids.VariationID
	job       ids.JobID
}

// Experiments of the seeded world: those of scenario 101 (GFA), and those
// only an NO scenario has, of scenario 102.
const (
	rcGFA        = 10101
	rcVariation  = 10105
	rcComparison = 10106
	rcLastMile   = 10109
	rcNO         = 10204
	rcSSE        = 10207
	rcSimulation = 10303
)

func newFixture(t *testing.T, e *env) fixture {
	fx := fixture{runs: map[ids.RcID]ids.RunID{}, results: map[ids.RcID]ids.ExperimentResultID{}}
	for _, rc := range []ids.RcID{rcGFA, rcNO, rcVariation, rcComparison, rcSSE, rcLastMile} {
		st, _ := e.run(t, rc)
		require.True(t, *st.Finished, "rcId %d finished", rc)
		fx.runs[rc], fx.results[rc] = e.lastRun(t, rc)
	}
	sel, err := e.c.UpdateExistingVariableParameterTableDataByIndexWithResponse(e.ctx, variationParams("new"),
		gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{1, 2}}}})
	require.NoError(t, err)
	require.NotNil(t, sel.JSON200, string(sel.Body))
	v, err := e.c.CreateVariableParameterWithResponse(e.ctx, &gen.CreateVariableParameterParams{RcId: rcVariation}, demandPeriod())
	require.NoError(t, err)
	require.NotNil(t, v.JSON200, string(v.Body))
	fx.variation = *v.JSON200.Id
	job, err := e.c.CopyScenarioWithResponse(e.ctx, &gen.CopyScenarioParams{ScenarioId: 101, NewType: gen.ScenarioTypeNO}, gen.ApiConvertAndCopyParameters{})
	require.NoError(t, err)
	fx.job = job.JSON200.JobId
	chk, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile},
		gen.ApiIndexColumnSelection{RowIndexes: []int64{0, 1, 2, 3, 4, 5, 6}})
	require.NoError(t, err)
	require.NotNil(t, chk.JSON200)
	return fx
}

// demand is the object type of variations in these tests; its parameter
// period is of a link data type, and has a table.
const demand = "DemandData_SIM_FULL"

func variationParams(variationID string) *gen.UpdateExistingVariableParameterTableDataByIndexParams {
	return &gen.UpdateExistingVariableParameterTableDataByIndexParams{RcId: rcVariation, ObjectTypeId: demand, ObjectId: "1", ParameterId: "period", VariationId: variationID}
}

func demandPeriod() gen.ApiVariation {
	return gen.ApiVariation{Name: ptr("Demand 1 period"), ObjectType: idName(demand), Object: idName("1"), Parameter: idName("period"),
		VariationType: idName(string(gen.VariationTypeLINKLIST))}
}

// idName is an {id, name} that names its id alone.
func idName(id string) *gen.ApiIdNameObject {
	return &gen.ApiIdNameObject{Id: id}
}

type response interface{ StatusCode() int }

// opCase calls one operation and returns its response and what the client
// decoded from it.
type opCase func(t *testing.T, e *env, fx fixture) (response, any, error)

// TestEveryOperation calls each operation of the spec through the generated
// client and checks that each answers successfully with a decoded body. The
// client's transport validates every request against the spec and every
// answer with checkAnswer: the response schema of the spec, and no field the
// spec does not declare, so the fake never speaks a shape the spec does not
// describe.
//
// The operations are the spec's: one the fake has no handler or no case
// for fails with a short message for each, saying what to add and where.
func TestEveryOperation(t *testing.T) {
	cases := operationCases()
	for _, op := range gen.Operations() {
		t.Run(op.ID, func(t *testing.T) {
			t.Parallel()
			call, ok := cases[op.ID]
			if done, missing := implemented(t, op); !done {
				t.Error(missing)
			}
			if !ok {
				t.Errorf("%s has no case: add one to %s (fake/operations_test.go or fake/operations_more_test.go) calling e.c.%sWithResponse",
					op.ID, areaCases(op.Tag), handlerName(op))
			}
			if t.Failed() {
				return
			}
			e := setup(t, fake.WithLicense())
			fx := newFixture(t, e)
			resp, decoded, err := call(t, e, fx)
			require.NoError(t, err)
			assert.Less(t, resp.StatusCode(), 300, "status")
			assertDecoded(t, op, decoded)
		})
	}
	for id := range cases {
		if _, ok := gen.LookupOperation(id); !ok {
			t.Errorf("a case for %q, which the spec does not have: remove it", id)
		}
	}
}

func assertDecoded(t *testing.T, op gen.Operation, decoded any) {
	if op.Response.Status == "default" {
		return
	}
	v := reflect.ValueOf(decoded)
	require.True(t, v.IsValid() && !(v.Kind() == reflect.Pointer && v.IsNil()), "nothing decoded")
	if v.Kind() == reflect.Slice {
		assert.Positive(t, v.Len(), "empty body")
	}
}

func operationCases() map[string]opCase {
	cases := map[string]opCase{}
	for _, part := range []map[string]opCase{projectCases(), scenarioCases(), importCases(), experimentCases(),
		resultCases(), variationCases(), lastMileCases(), userCases()} {
		for k, v := range part {
			cases[k] = v
		}
	}
	return cases
}

func projectCases() map[string]opCase {
	return map[string]opCase{
		"getProjects": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetProjectsWithResponse(e.ctx)
			return r, r.JSON200, err
		},
		"openProject": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.OpenProjectWithResponse(e.ctx, &gen.OpenProjectParams{ProjectId: 1})
			return r, r.JSON200, err
		},
		"findAndOpenProjectByName": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.FindAndOpenProjectByNameWithResponse(e.ctx, &gen.FindAndOpenProjectByNameParams{ProjectName: "spare", FullMatch: false})
			return r, r.JSON200, err
		},
		"closeProject": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			_, err := e.c.OpenProjectWithResponse(e.ctx, &gen.OpenProjectParams{ProjectId: 2})
			require.NoError(t, err)
			r, err := e.c.CloseProjectWithResponse(e.ctx)
			return r, r.JSON200, err
		},
	}
}

func scenarioCases() map[string]opCase {
	convertBody := gen.ApiConvertAndCopyParameters{NewName: ptr("Converted")}
	return map[string]opCase{
		"getScenarios": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: 1})
			return r, r.JSON200, err
		},
		"removeScenarioById": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.RemoveScenarioByIdWithResponse(e.ctx, &gen.RemoveScenarioByIdParams{ScenarioId: 201})
			return r, r.JSON200, err
		},
		"copyScenario": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.CopyScenarioWithResponse(e.ctx, &gen.CopyScenarioParams{ScenarioId: 102, NewType: gen.ScenarioTypeSIM}, convertBody)
			return r, r.JSON200, err
		},
		"copyScenarioSynchronously": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.CopyScenarioSynchronouslyWithResponse(e.ctx, &gen.CopyScenarioSynchronouslyParams{ScenarioId: 102, NewType: gen.ScenarioTypeSIM}, convertBody)
			return r, r.JSON200, err
		},
		"convertGFAResultToScenario": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ConvertGFAResultToScenarioWithResponse(e.ctx, &gen.ConvertGFAResultToScenarioParams{RunId: fx.runs[rcGFA], ScenarioType: gen.ScenarioTypeNO}, convertBody)
			return r, r.JSON200, err
		},
		"convertNOResultToScenario": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ConvertNOResultToScenarioWithResponse(e.ctx, &gen.ConvertNOResultToScenarioParams{RunId: fx.runs[rcNO], ResultOptionId: 2, ScenarioType: gen.ScenarioTypeSIM}, convertBody)
			return r, r.JSON200, err
		},
		"convertSSEResultToScenario": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ConvertSSEResultToScenarioWithResponse(e.ctx, &gen.ConvertSSEResultToScenarioParams{RunId: fx.runs[rcSSE], UpdateParentScenario: false}, convertBody)
			return r, r.JSON200, err
		},
		"convertVariationResultToScenario": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ConvertVariationResultToScenarioWithResponse(e.ctx, &gen.ConvertVariationResultToScenarioParams{RunId: fx.runs[rcVariation], ResultOptionId: 1})
			return r, r.JSON200, err
		},
		"convertLastMileOptimizationResultToScenario": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ConvertLastMileOptimizationResultToScenarioWithResponse(e.ctx, &gen.ConvertLastMileOptimizationResultToScenarioParams{RunId: fx.runs[rcLastMile], ScenarioName: ptr("Routes")})
			return r, r.JSON200, err
		},
	}
}

func importCases() map[string]opCase {
	db := gen.DBConnectionProperties{Type: ptr("POSTGRESQL"), Host: ptr("db.example"), Database: ptr("scm"), User: ptr("u"), Password: ptr("secret")}
	return map[string]opCase{
		"getImportStatus": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.GetImportStatusWithResponse(e.ctx, &gen.GetImportStatusParams{JobId: fx.job})
			return r, r.JSON200, err
		},
		"importCancel": func(t *testing.T, e *env, fx fixture) (response, any, error) {
			r, err := e.c.ImportCancelWithResponse(e.ctx, gen.ApiImportScenarioCancelRequest{JobId: fx.job})
			return r, nil, err
		},
		"getTablesMeta": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetTablesMetaWithResponse(e.ctx)
			return r, r.JSON200, err
		},
		"getScenariosFromImportedDatabase": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.GetScenariosFromImportedDatabaseWithResponse(e.ctx, db)
			return r, r.JSON200, err
		},
		"importDatabase": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.ImportDatabaseWithResponse(e.ctx, &gen.ImportDatabaseParams{NewScenarioName: "From DB", ProjectId: 1, SourceScenarioNameList: []string{"DB Scenario A", "DB Scenario B"}}, db)
			return r, r.JSON200, err
		},
		"importDatabaseExisting": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			r, err := e.c.ImportDatabaseExistingWithResponse(e.ctx, &gen.ImportDatabaseExistingParams{ProjectId: 1, ScenarioId: 101, SourceScenarioName: "DB Scenario A", TableIDsToImport: &[]string{"Sites"}}, db)
			return r, r.JSON200, err
		},
		"importExcel": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			ct, body := form(t, [][2]string{{"newScenarioName", "From Excel"}, {"projectId", "1"}}, "plan.xlsx", workbook(t, map[string]int{"Sites": 3}))
			r, err := e.c.ImportExcelWithBodyWithResponse(e.ctx, ct, body)
			return r, r.JSON200, err
		},
		"importExcelExisting": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			ct, body := form(t, [][2]string{{"newScenarioName", "x"}, {"projectId", "1"}, {"scenarioId", "101"}, {"overwriteExistingTables", "true"}}, "plan.xlsx", workbook(t, map[string]int{"Sites": 3}))
			r, err := e.c.ImportExcelExistingWithBodyWithResponse(e.ctx, ct, body)
			return r, r.JSON200, err
		},
		"importScenario": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			ct, body := form(t, [][2]string{{"projectId", "3"}}, "Imported Plan.scm", []byte("scenario file"))
			r, err := e.c.ImportScenarioWithBodyWithResponse(e.ctx, ct, body)
			return r, r.JSON200, err
		},
		"importScenarioExisting": func(t *testing.T, e *env, _ fixture) (response, any, error) {
			ct, body := form(t, [][2]string{{"projectId", "1"}, {"scenarioId", "102"}, {"cleanTables", "true"}, {"tableIDsToImport", "Sites"}, {"tableIDsToImport", "Vehicles"}}, "p.scm", []byte("scenario file"))
			r, err := e.c.ImportScenarioExistingWithBodyWithResponse(e.ctx, ct, body)
			return r, r.JSON200, err
		},
	}
}
