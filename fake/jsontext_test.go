package fake_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A JSON body with a string that is not valid UTF-8 is refused with 400
// naming the operation and the field, rather than having its bytes replaced.
func TestJSONBodyInvalidUTF8(t *testing.T) {
	e := setup(t)
	copySync := url.Values{"scenarioId": {"101"}, "newType": {"NO"}}
	update := url.Values{"rcId": {"10101"}}
	for name, tc := range map[string]struct {
		path  string
		query url.Values
		body  string
		want  string
	}{
		"a field": {"/open/scenario/copySynchronously", copySync, `{"newScenarioName": "Bad` + "\xff" + `"}`,
			"copyScenarioSynchronously: request body field newScenarioName: a string that is not valid UTF-8"},
		"a truncated character": {"/open/scenario/copySynchronously", copySync, `{"newScenarioDescription": "ok", "newScenarioName": "` + "\xc3" + `"}`,
			"copyScenarioSynchronously: request body field newScenarioName: a string that is not valid UTF-8"},
		"deep in an object": {"/open/experiments/update-run-configuration", update,
			`{"id": 10101, "type": "GFA", "runConfiguration": {"sites": [{"name": "a"}, {"name": "b", "tags": ["x", "` + "\xed\xa0\x80" + `"]}]}}`,
			"updateExperimentRunConfiguration: request body field runConfiguration.sites.1.tags.1: a string that is not valid UTF-8"},
		"a field name": {"/open/experiments/update-run-configuration", update,
			`{"id": 10101, "type": "GFA", "runConfiguration": {"n` + "\xfe" + `": 1}}`,
			"updateExperimentRunConfiguration: request body field runConfiguration.n\uFFFD (its name): a string that is not valid UTF-8"},
		"outside a string": {"/open/import/import-cancel", nil, `{"jobId": 4001` + "\xff" + `}`,
			"importCancel: request body: not valid UTF-8"},
	} {
		t.Run(name, func(t *testing.T) {
			resp, apiErr := e.raw(t, http.MethodPost, tc.path, tc.query, strings.NewReader(tc.body), http.Header{"Content-Type": {"application/json"}})
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Equal(t, tc.want, *apiErr.Message)
		})
	}
	assert.Zero(t, e.srv.Applied("copyScenarioSynchronously")+e.srv.Applied("updateExperimentRunConfiguration")+e.srv.Applied("importCancel"))
}
