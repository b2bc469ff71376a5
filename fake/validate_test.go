package fake_test

import (
	"cmp"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequestValidation(t *testing.T) {
	e := setup(t)
	for name, tc := range map[string]struct {
		path  string
		query url.Values
		want  string
	}{
		"missing required": {"/open/experiments/status", nil, "getExperimentStatus: parameter rcId is required"},
		"wrong type":       {"/open/experiments/status", url.Values{"rcId": {"abc"}}, `getExperimentStatus: parameter rcId: "abc" is not an integer (int64)`},
		"int32 overflow":   {"/open/experiments/result", url.Values{"rcId": {"10101"}, "skip": {"3000000000"}}, `parameter skip: "3000000000" is not an integer (int32)`},
		"unknown enum":     {"/open/experiments/experiment", url.Values{"scenarioId": {"101"}, "experimentType": {"GOLF"}}, `parameter experimentType: "GOLF" is not one of GFA`},
		"take too large":   {"/open/experiments/result", url.Values{"rcId": {"10101"}, "take": {"10001"}}, "parameter take: 10001 is above the server maximum 10000"},
		"negative skip":    {"/open/experiments/result", url.Values{"rcId": {"10101"}, "skip": {"-1"}}, "parameter skip: -1 is below the minimum 0"},
		"bad boolean":      {"/open/project/open-by-name", url.Values{"projectName": {"x"}, "fullMatch": {"yes"}}, `parameter fullMatch: "yes" is not a boolean`},
		"repeated single":  {"/open/experiments/status", url.Values{"rcId": {"1", "2"}}, "parameter rcId: expected one value, got 2"},
	} {
		t.Run(name, func(t *testing.T) {
			resp, apiErr := e.raw(t, http.MethodGet, tc.path, tc.query, nil, nil)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Contains(t, *apiErr.Message, tc.want)
		})
	}
}

// JSON bodies are checked against their schema before the handler runs; the
// error names the field.
func TestJSONBodyValidation(t *testing.T) {
	e := setup(t)
	for name, tc := range map[string]struct {
		path  string
		query url.Values
		ctype string // application/json when empty
		body  string
		want  string
	}{
		"field of the wrong type": {"/open/scenario/copySynchronously", url.Values{"scenarioId": {"101"}, "newType": {"NO"}},
			"", `{"newName": 5}`, `copyScenarioSynchronously: request body field newName: 5 is not a string`},
		"integer field given a string": {"/open/import/import-cancel", nil,
			"", `{"jobId": "four"}`, `importCancel: request body field jobId: "four" is not an integer (int64)`},
		"required field missing": {"/open/import/import-cancel", nil,
			"", `{}`, `importCancel: request body field jobId is required`},
		"JSON sent as text": {"/open/import/import-cancel", nil,
			"text/plain", `{"jobId": 4001}`, `importCancel: request body: header Content-Type has unexpected value "text/plain"`},
		"unknown enum in a field": {"/open/experiments/update-run-configuration", url.Values{"rcId": {"10101"}},
			"", `{"id": 10101, "type": "GOLF"}`, `updateExperimentRunConfiguration: request body field type: "GOLF" is not one of GFA`},
		"not JSON": {"/open/import/import-cancel", nil,
			"", `{"jobId": `, `importCancel: request body: not valid JSON`},
	} {
		t.Run(name, func(t *testing.T) {
			header := http.Header{"Content-Type": {cmp.Or(tc.ctype, "application/json")}}
			resp, apiErr := e.raw(t, http.MethodPost, tc.path, tc.query, strings.NewReader(tc.body), header)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Contains(t, *apiErr.Message, tc.want)
		})
	}
	assert.Zero(t, e.srv.Applied("importCancel")+e.srv.Applied("copyScenarioSynchronously")+e.srv.Applied("updateExperimentRunConfiguration"))
}

func TestRequiredJSONBody(t *testing.T) {
	e := setup(t)
	resp, apiErr := e.raw(t, http.MethodPost, "/open/experiments/update-run-configuration", url.Values{"rcId": {"10101"}}, nil, nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, *apiErr.Message, "updateExperimentRunConfiguration: request body")
}

func TestAuthentication(t *testing.T) {
	e := setup(t)
	for name, tc := range map[string]struct {
		header string
		status int
	}{
		"bare key":     {e.srv.APIKey, http.StatusOK},
		"prefixed key": {"Bearer " + e.srv.APIKey, http.StatusOK},
		"other prefix": {"ApiKey " + e.srv.APIKey, http.StatusOK},
		"wrong key":    {"Bearer nope", http.StatusUnauthorized},
		"two prefixes": {"Bearer Token " + e.srv.APIKey, http.StatusUnauthorized},
		"missing":      {"", http.StatusUnauthorized},
	} {
		t.Run(name, func(t *testing.T) {
			resp, apiErr := e.raw(t, http.MethodGet, "/open/user", nil, nil, http.Header{"Authorization": {tc.header}})
			assert.Equal(t, tc.status, resp.StatusCode)
			if tc.status != http.StatusOK {
				assert.Contains(t, *apiErr.Message, "getCurrentUser: header Authorization")
			}
		})
	}
}

func TestUnknownPath(t *testing.T) {
	e := setup(t)
	resp, apiErr := e.raw(t, http.MethodGet, "/open/nothing", nil, nil, nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, *apiErr.Message, "no operation at GET")
}
