package facade

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/ids"
)

// SettleByName takes the newest scenario of the name that was not known
// before the job was sent; with none, the job is an unknown start naming
// what to check; a lookup that fails is that failure, not an unknown start.
func TestSettleByName(t *testing.T) {
	_, c := newFake(t)
	lost := func(known ...ids.ScenarioID) LostScenarioJob {
		return LostScenarioJob{Operation: "copyScenario", Subject: "scenario 101 as SIM", Project: 1, Name: "Simulation", Known: known}
	}
	id, err := c.Scenarios.SettleByName(testCtx(t), lost())
	require.NoError(t, err)
	assert.EqualValues(t, 105, id, "the newest of 103 and 105")
	id, err = c.Scenarios.SettleByName(testCtx(t), lost(105))
	require.NoError(t, err)
	assert.EqualValues(t, 103, id, "the one not known")

	_, err = c.Scenarios.SettleByName(testCtx(t), lost(103, 105))
	var unknown *StartUnknownError
	require.ErrorAs(t, err, &unknown)
	assert.ErrorIs(t, err, ErrStartUnknown)
	assert.Equal(t, "copyScenario", unknown.Operation)
	assert.Equal(t, "scenario 101 as SIM", unknown.Subject)
	assert.Contains(t, unknown.Reason, `project 1 has no new scenario "Simulation" yet`)
	assert.Contains(t, unknown.Check, `besides the 2 named "Simulation" before`)

	bad := lost()
	bad.Project = -1
	_, err = c.Scenarios.SettleByName(testCtx(t), bad)
	assert.ErrorIs(t, err, ErrValidation)
	assert.NotErrorIs(t, err, ErrStartUnknown)
}
