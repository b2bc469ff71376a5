//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// lockTemp locks the temporary file at path for its writer, without
// waiting, through a descriptor of its own that outlives the file's Close
// and is released once the file is renamed: a sweep of leftovers
// (heldByWriter) leaves it alone. The system releases the lock when the
// process ends, however it ends, so a killed writer's file is free. Where
// the file cannot be locked, release does nothing.
func lockTemp(path string) (release func()) {
	f, err := os.Open(path)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}

// heldByWriter reports whether a live writer holds the temporary file at
// path (lockTemp): its lock cannot be taken.
func heldByWriter(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK)
}
