package fake_test

import (
	"archive/zip"
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func importStatus(t *testing.T, e *env, jobID ids.JobID) gen.ApiImportScenarioStatus {
	t.Helper()
	r, err := e.c.GetImportStatusWithResponse(e.ctx, &gen.GetImportStatusParams{JobId: jobID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

func scenarios(t *testing.T, e *env, projectID ids.ProjectID) []gen.ApiScenarioData {
	t.Helper()
	r, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: projectID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

// scenarioNames lists the names of a project's scenarios in id order, as
// getScenarios lists them.
func scenarioNames(t *testing.T, e *env, projectID ids.ProjectID) []string {
	t.Helper()
	var out []string
	for _, s := range scenarios(t, e, projectID) {
		require.NotNil(t, s.Name, "getScenarios lists every scenario with a name")
		out = append(out, *s.Name)
	}
	return out
}

// withExperiments is the form field a real client sends with every Excel
// import.
var withExperiments = [2]string{"needToImportExperiments", "true"}

func importExcel(t *testing.T, e *env, fields [][2]string, file []byte) *gen.ImportExcelResponse {
	t.Helper()
	ct, body := form(t, append([][2]string{{"newScenarioName", "From Excel"}, {"projectId", "1"}}, fields...), "plan.xlsx", file)
	r, err := e.c.ImportExcelWithBodyWithResponse(e.ctx, ct, body)
	require.NoError(t, err)
	return r
}

func TestImportExcelFinishesOnTheClock(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, [][2]string{withExperiments, {"tableIDsToImport", "Sites"}, {"tableIDsToImport", "Customers"}},
		workbook(t, map[string]int{"Sites": 4, "Customers": 7, "Ignored": 1}))
	require.NotNil(t, r.JSON200, string(r.Body))
	assert.JSONEq(t, `{"error": null, "jobId": 4001}`, string(r.Body), "the answer a real server gives")
	job := r.JSON200.JobId
	assert.Equal(t, gen.ImportJobStatusQUEUED, importStatus(t, e, job).Status)
	e.clock.Advance(fake.DefaultImportDuration / 2)
	st := importStatus(t, e, job)
	assert.Equal(t, gen.ImportJobStatusRUNNING, st.Status)
	assert.Equal(t, 50.0, *st.Progress)
	assert.NotContains(t, scenarioNames(t, e, 1), "From Excel", "the scenario exists only once the job finished")
	e.clock.Advance(fake.DefaultImportDuration / 2)
	st = importStatus(t, e, job)
	assert.Equal(t, gen.ImportJobStatusDONE, st.Status)
	require.NotNil(t, st.ScenarioId)
	list := scenarios(t, e, 1)
	last := list[len(list)-1]
	assert.Equal(t, gen.ApiScenarioData{Id: *st.ScenarioId, Name: ptr("From Excel"), Type: gen.ScenarioTypeSIM}, last)
	rows, ok := e.srv.ScenarioTables(*st.ScenarioId)
	require.True(t, ok)
	assert.Equal(t, map[string]int64{"Sites": 4, "Customers": 7}, rows)
	exps, err := e.c.GetExperimentsWithResponse(e.ctx, &gen.GetExperimentsParams{ProjectId: 1, ScenarioId: *st.ScenarioId})
	require.NoError(t, err)
	assert.Len(t, *exps.JSON200, 5, "a new scenario has the five experiments of its type")
}

// TestImportExcelWithoutExperimentsMakesNoScenario: without
// needToImportExperiments=true a real server ended the job DONE and no
// scenario appeared; the same holds for importExcelExisting, which then
// changes nothing.
func TestImportExcelWithoutExperimentsMakesNoScenario(t *testing.T) {
	e := setup(t, fake.WithImportDuration(0))
	before := scenarioNames(t, e, 1)
	for _, flag := range [][][2]string{nil, {{"needToImportExperiments", "false"}}} {
		r := importExcel(t, e, flag, workbook(t, map[string]int{"Sites": 2}))
		require.NotNil(t, r.JSON200, string(r.Body))
		st := importStatus(t, e, r.JSON200.JobId)
		assert.Equal(t, gen.ImportJobStatusDONE, st.Status)
		assert.Nil(t, st.ScenarioId)
		assert.Nil(t, st.Error)
	}
	assert.Equal(t, before, scenarioNames(t, e, 1), "no new scenario")

	tables, _ := e.srv.ScenarioTables(101)
	for _, flag := range [][][2]string{nil, {withExperiments}} {
		ct, body := form(t, append([][2]string{{"newScenarioName", "x"}, {"projectId", "1"}, {"scenarioId", "101"}}, flag...),
			"plan.xlsx", workbook(t, map[string]int{"Sites": 2}))
		r, err := e.c.ImportExcelExistingWithBodyWithResponse(e.ctx, ct, body)
		require.NoError(t, err)
		require.NotNil(t, r.JSON200, string(r.Body))
		st := importStatus(t, e, (*r.JSON200)[0].JobId)
		assert.Equal(t, gen.ImportJobStatusDONE, st.Status)
		if flag == nil {
			assert.Nil(t, st.ScenarioId)
			after, _ := e.srv.ScenarioTables(101)
			assert.Equal(t, tables, after, "nothing changed")
			continue
		}
		assert.Equal(t, ids.ScenarioID(101), *st.ScenarioId)
		after, _ := e.srv.ScenarioTables(101)
		assert.Equal(t, tables["Sites"]+2, after["Sites"])
	}
	assert.Equal(t, before, scenarioNames(t, e, 1))
}

func TestImportCancelled(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, [][2]string{withExperiments}, workbook(t, map[string]int{"Sites": 1}))
	e.clock.Advance(fake.DefaultImportDuration / 5)
	c, err := e.c.ImportCancelWithResponse(e.ctx, gen.ApiImportScenarioCancelRequest{JobId: r.JSON200.JobId})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, c.StatusCode())
	e.clock.Advance(fake.DefaultImportDuration)
	st := importStatus(t, e, r.JSON200.JobId)
	assert.Equal(t, gen.ImportJobStatusCANCELED, st.Status)
	assert.Equal(t, 20.0, *st.Progress)
	assert.NotContains(t, scenarioNames(t, e, 1), "From Excel")
	again, err := e.c.ImportCancelWithResponse(e.ctx, gen.ApiImportScenarioCancelRequest{JobId: r.JSON200.JobId})
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, again.StatusCode())
	assert.Equal(t, "jobId 4001: the job is CANCELED and can no longer be cancelled", *again.JSON5XX.Message)
}

func TestImportFailsWithNothingToImport(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, [][2]string{withExperiments, {"tableIDsToImport", "Nope"}}, workbook(t, map[string]int{"Sites": 1}))
	e.clock.Advance(fake.DefaultImportDuration)
	st := importStatus(t, e, r.JSON200.JobId)
	assert.Equal(t, gen.ImportJobStatusFAILED, st.Status)
	assert.Contains(t, *st.Error, "no sheet matches tableIDsToImport Nope")
	assert.NotContains(t, scenarioNames(t, e, 1), "From Excel")
}

func TestImportDatabaseFailsForAnUnknownSource(t *testing.T) {
	e := setup(t)
	r, err := e.c.ImportDatabaseWithResponse(e.ctx, &gen.ImportDatabaseParams{NewScenarioName: "DB", ProjectId: 1, SourceScenarioNameList: []string{"DB Scenario A", "Missing"}}, gen.DBConnectionProperties{})
	require.NoError(t, err)
	require.Len(t, *r.JSON200, 2)
	e.clock.Advance(fake.DefaultImportDuration)
	assert.Equal(t, gen.ImportJobStatusDONE, importStatus(t, e, (*r.JSON200)[0].JobId).Status)
	assert.Equal(t, gen.ImportJobStatusFAILED, importStatus(t, e, (*r.JSON200)[1].JobId).Status)
}

func TestNonWorkbookUploadIsRefused(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, nil, []byte("name,value\na,1\n"))
	assert.Equal(t, http.StatusBadRequest, r.StatusCode())
	assert.Contains(t, *r.JSON4XX.Message, "importExcel: form field file: not a spreadsheet workbook")
}

func TestZipThatIsNotAWorkbookIsRefused(t *testing.T) {
	e := setup(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("notes.txt")
	require.NoError(t, err)
	_, err = w.Write([]byte("not a workbook"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	r := importExcel(t, e, nil, buf.Bytes())
	assert.Equal(t, http.StatusBadRequest, r.StatusCode())
	assert.Contains(t, *r.JSON4XX.Message, "importExcel: form field file: not a spreadsheet workbook (no part xl/workbook.xml)")
}

func TestMultipartFieldsAreValidated(t *testing.T) {
	e := setup(t)
	for name, tc := range map[string]struct {
		fields [][2]string
		want   string
	}{
		"missing required": {[][2]string{{"projectId", "1"}}, "form field newScenarioName is required"},
		"wrong type":       {[][2]string{{"projectId", "one"}, {"newScenarioName", "x"}}, `form field projectId: "one" is not an integer`},
		"unknown field":    {[][2]string{{"projectId", "1"}, {"newScenarioName", "x"}, {"colour", "red"}}, `form field "colour": not a field`},
	} {
		t.Run(name, func(t *testing.T) {
			ct, body := form(t, tc.fields, "plan.xlsx", workbook(t, map[string]int{"Sites": 1}))
			resp, apiErr := e.raw(t, http.MethodPost, "/open/import/import-excel", nil, body, http.Header{"Content-Type": {ct}})
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Contains(t, *apiErr.Message, tc.want)
		})
	}
}

// TestCopiesAreNamedNull copies as a real client did: the synchronous copy
// answers name null whatever newName says, and getScenarios lists the
// copies as "null", "null 2", ...; a copy job's scenario is named so too.
func TestCopiesAreNamedNull(t *testing.T) {
	e := setup(t, fake.WithImportDuration(0))
	for i, newName := range []*string{ptr("Copy of Baseline"), nil} {
		r, err := e.c.CopyScenarioSynchronouslyWithResponse(e.ctx, &gen.CopyScenarioSynchronouslyParams{ScenarioId: 101, NewType: gen.ScenarioTypeSIM},
			gen.ApiConvertAndCopyParameters{NewName: newName})
		require.NoError(t, err)
		require.NotNil(t, r.JSON200, string(r.Body))
		assert.JSONEq(t, `{"id": `+itoa(int64(1001+i))+`, "name": null, "type": "SIM"}`, string(r.Body))
	}
	job, err := e.c.CopyScenarioWithResponse(e.ctx, &gen.CopyScenarioParams{ScenarioId: 102, NewType: gen.ScenarioTypeNO}, gen.ApiConvertAndCopyParameters{NewName: ptr("Mine")})
	require.NoError(t, err)
	st := importStatus(t, e, job.JSON200.JobId)
	assert.Equal(t, gen.ImportJobStatusDONE, st.Status)
	assert.Equal(t, ids.ScenarioID(1003), *st.ScenarioId)
	list := scenarios(t, e, 1)
	assert.Equal(t, []gen.ApiScenarioData{
		{Id: 1001, Name: ptr("null"), Type: gen.ScenarioTypeSIM},
		{Id: 1002, Name: ptr("null 2"), Type: gen.ScenarioTypeSIM},
		{Id: 1003, Name: ptr("null 3"), Type: gen.ScenarioTypeNO},
	}, list[len(list)-3:])
}

// TestImportScenarioExistingTakesTheFilesName: the scenario answered is
// named after the uploaded file's base name, as a real server's was.
func TestImportScenarioExistingTakesTheFilesName(t *testing.T) {
	e := setup(t)
	ct, body := form(t, [][2]string{{"projectId", "1"}, {"scenarioId", "102"}, {"tableIDsToImport", "Sites"}}, "plans/Network 2026.xlsx", []byte("scenario file"))
	r, err := e.c.ImportScenarioExistingWithBodyWithResponse(e.ctx, ct, body)
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	assert.Equal(t, gen.ApiScenarioData{Id: 102, Name: ptr("Network 2026"), Type: gen.ScenarioTypeNO}, *r.JSON200)
	assert.Contains(t, scenarioNames(t, e, 1), "Network 2026")
}
