//go:build !unix

package atomicfiletest

import "testing"

// SetUmask skips the test: this system has no umask.
func SetUmask(t testing.TB, mask int) {
	t.Skip("no umask on this system")
}
