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
)

func importStatus(t *testing.T, e *env, jobID int64) gen.ApiImportScenarioStatus {
	t.Helper()
	r, err := e.c.GetImportStatusWithResponse(e.ctx, &gen.GetImportStatusParams{JobId: jobID})
	require.NoError(t, err)
	require.NotNil(t, r.JSON200, string(r.Body))
	return *r.JSON200
}

func scenarioNames(t *testing.T, e *env, projectID int64) map[string]gen.ApiScenarioData {
	t.Helper()
	r, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: projectID})
	require.NoError(t, err)
	out := map[string]gen.ApiScenarioData{}
	for _, s := range *r.JSON200 {
		out[s.Name] = s
	}
	return out
}

func importExcel(t *testing.T, e *env, fields [][2]string, file []byte) *gen.ImportExcelResponse {
	t.Helper()
	ct, body := form(t, append([][2]string{{"newScenarioName", "From Excel"}, {"projectId", "1"}}, fields...), "plan.xlsx", file)
	r, err := e.c.ImportExcelWithBodyWithResponse(e.ctx, ct, body)
	require.NoError(t, err)
	return r
}

func TestImportExcelFinishesOnTheClock(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, [][2]string{{"tableIDsToImport", "Sites"}, {"tableIDsToImport", "Customers"}},
		workbook(t, map[string]int{"Sites": 4, "Customers": 7, "Ignored": 1}))
	require.NotNil(t, r.JSON200, string(r.Body))
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
	sc := scenarioNames(t, e, 1)["From Excel"]
	assert.Equal(t, *st.ScenarioId, sc.Id)
	rows := map[string]int64{}
	for _, tbl := range *sc.Tables {
		rows[tbl.Id] = *tbl.RowCount
	}
	assert.Equal(t, map[string]int64{"Sites": 4, "Customers": 7}, rows)
}

func TestImportCancelled(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, nil, workbook(t, map[string]int{"Sites": 1}))
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
	assert.Equal(t, http.StatusConflict, again.StatusCode())
}

func TestImportFailsWithNothingToImport(t *testing.T) {
	e := setup(t)
	r := importExcel(t, e, [][2]string{{"tableIDsToImport", "Nope"}}, workbook(t, map[string]int{"Sites": 1}))
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

func TestCopyScenarioJob(t *testing.T) {
	e := setup(t, fake.WithImportDuration(0))
	r, err := e.c.CopyScenarioWithResponse(e.ctx, &gen.CopyScenarioParams{ScenarioId: 101, NewType: gen.ScenarioTypeSIM}, gen.ApiConvertAndCopyParameters{})
	require.NoError(t, err)
	assert.Equal(t, gen.ImportJobStatusDONE, *r.JSON200.Status)
	sc := scenarioNames(t, e, 1)["Baseline (copy)"]
	assert.Equal(t, gen.ScenarioTypeSIM, *sc.Type)
	assert.Equal(t, int64(101), *sc.ParentScenarioId)
}
