package facade

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// recorder keeps the query of every request, by path.
type recorder struct {
	mu      sync.Mutex
	queries map[string][]string
	base    http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	path := req.URL.Path[strings.Index(req.URL.Path, "/open/"):]
	r.queries[path] = append(r.queries[path], req.URL.RawQuery)
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

// TestObservedWorkflowThroughTheFacade walks the workflow of real clients
// with the facade: open a project by name, list scenarios and experiments,
// pick the SIMULATION, run it synchronously, list the result's dashboard
// pages and export each; import a workbook and wait for DONE. The queries
// on the wire are the ones a real client sends.
func TestObservedWorkflowThroughTheFacade(t *testing.T) {
	srv := fake.NewServer(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithRunDuration(0), fake.WithImportDuration(0))
	t.Cleanup(srv.Close)
	rec := &recorder{queries: map[string][]string{}, base: http.DefaultTransport}
	c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: rec}))

	project, err := c.Projects.OpenByName(testCtx(t), "Retail Network", nil)
	require.NoError(t, err)
	scenarios, err := c.Scenarios.List(testCtx(t), project.Id)
	require.NoError(t, err)
	sim := slices.IndexFunc(scenarios, func(s gen.ApiScenarioData) bool { return s.Type == gen.ScenarioTypeSIM })
	require.GreaterOrEqual(t, sim, 0)
	experiments, err := c.Experiments.List(testCtx(t), project.Id, scenarios[sim].Id)
	require.NoError(t, err)
	i := slices.IndexFunc(experiments, func(e gen.ApiBasicRunConfiguration) bool { return e.Type == gen.ExperimentTypeSIMULATION })
	require.GreaterOrEqual(t, i, 0)
	run, err := c.Experiments.RunSync(testCtx(t), experiments[i].Id)
	require.NoError(t, err)
	require.NotZero(t, run.ExperimentResultId)
	pages, err := c.Dashboards.Pages(testCtx(t), run.ExperimentResultId)
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, p := range pages {
		d, err := c.Dashboards.ExportPage(testCtx(t), run.ExperimentResultId, p.Id)
		require.NoError(t, err)
		n, err := d.WriteTo(io.Discard)
		require.NoError(t, err)
		assert.Positive(t, n)
	}
	status, err := c.ImportExcelAndWait(testCtx(t), project.Id, "Observed", UploadReader("network.xlsx", bytes.NewReader(testWorkbook(t))),
		nil, nil)
	require.NoError(t, err)
	assert.Equal(t, gen.ImportJobStatusDONE, status.Status)
	require.NotNil(t, status.ScenarioId)

	assert.Equal(t, []string{"fullMatch=true&projectName=Retail+Network"}, rec.queries["/open/project/open-by-name"])
	assert.Equal(t, fmt.Sprintf("experimentResultId=%d&pageId=%d", run.ExperimentResultId, pages[0].Id), rec.queries["/open/experiments/export-page"][0])
	assert.Equal(t, []string{fmt.Sprintf("rcId=%d", experiments[i].Id)}, rec.queries["/open/experiments/run-synchronously"])
}

// importStub answers importExcel with job 7 and getImportStatus with the
// given states in turn, recording the name of the uploaded file.
func importStub(t *testing.T, states []string, opts ...Option) (*Client, *atomic.Int32, *string) {
	var polls atomic.Int32
	var fileName string
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/import-excel") {
			_, header, err := r.FormFile("file")
			if assert.NoError(t, err) {
				fileName = header.Filename
			}
			fmt.Fprint(w, `{"jobId":7}`)
			return
		}
		state := states[min(int(polls.Add(1)), len(states))-1]
		fmt.Fprintf(w, `{"jobId":7,"status":%q,"scenarioId":%s,"error":null,"progress":null}`, state,
			map[bool]string{true: "1234", false: "null"}[state == "DONE"])
	}, opts...)
	return c, &polls, &fileName
}

// ImportExcelAndWait against a server that reports in-progress values the
// SDK has never seen: polling goes on, and each new value is logged once.
func TestImportExcelAndWaitToleratesUnknownStates(t *testing.T) {
	states := []string{"PENDING", "VALIDATING", "VALIDATING", "IMPORTING", "Pending", "IMPORTING", "DONE"}
	var logs bytes.Buffer
	c, polls, fileName := importStub(t, states, WithClock(faketest.NewInstantClock()),
		WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	status, err := c.ImportExcelAndWait(testCtx(t), 1, "x", UploadReader("network", strings.NewReader("PK")), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, gen.ImportJobStatusDONE, status.Status)
	assert.EqualValues(t, 1234, *status.ScenarioId)
	assert.EqualValues(t, len(states), polls.Load())
	assert.Equal(t, "network.xlsx", *fileName, "the file part's name ends in .xlsx")
	warned := strings.Count(logs.String(), "unknown state value")
	assert.Equal(t, 3, warned, "one line each for PENDING, VALIDATING and IMPORTING:\n%s", logs.String())
	for _, v := range []string{"PENDING", "VALIDATING", "IMPORTING"} {
		assert.Contains(t, logs.String(), "operation=getImportStatus state="+v)
	}
}

// A job that failed carries the server's error in its StateError.
func TestImportFailureCarriesTheError(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/import-excel") {
			fmt.Fprint(w, `{"jobId":7}`)
			return
		}
		fmt.Fprint(w, `{"status":"FAILED","error":"sheet Sites: column id is missing"}`)
	}, WithClock(faketest.NewInstantClock()))
	_, err := c.ImportExcelAndWait(testCtx(t), 1, "x", UploadReader("n.xlsx", strings.NewReader("PK")), nil, nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.EqualError(t, err, "facade: job 7 ended in state FAILED: sheet Sites: column id is missing")
}

func TestWorkbookFileNames(t *testing.T) {
	for in, want := range map[string]string{"": "workbook.xlsx", "a.xlsx": "a.xlsx", "A.XLSX": "A.XLSX", "a": "a.xlsx", "a.xls": "a.xls.xlsx"} {
		c, _, fileName := importStub(t, []string{"DONE"}, WithClock(faketest.NewInstantClock()))
		_, err := c.Imports.Excel(testCtx(t), 1, "x", UploadReader(in, strings.NewReader("PK")), nil)
		require.NoError(t, err)
		assert.Equal(t, want, *fileName, "UploadReader(%q)", in)
	}
}

// A 500 of a safe operation is retried once; 503 keeps the whole policy; a
// 500 whose message names a stale id or denies access is not retried; a
// state-changing operation is sent once.
func TestRetriesOfServerErrors(t *testing.T) {
	for status, want := range map[int]int32{500: 2, 502: 4, 503: 4} {
		var calls atomic.Int32
		_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, `{"status":500,"error":"Internal Server Error","message":"Could not open JPA EntityManager for transaction"}`)
		}, WithClock(faketest.NewInstantClock()))
		_, err := c.Dashboards.Pages(testCtx(t), 99)
		require.Error(t, err)
		assert.Equal(t, want, calls.Load(), "status %d", status)
	}
	for _, msg := range []string{`Cannot invoke \"getCharts()\" because \"dashboardPage\" is null`, "no such result 99", "Access is denied"} {
		var calls atomic.Int32
		_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `{"message":"%s","details":{}}`, msg)
		}, WithClock(faketest.NewInstantClock()))
		_, err := c.Dashboards.Pages(testCtx(t), 99)
		require.Error(t, err)
		assert.EqualValues(t, 1, calls.Load(), "%s is not tried again", msg)
	}
	var calls atomic.Int32
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}, WithClock(faketest.NewInstantClock()))
	_, err := c.Experiments.RunSync(testCtx(t), 1)
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.EqualValues(t, 1, calls.Load())
}

// The server's message is the heart of the error text.
func TestAPIErrorLeadsWithTheServerMessage(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "r-1")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"timestamp":"2026-01-01T00:00:00Z","status":500,"error":"Internal Server Error","message":"Cannot invoke \"getCharts()\" because \"dashboardPage\" is null","path":"/api/v1/open/experiments/dashboard-pages"}`)
	}, WithClock(faketest.NewInstantClock()))
	_, err := c.Dashboards.Pages(testCtx(t), 99)
	assert.EqualError(t, err, `facade: getExperimentDashboardPages: Cannot invoke "getCharts()" because "dashboardPage" is null (500 Internal Server Error, request id r-1)`)
	assert.ErrorIs(t, err, ErrNotFound, "Java's text for a null lookup names a stale id")
	assert.NotErrorIs(t, err, ErrServer, "classed by its message: one decision")
}

// A run that could not start answers validationStatus HAS_ERRORS and the
// rcId as its result: RunSync returns a StateError carrying the validation
// messages, and no answer.
func TestRunSyncReportsValidationFailure(t *testing.T) {
	_, c := newFake(t, fake.WithRunDuration(0))
	out, err := c.Experiments.RunSync(testCtx(t), 10403) // the simulation of "Broken Data"
	require.ErrorIs(t, err, ErrFailed)
	var se *StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "validation HAS_ERRORS", se.State)
	assert.Len(t, se.Details, 297, "every validation error, as the fake's broken scenario answers hundreds")
	assert.Len(t, se.Groups(), 8, "of 8 distinct messages")
	assert.Less(t, len(err.Error()), 600, "Error names the first groups only: %s", err)
	assert.Nil(t, out)
}

func testWorkbook(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetName("Sheet1", "Sites"))
	require.NoError(t, f.SetSheetRow("Sites", "A1", &[]any{"id", "name"}))
	require.NoError(t, f.SetSheetRow("Sites", "A2", &[]any{1, "Hub"}))
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// A base URL without /api/v1 answers 404 for every operation: the error
// says what is missing.
func TestBaseURLWithoutVersionPrefixIsNamed(t *testing.T) {
	srv := fake.NewServer(fake.WithAPIKeys(testKey))
	t.Cleanup(srv.Close)
	c := newTestClient(t, strings.TrimSuffix(srv.URL, "/api/v1"))
	_, err := c.User.Current(testCtx(t))
	require.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, "does not end in /api/v1")

	c = newTestClient(t, srv.URL)
	resp, err := c.Call(testCtx(t), "getCurrentUser", RawRequest{})
	require.NoError(t, err)
	resp.Body.Close()
}
