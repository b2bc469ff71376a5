package batch_test

import (
	"encoding/json"
	"net/http"
	"os"
	"sync"
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

// A state file that is empty, white space, cut short, or that records no
// items for a plan that has some, is refused with an error naming the
// file and what to do, and nothing is sent: taken for a new batch, it sent
// every import and run again (4 imports for 2 items, 8 runs for 4). A
// zero-length file is what a crash leaves on some file systems.
func TestHostileStateFileThatIsNoState(t *testing.T) {
	for name, tc := range map[string]struct {
		damage func(b []byte) []byte
		want   string
	}{
		"empty":       {func([]byte) []byte { return nil }, "is empty (0 bytes)"},
		"white space": {func([]byte) []byte { return []byte(" \n\t\n") }, "holds only white space (4 bytes)"},
		"cut short":   {func(b []byte) []byte { return b[:len(b)/2] }, "is not JSON (unexpected end of JSON input)"},
		"items {}":    {func([]byte) []byte { return []byte(`{"version":1,"plan":"plan.yaml","items":{}}`) }, "records no items, and the plan has 3"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			p := e.plan(t, threeItems)
			e.run(t, p, batch.Options{})
			before := e.applied()
			b, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			b = tc.damage(b)
			require.NoError(t, os.WriteFile(p.StatePath(), b, 0o600))

			_, err = batch.NewRunner(e.c, p, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "batch: state file "+p.StatePath()+" "+tc.want)
			assert.Contains(t, err.Error(), "restore it, or remove it to start the batch anew")
			assert.Equal(t, before, e.applied(), "nothing sent again")
			after, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			assert.Equal(t, string(b), string(after), "the state file is left as it was")
		})
	}
}

// A missing state file is a new batch, which writes its state file before
// its first call: the file is on disk, recording every item, when the
// first request leaves.
func TestNewBatchWritesItsStateFileFirst(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, threeItems)
	var first []byte
	var once sync.Once
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			once.Do(func() { first, _ = os.ReadFile(p.StatePath()) })
			return next.RoundTrip(r)
		})
	})
	r, err := batch.NewRunner(c, p, nil)
	require.NoError(t, err)
	assert.NoFileExists(t, p.StatePath(), "preparing the batch writes nothing")
	_, err = r.Run(deadline(t))
	require.NoError(t, err)
	require.NotEmpty(t, first, "the state file was on disk at the first request")
	var state struct {
		Items map[string]struct{ Status string }
	}
	require.NoError(t, json.Unmarshal(first, &state))
	assert.Len(t, state.Items, 3)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
