// Package atomicfiletest has an [atomicfile.FS] for tests that records the
// order of the file-system operations and can fail one of them.
package atomicfiletest

import (
	"errors"
	"io/fs"
	"slices"
	"sync"

	"github.com/scmodel/scmgo/internal/atomicfile"
)

// The kinds of operation a [Recorder] records.
const (
	Create  = "create"
	Write   = "write"
	Sync    = "sync"
	Close   = "close"
	Rename  = "rename"
	SyncDir = "syncdir"
	Remove  = "remove"
)

// Op is one operation: its kind and the path it acted on (for a rename, the
// new path; for a write, the file written).
type Op struct {
	Kind, Path string
}

// ErrInjected is the error of the operation a Recorder was told to fail,
// which comes as an *fs.PathError naming the path the operation acted on,
// as the operating system's errors do.
var ErrInjected = errors.New("atomicfiletest: injected failure")

// Recorder is an [atomicfile.FS] over the operating system's that records
// every operation, failed ones too, in order. When Fail is set, the first
// operation of that kind fails with [ErrInjected] instead of running.
type Recorder struct {
	Fail string

	mu     sync.Mutex
	ops    []Op
	failed bool
}

var _ atomicfile.FS = (*Recorder)(nil)

// do records an operation and runs it, or fails it.
func (r *Recorder) do(kind, path string, op func() error) error {
	r.mu.Lock()
	r.ops = append(r.ops, Op{kind, path})
	fail := r.Fail == kind && !r.failed
	r.failed = r.failed || fail
	r.mu.Unlock()
	if fail {
		return &fs.PathError{Op: kind, Path: path, Err: ErrInjected}
	}
	return op()
}

// Ops returns the operations recorded so far.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ops)
}

// Kinds returns the kinds of the operations recorded so far, in order, with
// consecutive writes as one.
func (r *Recorder) Kinds() []string {
	var kinds []string
	for _, op := range r.Ops() {
		if op.Kind == Write && len(kinds) > 0 && kinds[len(kinds)-1] == Write {
			continue
		}
		kinds = append(kinds, op.Kind)
	}
	return kinds
}

// Reset forgets the operations recorded, and lets Fail fail again.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops, r.failed = nil, false
}

// CreateTemp implements [atomicfile.FS].
func (r *Recorder) CreateTemp(dir, pattern string, perm fs.FileMode) (atomicfile.File, error) {
	var f atomicfile.File
	err := r.do(Create, dir+"/"+pattern, func() (err error) {
		f, err = atomicfile.OS.CreateTemp(dir, pattern, perm)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &file{f: f, r: r}, nil
}

// Rename implements [atomicfile.FS].
func (r *Recorder) Rename(oldpath, newpath string) error {
	return r.do(Rename, newpath, func() error { return atomicfile.OS.Rename(oldpath, newpath) })
}

// Remove implements [atomicfile.FS].
func (r *Recorder) Remove(name string) error {
	return r.do(Remove, name, func() error { return atomicfile.OS.Remove(name) })
}

// SyncDir implements [atomicfile.FS].
func (r *Recorder) SyncDir(dir string) error {
	return r.do(SyncDir, dir, func() error { return atomicfile.OS.SyncDir(dir) })
}

// file records the operations on a temporary file.
type file struct {
	f atomicfile.File
	r *Recorder
}

func (f *file) Name() string { return f.f.Name() }

func (f *file) Write(p []byte) (n int, err error) {
	err = f.r.do(Write, f.f.Name(), func() (err error) {
		n, err = f.f.Write(p)
		return err
	})
	return n, err
}

func (f *file) Sync() error { return f.r.do(Sync, f.f.Name(), f.f.Sync) }

// Close closes the file even when it fails the call, so that a test does
// not leak it.
func (f *file) Close() error {
	err := f.r.do(Close, f.f.Name(), f.f.Close)
	if errors.Is(err, ErrInjected) {
		f.f.Close()
	}
	return err
}
