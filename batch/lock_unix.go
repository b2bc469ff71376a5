//go:build unix

package batch

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockTries bounds how often lockFile opens the lock file again after it
// was removed under it by a batch that ended.
const lockTries = 100

// lockFile takes an exclusive lock on path, creating it, so that two
// batches never work from one state file at once. The system releases the
// lock when the process ends, however it ends; unlock removes the file too.
//
// A batch removes the file while it still holds the lock, so a batch that
// locked a file no longer at path has locked nothing: it opens path again.
func lockFile(path string) (unlock func(), err error) {
	for range lockTries {
		f, err := lockOpen(path)
		if err != nil {
			return nil, err
		}
		if current(f, path) {
			return func() {
				os.Remove(path)
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("batch: %w: %s keeps being removed by other batches", ErrBusy, path)
}

// lockOpen opens path, creating it, and locks it without waiting.
func lockOpen(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("batch: locking the state file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("batch: %w: %s is locked by another batch", ErrBusy, path)
		}
		return nil, fmt.Errorf("batch: locking the state file: %w", err)
	}
	return f, nil
}

// current reports whether the open file f is still the file at path.
func current(f *os.File, path string) bool {
	open, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(open, now)
}
