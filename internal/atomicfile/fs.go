package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// FS is the file-system operations a write goes through.
type FS interface {
	// CreateTemp creates a new file in dir, open for writing, named
	// pattern with its last "*" replaced by random digits, with the
	// permission bits perm (before the umask).
	CreateTemp(dir, pattern string, perm fs.FileMode) (File, error)
	// Rename renames oldpath to newpath, replacing newpath.
	Rename(oldpath, newpath string) error
	// Remove removes a file.
	Remove(name string) error
	// SyncDir flushes a directory's entries (a rename in it) to stable
	// storage.
	SyncDir(dir string) error
}

// File is a temporary file being written.
type File interface {
	io.Writer
	// Name is the file's path, as given to CreateTemp joined with its name.
	Name() string
	// Sync flushes the file's content to stable storage.
	Sync() error
	Close() error
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

// maxTries bounds the names CreateTemp tries before giving up: a name
// taken is tried again with other digits.
const maxTries = 1000

func (osFS) CreateTemp(dir, pattern string, perm fs.FileMode) (File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range maxTries {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: fs.ErrExist}
}

func (osFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

func (osFS) Remove(name string) error { return os.Remove(name) }

// SyncDir syncs a directory. Windows cannot sync a directory (its renames
// are durable when they return), and some file systems refuse to
// (EINVAL): there it does nothing.
func (osFS) SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}
