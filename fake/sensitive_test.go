package fake_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// loggedServer is a fake server whose log lines are captured.
func loggedServer(t *testing.T, opts ...fake.Option) (*fake.Server, *faketest.Buffer) {
	logs := &faketest.Buffer{}
	srv := fake.NewServer(append(opts, fake.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))...)
	t.Cleanup(srv.Close)
	return srv, logs
}

// post sends body to path on srv and returns the status and the body of
// the answer.
func post(t *testing.T, srv *fake.Server, path string, query url.Values, ctype, body string) (int, string) {
	t.Helper()
	return send(t, srv, http.MethodPost, path, query, ctype, body)
}

func send(t *testing.T, srv *fake.Server, method, path string, query url.Values, ctype, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, srv.URL+path+"?"+query.Encode(), strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Authorization", srv.APIKey)
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// The operations whose body holds a database password (x-sensitive).
var passwordOps = map[string]struct {
	path  string
	query url.Values
}{
	"getScenariosFromImportedDatabase": {"/open/import/scenarios-available-for-import", nil},
	"importDatabase": {"/open/import/import-database", url.Values{"newScenarioName": {"x"}, "projectId": {"1"},
		"sourceScenarioNameList": {"DB Scenario A"}}},
	"importDatabaseExisting": {"/open/import/import-database-existing", url.Values{"projectId": {"1"},
		"scenarioId": {"101"}, "sourceScenarioName": {"DB Scenario A"}}},
}

// No error quotes a password, whatever wrong shape it is sent in, and no log
// line of the server holds it.
func TestPasswordNeverInErrors(t *testing.T) {
	const secret, number = "s3cr3t-Pa55", "918273645"
	shapes := map[string]string{
		"number":           `{"password": ` + number + `}`,
		"boolean":          `{"user": "u", "password": true, "port": "` + secret + `x"}`,
		"list":             `{"password": ["` + secret + `"]}`,
		"object":           `{"password": {"value": "` + secret + `"}}`,
		"nested lists":     `{"password": [[["` + secret + `", ` + number + `]]]}`,
		"objects in lists": `{"password": [{"a": [{"b": "` + secret + `"}]}]}`,
		"body a list":      `[{"password": "` + secret + `"}, ` + number + `]`,
		"invalid UTF-8":    `{"password": "` + secret + "\xff" + `"}`,
		"not JSON":         `{"password": "` + secret + `", "port": ` + number + `x}`,
	}
	srv, logs := loggedServer(t)
	for op, call := range passwordOps {
		for shape, body := range shapes {
			t.Run(op+"/"+shape, func(t *testing.T) {
				status, answer := post(t, srv, call.path, call.query, "application/json", body)
				assert.Equal(t, http.StatusBadRequest, status, answer)
				assert.Contains(t, answer, op+": request body")
				for _, leak := range []string{secret, "s3cr3t", number, "9.18273645e+08"} {
					assert.NotContains(t, answer, leak)
				}
			})
		}
	}
	assert.NotContains(t, logs.String(), "s3cr3t")
	assert.NotContains(t, logs.String(), number)
}

// A wrong password shape is named by its kind; a field that is not
// sensitive still has its value quoted.
func TestPasswordShapeNamed(t *testing.T) {
	srv, _ := loggedServer(t)
	call := passwordOps["importDatabaseExisting"]
	for body, want := range map[string]string{
		`{"password": [1]}`:        "request body field password: a list (not shown: the field is sensitive) is not a string",
		`{"password": 5}`:          "request body field password: a number (not shown: the field is sensitive) is not a string",
		`{"port": "fifty"}`:        `request body field port: "fifty" is not an integer (int32)`,
		`{"port": {"a": "fifty"}}`: "request body field port: an object is not an integer (int32)",
	} {
		_, answer := post(t, srv, call.path, call.query, "application/json", body)
		assert.Contains(t, messageOf(t, []byte(answer)), want)
	}
}

// A huge or deeply nested value gives a short error: a list or an object is
// named by its kind, and a quoted value is cut at 200 bytes.
func TestLongValuesGiveShortErrors(t *testing.T) {
	srv, _ := loggedServer(t)
	long := strings.Repeat("é", 10000)
	nested := strings.Repeat("[", 5000) + strings.Repeat("]", 5000) // 10 KB, 5,000 deep
	db := passwordOps["importDatabaseExisting"]
	for name, tc := range map[string]struct {
		path, ctype, body string
		query             url.Values
		want              string
	}{
		"nested lists in a field": {db.path, "application/json", `{"host": ` + nested + `}`, db.query, "request body field host: a list is not a string"},
		"a nested list as body":   {db.path, "application/json", nested, db.query, "request body: a list is not an object"},
		"a long string":           {db.path, "application/json", `{"port": "` + long + `"}`, db.query, `request body field port: "éé`},
		"a long field name":       {db.path, "application/json", `{"` + long + `": 1, "port": "a"}`, db.query, `request body field port: "a"`},
		"a long parameter":        {"/open/project/open-by-name", "", "", url.Values{"projectName": {long}, "fullMatch": {"true"}}, `projectName "éé`},
		"a long enum value":       {"/open/experiments/experiment", "", "", url.Values{"scenarioId": {"101"}, "experimentType": {long}}, `parameter experimentType: "éé`},
	} {
		t.Run(name, func(t *testing.T) {
			method := http.MethodPost
			if tc.ctype == "" {
				method = http.MethodGet
			}
			_, answer := send(t, srv, method, tc.path, tc.query, tc.ctype, tc.body)
			msg := messageOf(t, []byte(answer))
			assert.Contains(t, msg, tc.want)
			assert.Less(t, len(msg), 500, msg)
		})
	}
}
