package fake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// observedClient sends what a real client of the real server sends, over
// plain HTTP, and reads answers as untyped JSON, so the test sees the field
// names on the wire, not our generated types.
type observedClient struct {
	t   *testing.T
	srv *fake.Server
}

func (o observedClient) get(path string, query url.Values) (int, []byte) {
	o.t.Helper()
	req, err := http.NewRequest(http.MethodGet, o.srv.URL+path+"?"+query.Encode(), nil)
	require.NoError(o.t, err)
	return o.do(req)
}

func (o observedClient) do(req *http.Request) (int, []byte) {
	o.t.Helper()
	req.Header.Set("Authorization", o.srv.APIKey)
	resp, err := o.srv.Client().Do(req)
	require.NoError(o.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(o.t, err)
	return resp.StatusCode, body
}

// json answers a GET that must succeed, decoded as untyped JSON.
func (o observedClient) json(path string, query url.Values) any {
	o.t.Helper()
	status, body := o.get(path, query)
	require.Equal(o.t, http.StatusOK, status, "%s: %s", path, body)
	var v any
	require.NoError(o.t, json.Unmarshal(body, &v), "%s", path)
	return v
}

// id reads a JSON number field as an integer id, failing when it is absent.
func id(t *testing.T, obj any, field string) int64 {
	t.Helper()
	m, ok := obj.(map[string]any)
	require.True(t, ok, "an object, got %T", obj)
	n, ok := m[field].(float64)
	require.True(t, ok, "field %q is a number in %v", field, m)
	return int64(n)
}

func field(t *testing.T, obj any, name string) any {
	t.Helper()
	m := obj.(map[string]any)
	v, ok := m[name]
	require.True(t, ok, "field %q present in %v", name, m)
	return v
}

func q(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

// TestObservedClientWorkflow replays what a real client does against the
// real server: open a project by name, list its scenarios and their
// experiments, pick the SIMULATION, run it synchronously, list the
// dashboard pages of the result and export each; import a workbook, poll
// until DONE and read the scenarioId. Field names and values are the ones
// that client reads.
func TestObservedClientWorkflow(t *testing.T) {
	srv := fake.NewServer(fake.WithLicense(), fake.WithRunDuration(0), fake.WithImportDuration(0))
	t.Cleanup(srv.Close)
	o := observedClient{t: t, srv: srv}

	project := o.json("/open/project/open-by-name", q("fullMatch", "true", "projectName", "Retail Network"))
	projectID := id(t, project, "id")

	scenarios := o.json("/open/scenario/list", q("projectId", itoa(projectID))).([]any)
	require.NotEmpty(t, scenarios)
	for _, s := range scenarios {
		id(t, s, "id")
		assert.IsType(t, "", field(t, s, "name"))
		assert.Contains(t, []any{"GFA", "NO", "SIM"}, field(t, s, "type"))
	}
	i := slices.IndexFunc(scenarios, func(s any) bool { return field(t, s, "name") == "Simulation" })
	require.GreaterOrEqual(t, i, 0, "a scenario named Simulation")
	scenarioID := id(t, scenarios[i], "id")

	experiments := o.json("/open/experiments/list", q("projectId", itoa(projectID), "scenarioId", itoa(scenarioID))).([]any)
	require.Len(t, experiments, 5)
	i = slices.IndexFunc(experiments, func(e any) bool { return field(t, e, "type") == "SIMULATION" })
	require.GreaterOrEqual(t, i, 0, "a run configuration of type SIMULATION")
	rcID := id(t, experiments[i], "id")
	assert.Equal(t, "i18n-Experiment_Simulation_text", field(t, experiments[i], "name"))

	run := o.json("/open/experiments/run-synchronously", q("rcId", itoa(rcID)))
	resultID := id(t, run, "experimentResultId")
	assert.Equal(t, "OK", field(t, run, "validationStatus"))
	assert.Nil(t, field(t, run, "validationErrors"))

	pages := o.json("/open/experiments/dashboard-pages", q("experimentResultId", itoa(resultID))).([]any)
	require.Len(t, pages, fake.DefaultPages)
	for _, p := range pages {
		assert.NotEmpty(t, field(t, p, "name"))
		status, body := o.get("/open/experiments/export-page", q("experimentResultId", itoa(resultID), "pageId", itoa(id(t, p, "id"))))
		require.Equal(t, http.StatusOK, status, string(body))
		assert.NotEmpty(t, openWorkbook(t, body).GetSheetList(), "the workbook of one page")
	}

	ctype, body := form(t, [][2]string{{"newScenarioName", "Observed"}, {"projectId", itoa(projectID)}, {"needToImportExperiments", "true"}},
		"network.xlsx", workbook(t, map[string]int{"Sites": 3}))
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/open/import/import-excel", body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", ctype)
	status, answer := o.do(req)
	require.Equal(t, http.StatusOK, status, string(answer))
	var started any
	require.NoError(t, json.Unmarshal(answer, &started))
	jobID := id(t, started, "jobId")

	var final any
	for range 10 {
		final = o.json("/open/import/import-status", q("jobId", itoa(jobID)))
		if st := field(t, final, "status"); st == "DONE" || st == "FAILED" || st == "CANCELED" {
			break
		}
	}
	require.Equal(t, "DONE", field(t, final, "status"))
	newScenario := id(t, final, "scenarioId")
	listed := o.json("/open/scenario/list", q("projectId", itoa(projectID))).([]any)
	assert.True(t, slices.ContainsFunc(listed, func(s any) bool { return id(t, s, "id") == newScenario && field(t, s, "name") == "Observed" }))
}

// A stale id answers as the real server does: 500 with the JSON body
// {message, details: {}} whose message names what was not found.
func TestStaleIDAnswers500(t *testing.T) {
	srv := fake.NewServer(fake.WithLicense())
	t.Cleanup(srv.Close)
	o := observedClient{t: t, srv: srv}
	for path, tc := range map[string]struct {
		query url.Values
		names string
	}{
		"/open/experiments/dashboard-pages": {q("experimentResultId", "999999"), "experimentResultId 999999"},
		"/open/experiments/export-page":     {q("experimentResultId", "999999", "pageId", "1"), "experimentResultId 999999"},
		"/open/import/import-status":        {q("jobId", "424242"), "jobId 424242"},
	} {
		status, body := o.get(path, tc.query)
		assert.Equal(t, http.StatusInternalServerError, status, path)
		var e map[string]any
		require.NoError(t, json.Unmarshal(body, &e), path)
		assert.Equal(t, map[string]any{}, e["details"], path)
		assert.Len(t, e, 2, "only message and details: %s", body)
		assert.Contains(t, e["message"], tc.names, "the message names what was not found")
	}
}

// The server refuses a workbook whose file name does not end in .xlsx, as an
// application rule: a 500 naming the field, and nothing is imported.
func TestWorkbookNameMustEndInXLSX(t *testing.T) {
	e := setup(t)
	for _, name := range []string{"network.xls", "network", "network.xlsx.csv"} {
		ctype, body := form(t, [][2]string{{"newScenarioName", "x"}, {"projectId", "1"}}, name, workbook(t, map[string]int{"Sites": 1}))
		resp, apiErr := e.raw(t, http.MethodPost, "/open/import/import-excel", nil, body, http.Header{"Content-Type": {ctype}})
		assert.Equal(t, http.StatusInternalServerError, resp.StatusCode, name)
		assert.Equal(t, `form field file: the file name "`+name+`" does not end in .xlsx`, *apiErr.Message)
	}
	ctype, body := form(t, [][2]string{{"newScenarioName", "x"}, {"projectId", "1"}}, "Network.XLSX", workbook(t, map[string]int{"Sites": 1}))
	resp, _ := e.raw(t, http.MethodPost, "/open/import/import-excel", nil, body, http.Header{"Content-Type": {ctype}})
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the suffix is compared ignoring case")
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
}
