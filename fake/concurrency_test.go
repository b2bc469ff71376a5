package fake_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// TestConcurrentWorkflows drives 64 goroutines through mixed workflows, each
// on its own experiment or table, and checks no update was lost.
func TestConcurrentWorkflows(t *testing.T) {
	e := setup(t, fake.WithLicense())
	const workers = 64
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(t, e, i)
		}()
	}
	wg.Wait()
	e.clock.Advance(fake.DefaultImportDuration)
	assert.Equal(t, workers/4, e.srv.Applied("runExperiment"))
	assert.Equal(t, workers/4, e.srv.Applied("copyScenarioSynchronously"))
	assert.Equal(t, workers/4*2, e.srv.Applied("selectLastMileOptimizationOrderInOrdersTable"))
	list, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: 1})
	require.NoError(t, err)
	assert.Len(t, *list.JSON200, 5+workers/4, "every copy was kept")
	orders, err := e.c.GetLastMileOptimizationOrdersTableDataWithResponse(e.ctx, &gen.GetLastMileOptimizationOrdersTableDataParams{RcId: rcLastMile, Take: 1000})
	require.NoError(t, err)
	assert.Equal(t, int64(workers/4*2), countSelectedRows(orders.JSON200.EntityList), "every selection survived")
}

func worker(t *testing.T, e *env, i int) {
	switch i % 4 {
	case 0: // a run on its own experiment: 16 distinct, of the five of 101, 102 and 103 and one of 105
		rcs := []ids.RcID{10101, 10102, 10105, 10106, 10109, 10204, 10205, 10206, 10207, 10209, 10303, 10305, 10306, 10307, 10308, 10503}
		rc := rcs[i/4]
		r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rc})
		assert.NoError(t, err)
		assert.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	case 1:
		_, err := e.c.CopyScenarioSynchronouslyWithResponse(e.ctx, &gen.CopyScenarioSynchronouslyParams{ScenarioId: 101, NewType: gen.ScenarioTypeGFA}, gen.ApiConvertAndCopyParameters{})
		assert.NoError(t, err)
	case 2:
		for k := range 2 {
			_, err := e.c.SelectLastMileOptimizationOrderInOrdersTableWithResponse(e.ctx, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcLastMile},
				gen.ApiIndexColumnSelection{RowIndexes: []int64{int64(i/4*2 + k)}})
			assert.NoError(t, err)
		}
	default:
		_, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: 1})
		assert.NoError(t, err)
		_, err = e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcGFA})
		assert.NoError(t, err)
	}
}

func countSelectedRows(rows []gen.Row) int64 {
	var n int64
	for _, r := range rows {
		if r.Selected != nil && *r.Selected {
			n++
		}
	}
	return n
}
