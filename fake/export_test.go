package fake

import (
	"net/http"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// addScenarios adds n SIM scenarios with the catalogue's tables to a
// project of h, as n imports would, without n requests: a seam for tests
// and benchmarks of long lists.
func addScenarios(h *Handler, projectID ids.ProjectID, n int) {
	w := h.world
	w.lock()
	defer w.unlock()
	for i := range n {
		w.newScenario(projectID, "Scenario "+itoa(int64(i+1)), gen.ScenarioTypeSIM, seededTables())
	}
}

// AddScenarios is addScenarios for the external tests: h is a handler of
// NewHandler.
func AddScenarios(h http.Handler, projectID ids.ProjectID, n int) {
	addScenarios(h.(*Handler), projectID, n)
}
