package batch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

const twoItems = "project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n  - {name: b, scenario: 103, experiment: SIMULATION}\n"

// dataRunner is a runner of plan on a fake, writing a CSV dataset, on the
// fake's instant clock (a run's end is settled one stale window after it).
func dataRunner(t *testing.T, srv *fake.Server, clk faketest.InstantClock, p *Plan) *Runner {
	t.Helper()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	r, err := NewRunner(c, p, &Options{Parallel: 1, Clock: clk, Data: &Dataset{Path: filepath.Join(p.Dir, "data.csv")}})
	require.NoError(t, err)
	return r
}

func dataPlan(t *testing.T) (*fake.Server, faketest.InstantClock, *Plan) {
	t.Helper()
	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(0), fake.WithStatusLag(0), fake.WithResultSize(2, 1, 10))
	p, err := ParsePlan(filepath.Join(t.TempDir(), "plan.yaml"), []byte(twoItems))
	require.NoError(t, err)
	return srv, clk, p
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// diskState checks every state file written, before it replaces the
// last: an item that records its part has the part on disk, whole (its
// size and digest); an item done with a dataset asked for records its
// part.
type diskState struct {
	atomicfile.FS
	t       *testing.T
	path    string
	checked atomic.Int32
}

func (d *diskState) Rename(oldpath, newpath string) error {
	if newpath == d.path {
		d.check(oldpath)
	}
	return d.FS.Rename(oldpath, newpath)
}

func (d *diskState) check(path string) {
	b, err := os.ReadFile(path)
	require.NoError(d.t, err)
	var st stateFile
	require.NoError(d.t, json.Unmarshal(b, &st))
	for name, s := range st.Items {
		if s.Status == Done && s.Data == nil {
			d.t.Errorf("item %s is done before its part of the dataset is recorded", name)
		}
		if s.Data == nil {
			continue
		}
		d.checked.Add(1)
		part, err := os.ReadFile(s.Data.File)
		if err != nil {
			d.t.Errorf("item %s records its part before it is on disk: %v", name, err)
			continue
		}
		sum := sha256.Sum256(part)
		assert.Equal(d.t, s.Data.SHA256, hex.EncodeToString(sum[:]), "item %s: the part on disk is the one recorded", name)
		assert.EqualValues(d.t, s.Data.Bytes, len(part))
	}
}

// The state file records an item's part only once the part is on disk,
// whole, and the item is done only after.
func TestPartIsOnDiskBeforeItIsRecorded(t *testing.T) {
	srv, clk, p := dataPlan(t)
	r := dataRunner(t, srv, clk, p)
	check := &diskState{FS: atomicfile.OS, t: t, path: r.path}
	r.st.fs = check
	sum, err := r.Run(testContext(t))
	require.NoError(t, err)
	assert.True(t, sum.OK(), "%+v", sum.Items)
	assert.Positive(t, check.checked.Load(), "no state file recorded a part")
}

// killAfterRename renames a file named like suffix, then kills the batch
// (runtime.Goexit, as a SIGKILL would end it there) and fails every later
// operation.
type killAfterRename struct {
	atomicfile.FS
	suffix string
	cancel context.CancelFunc
	dead   atomic.Bool
}

func (k *killAfterRename) Rename(oldpath, newpath string) error {
	if k.dead.Load() {
		return os.ErrClosed
	}
	err := k.FS.Rename(oldpath, newpath)
	if strings.HasSuffix(newpath, k.suffix) && err == nil {
		k.dead.Store(true)
		k.cancel()
		runtime.Goexit()
	}
	return err
}

// A batch killed once an item's part is in place, before the state file
// records it, leaves the part out of the dataset; the next batch writes
// it again, and the dataset holds the item's records once.
func TestKilledBeforeThePartIsRecorded(t *testing.T) {
	srv, clk, p := dataPlan(t)
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	r := dataRunner(t, srv, clk, p)
	kill := &killAfterRename{FS: atomicfile.OS, suffix: string(filepath.Separator) + "a.csv", cancel: cancel}
	r.dataFS = kill
	var wg sync.WaitGroup
	wg.Go(func() {
		_, err := r.Run(ctx)
		assert.NoError(t, err)
	})
	wg.Wait()
	require.True(t, kill.dead.Load(), "the part of a was not written")
	assert.Nil(t, r.State("a").Data, "the part is not recorded")
	assert.FileExists(t, r.data.partPath("a"), "the part is in place")

	r = dataRunner(t, srv, clk, p)
	sum, err := r.Run(testContext(t))
	require.NoError(t, err)
	assert.True(t, sum.OK(), "%+v", sum.Items)
	b, err := os.ReadFile(r.data.path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\r\n")
	n := map[string]int64{}
	for _, l := range lines[1:] {
		n[l[:strings.IndexByte(l, ',')]]++
	}
	assert.Equal(t, map[string]int64{"a": r.State("a").Data.Records, "b": r.State("b").Data.Records}, n, "records of each item, once")
	assert.Equal(t, 2, srv.Applied("runExperiment"))
}
