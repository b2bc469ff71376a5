package fake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// serveBody is serve with a request body.
func serveBody(t *testing.T, h http.Handler, method, path, contentType string, body *bytes.Buffer) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(t.Context(), method, fake.BasePath+path, body)
	req.Header.Set("Authorization", fake.DefaultAPIKey)
	req.Header.Set("Content-Type", contentType)
	h.ServeHTTP(rec, req)
	return rec
}

// copyScenario copies scenario 101 synchronously in process and returns
// the copy's id.
func copyScenario(t testing.TB, h http.Handler) ids.ScenarioID {
	t.Helper()
	rec := serve(h, http.MethodPost, "/open/scenario/copySynchronously?scenarioId=101&newType=GFA")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var s gen.ApiScenarioData
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &s))
	return s.Id
}

// namesByID lists the names of project 1's scenarios by id, as
// getScenarios answers them.
func namesByID(t testing.TB, h http.Handler) map[ids.ScenarioID]string {
	t.Helper()
	rec := serve(h, http.MethodGet, "/open/scenario/list?projectId=1")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var list []gen.ApiScenarioData
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &list))
	out := map[ids.ScenarioID]string{}
	for _, s := range list {
		out[s.Id] = *s.Name
	}
	return out
}

func nullName(k int) string {
	if k == 1 {
		return "null"
	}
	return "null " + strconv.Itoa(k)
}

// The copy-name rule holds at 10,000 copies: "null", "null 2", ..., each
// copy taking the first name free in the project, a name freed by a delete
// or taken by a rename included.
func TestCopyNamesAt10000Scenarios(t *testing.T) {
	const n = 10_000
	h := fake.NewHandler()
	copies := make([]ids.ScenarioID, n)
	for i := range copies {
		copies[i] = copyScenario(t, h)
	}
	names := namesByID(t, h)
	for k := 1; k <= n; k++ {
		if names[copies[k-1]] != nullName(k) {
			t.Fatalf("copy %d is named %q, want %q", k, names[copies[k-1]], nullName(k))
		}
	}
	for _, k := range []int{5000, 1, 9999} {
		rec := serve(h, http.MethodDelete, fmt.Sprintf("/open/scenario?scenarioId=%d", copies[k-1]))
		require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	}
	ct, body := form(t, [][2]string{{"projectId", "1"}, {"scenarioId", "102"}, {"tableIDsToImport", "Sites"}}, "null.xlsx", []byte("scenario file"))
	rec := serveBody(t, h, http.MethodPost, "/open/import/import-scenario-existing", ct, body)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())

	names = namesByID(t, h)
	assert.Equal(t, "null", names[102], "the import renamed scenario 102 to null")
	var got []string
	for range 3 {
		id := copyScenario(t, h)
		got = append(got, namesByID(t, h)[id])
	}
	assert.Equal(t, []string{"null 5000", "null 9999", "null 10001"}, got, "the first free names, in order")
}
