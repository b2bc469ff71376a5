package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// scm run --wait against answers a real server was recorded giving: the
// first status read after the start still shows the last run's end, and
// the runs list names results, not run configurations. The run's own
// result is printed, not the last listed one (90021).
func TestRunWaitOnTheRecordedServer(t *testing.T) {
	rs := recorded.NewServer(t)
	r := scm(t, "", "run", "5101", "--wait", "--base-url", rs.URL, "--api-key", testKey)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "90101\n", r.stdout)
	assert.Contains(t, r.stderr, "rcId 5101: FINISHED, experimentResultId 90101\n")
	assert.GreaterOrEqual(t, rs.Calls(gen.OpGetExperimentStatus), 4, "a read before the start, the stale end, the run under way, its end")
}
