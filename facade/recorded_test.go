package facade

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// recordedServer replays what a real server was recorded answering
// (testdata/recorded), not the fake: every operation is found by its method
// and path, and answered from the file named after it. Every error is a 500
// with {message, details}, behind the headers of the nginx in front of the
// real server. It keeps each request's query and form fields.
type recordedServer struct {
	t       testing.TB
	mu      sync.Mutex
	queries map[gen.OperationID][]string
	forms   map[gen.OperationID][]map[string][]string
	bodies  map[gen.OperationID][]string
	headers []http.Header
}

func newRecorded(t testing.TB, opts ...Option) (*recordedServer, *Client) {
	t.Helper()
	rs := &recordedServer{t: t, queries: map[gen.OperationID][]string{}, forms: map[gen.OperationID][]map[string][]string{},
		bodies: map[gen.OperationID][]string{}}
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", rs))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return rs, newTestClient(t, srv.URL+"/api/v1", append([]Option{WithClock(faketest.NewInstantClock())}, opts...)...)
}

func (rs *recordedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op, ok := operationAt(r.Method, r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	rs.record(op, r)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Frame-Options", "DENY")
	if op == gen.OpExportDashboardPage {
		rs.exportPage(w, r)
		return
	}
	body, status := rs.answer(op, r.URL.RawQuery)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// operationAt finds the operation of a method and path.
func operationAt(method, path string) (gen.OperationID, bool) {
	for _, op := range gen.Operations() {
		if op.Method == method && op.Path == path {
			return gen.OperationID(op.ID), true
		}
	}
	return "", false
}

func (rs *recordedServer) record(op gen.OperationID, r *http.Request) {
	var form map[string][]string
	var body string
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") && r.ParseMultipartForm(1<<20) == nil {
		form = r.MultipartForm.Value
		for name, files := range r.MultipartForm.File {
			for _, f := range files {
				form[name] = append(form[name], f.Filename)
			}
		}
	} else if b, err := io.ReadAll(r.Body); err == nil {
		body = string(b)
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.queries[op] = append(rs.queries[op], r.URL.RawQuery)
	rs.forms[op] = append(rs.forms[op], form)
	rs.bodies[op] = append(rs.bodies[op], body)
	rs.headers = append(rs.headers, r.Header.Clone())
}

// answer finds the recorded answer: a file for a query term of this
// request first, then the operation's own; an .error.json file is a 500.
// A request nothing was recorded for fails the test.
func (rs *recordedServer) answer(op gen.OperationID, query string) ([]byte, int) {
	if body, status, ok := recorded(op, query); ok {
		return body, status
	}
	rs.t.Errorf("recorded server: no recorded answer for %s?%s", op, query)
	return []byte(`{"message":"no recorded answer","details":{}}`), http.StatusInternalServerError
}

func recorded(op gen.OperationID, query string) ([]byte, int, bool) {
	var names []string
	for _, term := range strings.Split(query, "&") {
		names = append(names, string(op)+"."+term+".json", string(op)+"."+term+".error.json")
	}
	for _, name := range append(names, string(op)+".json", string(op)+".error.json") {
		b, err := os.ReadFile(filepath.Join("testdata", "recorded", name))
		if err == nil && strings.HasSuffix(name, ".error.json") {
			return b, http.StatusInternalServerError, true
		}
		if err == nil {
			return b, http.StatusOK, true
		}
	}
	return nil, 0, false
}

// exportPage answers one page's workbook, or the error recorded for the
// result.
func (rs *recordedServer) exportPage(w http.ResponseWriter, r *http.Request) {
	if body, status, ok := recorded(gen.OpExportDashboardPage, r.URL.RawQuery); ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return
	}
	f := excelize.NewFile()
	defer f.Close()
	_ = f.SetCellValue("Sheet1", "A1", "page "+r.URL.Query().Get("pageId"))
	w.Header().Set("Content-Type", "application/octet-stream")
	_ = f.Write(w)
}

func (rs *recordedServer) lastQuery(op gen.OperationID) string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	q := rs.queries[op]
	if len(q) == 0 {
		return ""
	}
	return q[len(q)-1]
}

func (rs *recordedServer) calls(op gen.OperationID) int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.queries[op])
}

func (rs *recordedServer) lastForm(op gen.OperationID) map[string][]string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	f := rs.forms[op]
	if len(f) == 0 {
		return nil
	}
	return f[len(f)-1]
}

func (rs *recordedServer) lastBody(op gen.OperationID) string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	b := rs.bodies[op]
	if len(b) == 0 {
		return ""
	}
	return b[len(b)-1]
}

// exportEveryPage is the loop of a real client: every dashboard page of a
// result, each read whole.
func exportEveryPage(ctx context.Context, c *Client, resultID int64) ([][]byte, error) {
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return nil, err
	}
	var books [][]byte
	for _, p := range pages {
		d, err := c.Dashboards.ExportPage(ctx, resultID, p.Id)
		if err != nil {
			return nil, err
		}
		b, err := d.ReadAll(nil)
		if err != nil {
			return nil, err
		}
		books = append(books, b)
	}
	return books, nil
}

// The workflow of a real client against what the real server answered:
// wait for a run, run synchronously, read the result's pages, export the
// dashboard, import and wait, and a denied call.
func TestRecordedAnswersDriveTheFacade(t *testing.T) {
	t.Run("Run.Wait ends on finished", func(t *testing.T) {
		rs, c := newRecorded(t)
		run, err := c.Experiments.Start(testCtx(t), 5101, nil)
		require.NoError(t, err)
		assert.EqualValues(t, 5101, run.Start.AnimationModelId)
		st, err := run.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.True(t, *st.Finished)
		assert.True(t, run.Done())
		assert.Equal(t, 1, rs.calls(gen.OpGetExperimentStatus))
	})
	t.Run("RunSync success", func(t *testing.T) {
		_, c := newRecorded(t)
		out, err := c.Experiments.RunSync(testCtx(t), 5101)
		require.NoError(t, err)
		assert.EqualValues(t, 90013, out.ExperimentResultId)
	})
	t.Run("RunSync HAS_ERRORS", func(t *testing.T) {
		_, c := newRecorded(t)
		out, err := c.Experiments.RunSync(testCtx(t), 5104)
		assert.Nil(t, out, "the rcId the server puts in experimentResultId is no result")
		var se *StateError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, ErrFailed)
		assert.Equal(t, "validation HAS_ERRORS", se.State)
		assert.Equal(t, []string{"Demand of customer Berlin must not be negative (Demand, row 12)",
			"Site DC Hamburg has no location (Sites, DC Hamburg)"}, se.Details)
		assert.Contains(t, err.Error(), "Demand of customer Berlin must not be negative (Demand, row 12)")
	})
	t.Run("result pages", func(t *testing.T) {
		_, c := newRecorded(t)
		var ids []string
		for p, err := range c.Results.Result(testCtx(t), 5101, nil) {
			require.NoError(t, err)
			ids = append(ids, p.Page.Id)
		}
		assert.Equal(t, []string{"83530", "83531"}, ids)
	})
	t.Run("dashboard export", func(t *testing.T) {
		rs, c := newRecorded(t)
		books, err := exportEveryPage(testCtx(t), c, 90013)
		require.NoError(t, err)
		require.Len(t, books, 2)
		for i, b := range books {
			f, err := excelize.OpenReader(bytes.NewReader(b))
			require.NoError(t, err)
			v, err := f.GetCellValue("Sheet1", "A1")
			require.NoError(t, err)
			assert.Equal(t, []string{"page 4411", "page 4412"}[i], v)
			f.Close()
		}
		assert.Equal(t, 2, rs.calls(gen.OpExportDashboardPage), "one call per page")
		_, err = exportEveryPage(testCtx(t), c, 5104)
		assert.ErrorContains(t, err, `because "run" is null`)
	})
	t.Run("import and wait", func(t *testing.T) {
		rs, c := newRecorded(t)
		st, err := c.ImportExcelAndWait(testCtx(t), 12, "Variant", UploadReader("variant", strings.NewReader("PK")), nil, nil)
		require.NoError(t, err)
		assert.EqualValues(t, 1207, *st.ScenarioId)
		assert.Equal(t, []string{"true"}, rs.lastForm(gen.OpImportExcel)["needToImportExperiments"])
		assert.Equal(t, "jobId=78", rs.lastQuery(gen.OpGetImportStatus))
	})
	t.Run("denied", func(t *testing.T) {
		rs, c := newRecorded(t)
		_, err := c.Scenarios.ConvertSSEResult(testCtx(t), 90011, false, nil)
		assert.ErrorIs(t, err, ErrForbidden)
		assert.ErrorIs(t, err, ErrServer)
		assert.ErrorContains(t, err, "Access is denied")
		assert.Equal(t, 1, rs.calls(gen.OpConvertSSEResultToScenario))
	})
}
