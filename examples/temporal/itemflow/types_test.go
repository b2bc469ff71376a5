package itemflow_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/examples/temporal/itemflow"
)

// The example's plan reads, and its items become workflow inputs with
// absolute paths.
func TestInputFromPlan(t *testing.T) {
	plan, err := batch.ReadPlan(filepath.Join("..", "plan.yaml"))
	require.NoError(t, err)
	require.Len(t, plan.Items, 2)
	in, err := itemflow.InputFromPlan(plan.Items[0])
	require.NoError(t, err)
	want, err := filepath.Abs(filepath.Join("..", "out", "baseline.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, itemflow.ItemInput{Name: "baseline", ProjectID: 1, ScenarioName: "", ScenarioID: 101, Experiment: "GFA",
		Dashboard: want}, in)
}
