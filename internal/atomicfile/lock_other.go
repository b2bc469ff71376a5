//go:build !unix

package atomicfile

// lockTemp does nothing where there are no file locks: there, a file open
// for writing cannot be removed (Windows), which protects a live writer's
// file from a sweep of leftovers.
func lockTemp(string) (release func()) { return func() {} }

// heldByWriter reports no file as held where there are no file locks.
func heldByWriter(string) bool { return false }
