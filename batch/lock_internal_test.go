//go:build unix

package batch

import (
	"errors"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Batches that take and release the lock at once, each removing the lock
// file when it ends, never hold it two at a time: a batch that locked a file
// removed under it locks the new one instead.
func TestLockExcludesWhileTheFileIsRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.state.json.lock")
	var inside, held atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 500 {
				unlock, err := lockFile(path)
				if err != nil {
					if !errors.Is(err, ErrBusy) {
						t.Error(err)
					}
					continue
				}
				if inside.Add(1) != 1 {
					t.Error("two batches hold the lock")
				}
				held.Add(1)
				runtime.Gosched()
				inside.Add(-1)
				unlock()
			}
		})
	}
	wg.Wait()
	assert.Positive(t, held.Load())
	assert.NoFileExists(t, path)
}
