package scmtemporal_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	scmtemporal "github.com/scmodel/scmgo/temporal"
)

// The example's plan reads, and its items become workflow inputs with
// absolute paths and the plan's options.
func TestItemsFromPlan(t *testing.T) {
	plan, err := batch.ReadPlan(filepath.Join("..", "examples", "temporal", "plan.yaml"))
	require.NoError(t, err)
	opts := scmtemporal.PlanOptions{DataDir: "data", Item: scmtemporal.Options{StopOnCancel: true}}
	items, err := scmtemporal.ItemsFromPlan(plan, opts)
	require.NoError(t, err)
	require.Len(t, items, 2)
	dashboard, err := filepath.Abs(filepath.Join("..", "examples", "temporal", "out", "baseline.xlsx"))
	require.NoError(t, err)
	data, err := filepath.Abs(filepath.Join("data", "baseline.csv"))
	require.NoError(t, err)
	assert.Equal(t, scmtemporal.ItemInput{Name: "baseline", ProjectID: 1, ScenarioID: 101, Experiment: "GFA",
		Dashboard: dashboard, Data: data, Options: opts.Item}, items[0])
}

// A data extension of no format the activities write is refused, naming
// the field.
func TestItemsFromPlanRefusesAnUnknownDataFormat(t *testing.T) {
	plan, err := batch.ReadPlan(filepath.Join("..", "examples", "temporal", "plan.yaml"))
	require.NoError(t, err)
	_, err = scmtemporal.ItemsFromPlan(plan, scmtemporal.PlanOptions{DataDir: "data", DataExt: ".parquet"})
	assert.ErrorContains(t, err, "PlanOptions.DataExt")
}
