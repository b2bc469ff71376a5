package batch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/atomicfile/atomicfiletest"
)

const onePlan = "project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n"

func testStore(t *testing.T) (*store, *Plan) {
	t.Helper()
	p, err := ParsePlan(filepath.Join(t.TempDir(), "plan.yaml"), []byte(onePlan))
	require.NoError(t, err)
	s, err := openStore(p.StatePath(), p)
	require.NoError(t, err)
	return s, p
}

// Every change of the state file goes: a temporary file beside it,
// written, synced, closed, renamed over it, and the directory synced.
func TestStateFileWriteOrder(t *testing.T) {
	s, p := testStore(t)
	rec := &atomicfiletest.Recorder{}
	s.fs = rec
	require.NoError(t, s.update("a", func(st *ItemState) { st.RunSent, st.RcID = true, 5001 }))

	require.Equal(t, []string{atomicfiletest.Create, atomicfiletest.Write, atomicfiletest.Sync, atomicfiletest.Close,
		atomicfiletest.Rename, atomicfiletest.SyncDir}, rec.Kinds())
	ops := rec.Ops()
	assert.Equal(t, filepath.Join(p.Dir, ".plan.state.json.*.tmp"), filepath.FromSlash(ops[0].Path))
	assert.Equal(t, p.StatePath(), ops[len(ops)-2].Path, "renamed over the state file")
	assert.Equal(t, p.Dir, ops[len(ops)-1].Path, "its directory synced")
	b, err := os.ReadFile(p.StatePath())
	require.NoError(t, err)
	assert.Contains(t, string(b), `"rcId": 5001`)
}

// A change that cannot be written fails, and the state file stays as it
// was, byte for byte, with no temporary file left.
func TestStateFileWriteFails(t *testing.T) {
	for _, fail := range []string{atomicfiletest.Create, atomicfiletest.Write, atomicfiletest.Sync, atomicfiletest.Rename} {
		t.Run(fail, func(t *testing.T) {
			s, p := testStore(t)
			require.NoError(t, s.flush())
			before, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			s.fs = &atomicfiletest.Recorder{Fail: fail}
			err = s.update("a", func(st *ItemState) { st.RunSent = true })
			assert.ErrorIs(t, err, atomicfiletest.ErrInjected)
			after, err := os.ReadFile(p.StatePath())
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after))
			entries, err := os.ReadDir(p.Dir)
			require.NoError(t, err)
			require.Len(t, entries, 1, "only the state file")
		})
	}
}

// A batch whose state file cannot be synced sends nothing.
func TestUnsyncableStateSendsNothing(t *testing.T) {
	srv := fake.NewServer(fake.WithLicense(), fake.WithRunDuration(0))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey))
	require.NoError(t, err)
	defer c.CloseIdleConnections()
	_, p := testStore(t)
	r, err := NewRunner(c, p, nil)
	require.NoError(t, err)
	r.st.fs = &atomicfiletest.Recorder{Fail: atomicfiletest.Sync}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err = r.Run(ctx)
	assert.ErrorIs(t, err, atomicfiletest.ErrInjected)
	assert.Zero(t, srv.Calls("getExperiments"))
}
