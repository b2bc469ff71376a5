package fake

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// serveIn serves one request in process, within 10 s.
func serveIn(t *testing.T, h http.Handler, method, path string) *httptest.ResponseRecorder {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(ctx, method, BasePath+path, nil)
	req.Header.Set("Authorization", DefaultAPIKey)
	h.ServeHTTP(rec, req)
	return rec
}

// visited is what a generated response type writes.
func visited(t *testing.T, visit func(http.ResponseWriter) error) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	require.NoError(t, visit(rec))
	return rec
}

// Streamed lists write exactly what the generated list types write, over
// many buffers: the scenarios of a project among others', some removed; the
// runs of a scenario's experiments, interleaved; and the lists that come
// from the result size.
func TestStreamedListsWriteWhatTheGeneratedTypesWrite(t *testing.T) {
	clock := NewVirtualClock(time.Unix(0, 0))
	h := newHandler([]Option{WithClock(clock), WithLicense(), WithResultSize(400, 3, 1)})
	w := h.world
	addScenarios(h, 1, 300)
	addScenarios(h, 2, 100)
	addScenarios(h, 1, 100)
	for id := int64(1001); id < 1501; id += 7 {
		require.Equal(t, http.StatusOK, serveIn(t, h, http.MethodDelete, "/open/scenario?scenarioId="+itoa(id)).Code)
	}
	for i := range 270 {
		rc := 10100 + []ids.RcID{1, 2, 5, 6, 9}[i%5] // the five experiments of scenario 101 in turn
		now := w.lock()
		w.startRun(w.rcs[rc], now)
		w.unlock()
		clock.Advance(DefaultRunDuration / time.Duration(1+i%3))
	}
	clock.Advance(DefaultRunDuration)

	scenarios := func(projectID ids.ProjectID) genserver.GetScenarios200JSONResponse {
		var out genserver.GetScenarios200JSONResponse
		for _, sc := range w.sortedScenarios() {
			if sc.projectID == projectID {
				out = append(out, scenarioData(sc))
			}
		}
		return out
	}
	var runs genserver.GetExperimentRunsForScenario200JSONResponse
	for _, r := range w.scenarioRuns(101) {
		if r.listed(clock.Now()) {
			runs = append(runs, r.basic())
		}
	}
	var pages genserver.GetExperimentRunResultPages200JSONResponse
	for p := int64(1); p <= 400; p++ {
		pages = append(pages, statisticsPageRef(p))
	}
	dashboard := genserver.GetExperimentDashboardPages200JSONResponse(slices.Collect(iter.Seq[gen.ApiDashboardPage](w.dashboardPageList(dashboard{id: 5002, run: w.results[5002]}))))
	var charts genserver.GetExperimentRunResultPageCharts200JSONResponse
	for i, c := range w.charts(9) {
		charts = append(charts, c.metadata(10101, i))
	}
	require.Len(t, runs, 216, "the runs of the VARIATION experiment (rcId 10105) are not listed")
	for path, want := range map[string]*httptest.ResponseRecorder{
		"/open/scenario/list?projectId=1":                           visited(t, scenarios(1).VisitGetScenariosResponse),
		"/open/scenario/list?projectId=3":                           visited(t, scenarios(3).VisitGetScenariosResponse),
		"/open/experiments/results?scenarioId=101":                  visited(t, runs.VisitGetExperimentRunsForScenarioResponse),
		"/open/experiments/results?scenarioId=1002":                 visited(t, genserver.GetExperimentRunsForScenario200JSONResponse{}.VisitGetExperimentRunsForScenarioResponse),
		"/open/experiments/pages?rcId=10101":                        visited(t, pages.VisitGetExperimentRunResultPagesResponse),
		"/open/experiments/dashboard-pages?experimentResultId=5002": visited(t, dashboard.VisitGetExperimentDashboardPagesResponse),
		"/open/experiments/charts?rcId=10101&pageId=83009":          visited(t, charts.VisitGetExperimentRunResultPageChartsResponse),
	} {
		t.Run(path, func(t *testing.T) {
			got := serveIn(t, h, http.MethodGet, path)
			require.Equal(t, http.StatusOK, got.Code, got.Body.String())
			assert.Equal(t, want.Header(), got.Header())
			assert.Equal(t, want.Body.String(), got.Body.String())
		})
	}
}

// A list streamed while scenarios are added and removed is read in turns
// of the lock: it stays valid JSON in id order, with no data race.
func TestStreamedListUnderChange(t *testing.T) {
	h := newHandler([]Option{WithClock(NewVirtualClock(time.Unix(0, 0)))})
	addScenarios(h, 1, 260) // two batches
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() {
		for id := int64(1001); ctx.Err() == nil && id < 1261; id += 10 {
			serveIn(t, h, http.MethodDelete, "/open/scenario?scenarioId="+itoa(id))
			serveIn(t, h, http.MethodPost, "/open/scenario/copySynchronously?scenarioId=101&newType=GFA")
		}
	})
	for range 2 {
		rec := serveIn(t, h, http.MethodGet, "/open/scenario/list?projectId=1")
		require.Equal(t, http.StatusOK, rec.Code)
		var list []gen.ApiScenarioData
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &list))
		for i := 1; i < len(list); i++ {
			require.Less(t, list[i-1].Id, list[i].Id)
		}
	}
	cancel()
	wg.Wait()
}
