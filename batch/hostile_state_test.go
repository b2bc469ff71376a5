package batch_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
)

// A state file whose items or version are gone, or null, is refused with
// an error naming the file, and nothing is sent again: taken as a new
// batch, it would import and run every item a second time.
func TestHostileStateFileWithoutItemsOrVersion(t *testing.T) {
	for name, damage := range map[string]func(map[string]any){
		"items null":      func(m map[string]any) { m["items"] = nil },
		"no items":        func(m map[string]any) { delete(m, "items") },
		"no version":      func(m map[string]any) { delete(m, "version") },
		"version null":    func(m map[string]any) { m["version"] = nil },
		"an item is null": func(m map[string]any) { m["items"].(map[string]any)["baseline"] = nil },
		"nothing but {}":  func(m map[string]any) { clear(m) },
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			p := e.plan(t, threeItems)
			e.run(t, p, batch.Options{})
			before := e.applied()

			var state map[string]any
			b, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &state))
			damage(state)
			b, err = json.Marshal(state)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(p.StatePath(), b, 0o600))

			_, err = batch.NewRunner(e.c, p, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "batch: state file "+p.StatePath())
			assert.Equal(t, before, e.applied(), "nothing sent again")
			after, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			assert.Equal(t, string(b), string(after), "the state file is left as it was")
		})
	}
}

// A state file that is really empty (no bytes but white space) is a batch
// not yet begun.
func TestEmptyStateFileStartsTheBatch(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	require.NoError(t, os.WriteFile(p.StatePath(), []byte(" \n"), 0o600))
	sum := e.run(t, p, batch.Options{})
	assert.Len(t, sum.Items, 3)
	assert.Equal(t, 1, e.srv.Applied("importExcel"))
}
