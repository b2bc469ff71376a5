package batch_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// One batch item against answers a real server was recorded giving: the
// item's run is told from the scenario's earlier runs (the first status
// read shows the last run's end, and the runs list names results), and its
// own result's dashboard is exported.
func TestBatchItemOnTheRecordedServer(t *testing.T) {
	rs := recorded.NewServer(t)
	c, err := facade.New(rs.URL, facade.WithAPIKey("key"), facade.WithClock(faketest.NewInstantClock()),
		facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte("project: 12\nitems:\n  - {name: baseline, scenario: 1201, experiment: SIMULATION, export: {dashboard: out/baseline.xlsx}}\n"), 0o644))
	p, err := batch.ReadPlan(path)
	require.NoError(t, err)
	r, err := batch.NewRunner(c, p, &batch.Options{})
	require.NoError(t, err)
	sum, err := r.Run(deadline(t))
	require.NoError(t, err)
	require.True(t, sum.OK(), "%+v", sum.Items)
	st := sum.Items[0].State
	assert.EqualValues(t, 5101, st.RcID)
	assert.EqualValues(t, 90101, st.ExperimentResultID, "the item's own run's result, not the last listed (90021)")
	assert.EqualValues(t, 90100, st.RunID)
	assert.Equal(t, 1, rs.Calls(gen.OpRunExperiment))
	assert.Equal(t, "experimentResultId=90101&pageId=90106", rs.LastQuery(gen.OpExportDashboardPage))
	_, err = os.Stat(filepath.Join(dir, "out", "baseline.xlsx"))
	assert.NoError(t, err)
}
