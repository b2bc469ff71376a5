//go:build unix

package atomicfiletest

import (
	"syscall"
	"testing"
)

// SetUmask sets the process's umask until the test ends, so that a test can
// tell the mode a file was created with. The umask belongs to the whole
// process: a test that sets it must not run in parallel with others. Where
// there is no umask, the test is skipped.
func SetUmask(t testing.TB, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}
