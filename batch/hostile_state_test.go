package batch_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/internal/testkit/heaptest"
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

// stateAfterARun runs a batch of threeItems to its end and returns its
// environment, its plan and its state file's text.
func stateAfterARun(t *testing.T) (*env, *batch.Plan, string) {
	t.Helper()
	e := newEnv(t)
	p := e.plan(t, threeItems)
	e.run(t, p, batch.Options{})
	b, err := os.ReadFile(p.StatePath())
	require.NoError(t, err)
	return e, p, string(b)
}

// A key written twice in an object of the state file, wherever it is, is
// refused with an error naming the file and the line, and nothing is sent:
// encoding/json took the last silently, so an item recorded twice, or an
// id written twice, was resumed from whichever came last.
func TestHostileStateFileWithARepeatedKey(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(state string) string
		want string
	}{
		"an item twice": {func(s string) string {
			return strings.Replace(s, `"items": {`, `"items": {`+"\n"+`"baseline": {"digest": "x", "status": "pending"},`, 1)
		}, `key "baseline" written again (first at line 5)`},
		"an id twice in an item": {func(s string) string {
			return strings.Replace(s, `"rcId": `, `"rcId": 9999, "rcId": `, 1)
		}, `key "rcId" written again`},
		"an id twice, in other case": {func(s string) string {
			return strings.Replace(s, `"rcId": `, `"RCID": 9999, "rcId": `, 1)
		}, `key "rcId" written again`},
		"the version twice": {func(s string) string {
			return strings.Replace(s, `"version": 1,`, `"version": 1, "version": 1,`, 1)
		}, `line 2: key "version" written again (first at line 2)`},
		"a key twice in a field this release does not read": {func(s string) string {
			return strings.Replace(s, `"version": 1,`, `"version": 1, "later": {"a": [{"b": 1, "b": 2}]},`, 1)
		}, `line 2: key "b" written again`},
	} {
		t.Run(name, func(t *testing.T) {
			e, p, state := stateAfterARun(t)
			before := e.applied()
			damaged := tc.edit(state)
			require.NotEqual(t, state, damaged)
			require.NoError(t, os.WriteFile(p.StatePath(), []byte(damaged), 0o600))

			_, err := batch.NewRunner(e.c, p, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "batch: state file "+p.StatePath()+": line ")
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "restore the file, or remove the wrong one")
			assert.Equal(t, before, e.applied(), "nothing sent again")
			after, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			assert.Equal(t, damaged, string(after), "the state file is left as it was")
		})
	}
}

// A state file larger than batch.MaxStateBytes is refused before it is
// read, naming the file and the limit: one of 300 MiB was read whole (627
// MiB of memory, 24 s) before. The file is sparse: nothing is written.
func TestHostileStateFileTooLarge(t *testing.T) {
	e, p, _ := stateAfterARun(t)
	before := e.applied()
	require.NoError(t, os.Truncate(p.StatePath(), batch.MaxStateBytes+1))

	var err error
	peak, took := heaptest.Peak(func() { _, err = batch.NewRunner(e.c, p, nil) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("batch: state file %s is %d bytes, more than the %d bytes (64 MiB) a state file may hold: it is not a batch's state",
		p.StatePath(), batch.MaxStateBytes+1, batch.MaxStateBytes))
	assert.Less(t, peak, uint64(1<<20), "the heap grew by %d bytes", peak)
	assert.Less(t, took, 5*time.Second)
	assert.Equal(t, before, e.applied(), "nothing sent again")
	info, err := os.Stat(p.StatePath())
	require.NoError(t, err)
	assert.Equal(t, int64(batch.MaxStateBytes+1), info.Size(), "the state file is left as it was")
}

// Fields this release does not read, wherever they are in the state file,
// are kept: a batch that resumes the state writes them back as they were,
// so a state a later release wrote loses nothing. (They were dropped at
// the first write.)
func TestStateFileKeepsFieldsItDoesNotRead(t *testing.T) {
	e, p, state := stateAfterARun(t)
	edited := strings.Replace(state, `"version": 1,`, `"version": 1, "writtenBy": {"release": "v9", "n": 12345678901234567890},`, 1)
	edited = strings.Replace(edited, `"rcId": `, `"rcTag": ["a", {"b": null}], "rcId": `, 1)
	edited = strings.Replace(edited, `"status": "done"`, `"status": "done", "doneBy": "later"`, 1)
	require.NoError(t, os.WriteFile(p.StatePath(), []byte(edited), 0o600))

	sum := e.run(t, p, batch.Options{})
	assert.Equal(t, 2, sum.Count(batch.Done), "broken fails, as in threeItems")
	b, err := os.ReadFile(p.StatePath())
	require.NoError(t, err)
	var got struct {
		WrittenBy json.RawMessage            `json:"writtenBy"`
		Version   int                        `json:"version"`
		Items     map[string]json.RawMessage `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &got))
	assert.JSONEq(t, `{"release": "v9", "n": 12345678901234567890}`, string(got.WrittenBy))
	assert.Contains(t, string(got.WrittenBy), "12345678901234567890", "a number kept as it was written")
	assert.Equal(t, 1, got.Version)
	var kept int
	for name, item := range got.Items {
		var fields map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(item, &fields), name)
		if v, ok := fields["rcTag"]; ok {
			assert.JSONEq(t, `["a", {"b": null}]`, string(v), name)
			kept++
		}
		if v, ok := fields["doneBy"]; ok {
			assert.JSONEq(t, `"later"`, string(v), name)
			kept++
		}
		assert.Contains(t, fields, "rcId", "%s: the fields read are written too", name)
	}
	assert.Equal(t, 2, kept, "both fields of items kept")
	assert.True(t, json.Valid(b))
}
