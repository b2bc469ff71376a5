package atomicfile

import (
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
// A symbolic link at path is followed: the file it points to is replaced. A
// path that names something other than a regular file (a device such as
// /dev/stdout, a named pipe) is written in place, as there is no file to
// replace. path's directory must exist.
func Write(path string, write func(io.Writer) error, opts *Options) error {
	o := opts.orDefaults()
	path, inPlace := target(path)
	if inPlace {
		return writeInPlace(path, write)
	}
	return o.replace(path, write)
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
func (o Options) replace(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := o.FS.CreateTemp(dir, tempPattern(filepath.Base(path), o.Suffix), o.Perm)
	if err != nil {
		return err
	}
	open, renamed := true, false
	defer func() {
		if open {
			f.Close()
		}
		if !renamed {
			o.FS.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	open = false
	if err := f.Close(); err != nil {
		return err
	}
	if err := o.FS.Rename(f.Name(), path); err != nil {
		return err
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

// tempPattern is the pattern of the temporary files of a file named base.
func tempPattern(base, suffix string) string { return "." + base + ".*" + suffix }
