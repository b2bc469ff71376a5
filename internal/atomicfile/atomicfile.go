package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Options are the optional settings of [Write] and [RemoveLeftovers].
type Options struct {
	// Perm is the written file's permission bits, before the umask; zero
	// means 0o644. A file replaced takes them too.
	Perm fs.FileMode
	// Suffix ends the temporary file's name; empty means ".tmp".
	Suffix string
	// FS is the file system; nil means [OS].
	FS FS
	// NoFollow refuses to write through a symbolic link at path (the last
	// element of path; the directories before it are followed): the error
	// matches [ErrSymlink] and nothing is written. False follows the link
	// and replaces the file it points to.
	NoFollow bool
	// SweepLeftovers removes, before the write, the temporary files that
	// earlier writes of path left when they were killed, as
	// [RemoveLeftovers] does (those with Suffix, that no live writer
	// holds), and no other file. A failure to remove one does not stop the
	// write.
	SweepLeftovers bool
}

func (o *Options) orDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.Perm == 0 {
		d.Perm = 0o644
	}
	if d.Suffix == "" {
		d.Suffix = ".tmp"
	}
	if d.FS == nil {
		d.FS = OS
	}
	return d
}

// Write replaces the file at path with what write writes: it creates a
// temporary file in path's directory, lets write fill it, syncs and closes
// it, renames it over path and syncs the directory. When any of that fails
// before the rename, the temporary file is removed, the file at path is left
// exactly as it was (or absent, as it was), and the error is returned: write's
// own error unchanged. opts may be nil.
//
// A symbolic link at path is followed: the file it points to is replaced,
// unless NoFollow refuses it. A path that names something other than a
// regular file (a device such as /dev/stdout, a named pipe) is written in
// place, as there is no file to replace. path's directory must exist.
//
// An error of the file system names path, never the temporary file, which
// the caller did not name: "create out/book.xlsx: no such file or
// directory".
func Write(path string, write func(io.Writer) error, opts *Options) error {
	o := opts.orDefaults()
	if o.NoFollow {
		if err := refuseSymlink(path); err != nil {
			return err
		}
	}
	path, inPlace := target(path)
	if inPlace {
		return writeInPlace(path, write)
	}
	if o.SweepLeftovers {
		_, _ = RemoveLeftovers(filepath.Dir(path), []string{filepath.Base(path)}, &o)
	}
	return o.replace(path, write)
}

// ErrSymlink matches the error of a write that [Options].NoFollow refused:
// the path is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link, and writing through one is refused")

// refuseSymlink is an error matching ErrSymlink when path is a symbolic
// link.
func refuseSymlink(path string) error {
	info, err := os.Lstat(path)
	if err != nil || info.Mode().Type() != fs.ModeSymlink {
		return nil
	}
	to, _ := os.Readlink(path)
	return fmt.Errorf("%s %w (it points to %s): write to the file itself, or remove the link", path, ErrSymlink, to)
}

// WriteBytes replaces the file at path with data; see [Write].
func WriteBytes(path string, data []byte, opts *Options) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, opts)
}

// replace writes a temporary file and renames it over path. The temporary
// file is removed however the write ends before the rename: an error, a
// panic, or runtime.Goexit.
//
// The temporary file is locked until it is renamed (see lockTemp), so
// that a sweep of leftovers never takes a live writer's file for one.
func (o Options) replace(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := o.FS.CreateTemp(dir, tempPattern(filepath.Base(path), o.Suffix), o.Perm)
	if err != nil {
		return onPath("create", path, err)
	}
	release := lockTemp(f.Name())
	defer release()
	open, renamed := true, false
	defer func() {
		if open {
			f.Close()
		}
		if !renamed {
			o.FS.Remove(f.Name())
		}
	}()
	if err := write(pathWriter{w: f, temp: f.Name(), path: path}); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return onPath("sync", path, err)
	}
	open = false
	if err := f.Close(); err != nil {
		return onPath("close", path, err)
	}
	if err := o.FS.Rename(f.Name(), path); err != nil {
		return onPath("rename", path, err)
	}
	renamed = true
	if err := o.FS.SyncDir(dir); err != nil {
		return fmt.Errorf("atomicfile: %s is written, but its directory could not be synced: %w", path, err)
	}
	return nil
}

// target is the file a write of path replaces: path, or the file a symbolic
// link at path points to. inPlace: it exists and is not a regular file.
func target(path string) (file string, inPlace bool) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	info, err := os.Stat(path)
	return path, err == nil && !info.Mode().IsRegular()
}

func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// onPath is err, of an operation op on the temporary file of path, told as
// of path: the file the caller named, not the temporary file it never
// did. It matches what err matches.
func onPath(op, path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// pathWriter is the temporary file as write sees it: an error of its own
// names path, not the temporary file.
type pathWriter struct {
	w          io.Writer
	temp, path string
}

func (w pathWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	var pe *fs.PathError
	if err != nil && errors.As(err, &pe) && pe.Path == w.temp {
		err = &fs.PathError{Op: pe.Op, Path: w.path, Err: pe.Err}
	}
	return n, err
}

// tempPattern is the pattern of the temporary files of a file named base.
func tempPattern(base, suffix string) string { return "." + base + ".*" + suffix }
