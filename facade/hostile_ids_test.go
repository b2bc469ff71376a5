package facade

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// A negative jobId is no job: a *MalformedError with the value.
func TestHostileNegativeJobID(t *testing.T) {
	for op, s := range jobStarters {
		t.Run(string(op), func(t *testing.T) {
			jobs, err := s.start(t, answering(t, `{"jobId":-1}`, s.list))
			var missing *MalformedError
			require.ErrorAs(t, err, &missing)
			assert.Equal(t, &MalformedError{Operation: string(op), Model: "ApiImportResponse", Field: "jobId", Value: "-1"}, missing)
			assert.Empty(t, jobs)
		})
	}
}

// A copy that ends well with a negative scenarioId names it; 0 is no id
// either.
func TestHostileNegativeScenarioID(t *testing.T) {
	for scenarioID, value := range map[string]string{"-2": "-2", "0": ""} {
		_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/import-status") {
				fmt.Fprintf(w, `{"jobId":7,"status":"DONE","scenarioId":%s}`, scenarioID)
				return
			}
			fmt.Fprint(w, `{"jobId":7}`)
		}, WithClock(faketest.NewInstantClock()))
		_, err := c.CopyScenarioAndWait(testCtx(t), 101, gen.ScenarioTypeSIM, nil, nil)
		var missing *MalformedError
		require.ErrorAs(t, err, &missing, "scenarioId %s", scenarioID)
		assert.Equal(t, "scenarioId", missing.Field)
		assert.Equal(t, value, missing.Value)
	}
}

// A page with a negative id is a *MalformedError naming the page; a
// page id of 0 is an id.
func TestHostileNegativePageID(t *testing.T) {
	_, c := newStub(t, serveBody(`[{"id":0,"name":"A"},{"id":-3,"name":"B"}]`))
	pages, err := c.Dashboards.Pages(testCtx(t), 5)
	var missing *MalformedError
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, &MalformedError{Operation: "getExperimentDashboardPages", Model: "ApiDashboardPage", Field: "[1].id", Value: "-3"}, missing)
	assert.Equal(t, "facade: getExperimentDashboardPages: the answer (ApiDashboardPage) has no usable [1].id: -3 is not one", err.Error())
	assert.Empty(t, pages)
	_, c = newStub(t, serveBody(`[{"id":0,"name":"A"}]`))
	pages, err = c.Dashboards.Pages(testCtx(t), 5)
	require.NoError(t, err)
	assert.Len(t, pages, 1)
}
