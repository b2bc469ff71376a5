package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/internal/atomicfile/atomicfiletest"
)

// The durable order: a temporary file in the same directory, written,
// synced, closed, renamed over the file, and the directory synced.
func TestWriteOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	rec := &atomicfiletest.Recorder{}
	require.NoError(t, atomicfile.WriteBytes(path, []byte("new"), &atomicfile.Options{Suffix: ".partial", FS: rec}))

	require.Equal(t, []string{atomicfiletest.Create, atomicfiletest.Write, atomicfiletest.Sync, atomicfiletest.Close,
		atomicfiletest.Rename, atomicfiletest.SyncDir}, rec.Kinds())
	ops := rec.Ops()
	assert.Equal(t, filepath.Join(dir, ".book.xlsx.*.partial"), filepath.FromSlash(ops[0].Path), "created beside the file")
	assert.Regexp(t, `/\.book\.xlsx\.[0-9]+\.partial$`, filepath.ToSlash(ops[1].Path), "the temporary file is written")
	assert.Equal(t, path, ops[4].Path, "renamed over the file")
	assert.Equal(t, dir, ops[5].Path, "the file's directory is synced")
	assertContent(t, path, "new")
	assertOnly(t, dir, "book.xlsx")
}

// A failure at any step before the rename removes the temporary file and
// leaves the previous file byte for byte; a failed directory sync comes
// after the rename, so the file is new and the error says so.
func TestWriteFailures(t *testing.T) {
	cases := map[string]struct {
		fail    string
		written string
	}{
		"create":  {atomicfiletest.Create, "old"},
		"write":   {atomicfiletest.Write, "old"},
		"sync":    {atomicfiletest.Sync, "old"},
		"close":   {atomicfiletest.Close, "old"},
		"rename":  {atomicfiletest.Rename, "old"},
		"syncdir": {atomicfiletest.SyncDir, "new"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.json")
			require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
			rec := &atomicfiletest.Recorder{Fail: tc.fail}
			err := atomicfile.WriteBytes(path, []byte("new"), &atomicfile.Options{FS: rec})
			assert.ErrorIs(t, err, atomicfiletest.ErrInjected)
			assertContent(t, path, tc.written)
			assertOnly(t, dir, "state.json")
			info, err := os.Stat(path)
			require.NoError(t, err)
			if tc.written == "old" && runtime.GOOS != "windows" {
				assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the old file's mode is kept")
			}
		})
	}
}

// The writer's own error comes back unchanged, and a panic in it removes
// the temporary file too.
func TestWriterFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.xlsx")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	boom := errors.New("connection reset mid-body")
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half a page")
		return boom
	}, nil)
	assert.Equal(t, boom, err)
	assertContent(t, path, "old")
	assertOnly(t, dir, "page.xlsx")

	assert.Panics(t, func() {
		_ = atomicfile.Write(path, func(w io.Writer) error {
			_, _ = io.WriteString(w, "half a page")
			panic("killed")
		}, nil)
	})
	assertContent(t, path, "old")
	assertOnly(t, dir, "page.xlsx")
}

// A new file gets the permission bits asked for, less the umask, as a file
// created with os.OpenFile does (os.CreateTemp would give 0600, a chmod
// would ignore the umask).
func TestWriteMode(t *testing.T) {
	cases := []struct {
		umask int
		perm  os.FileMode
		want  os.FileMode
	}{
		{0, 0, 0o644},
		{0o027, 0, 0o640},
		{0, 0o600, 0o600},
	}
	dir := t.TempDir()
	for i, tc := range cases {
		atomicfiletest.SetUmask(t, tc.umask)
		path := filepath.Join(dir, fmt.Sprint(i))
		require.NoError(t, atomicfile.WriteBytes(path, []byte("x"), &atomicfile.Options{Perm: tc.perm}))
		assert.Equal(t, tc.want, mode(t, path), "umask %03o, perm %03o", tc.umask, tc.perm)
	}
}

// A symbolic link is followed: the file it points to is replaced and the
// link stays.
func TestWriteFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.xlsx")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o644))
	link := filepath.Join(dir, "link.xlsx")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	require.NoError(t, atomicfile.WriteBytes(link, []byte("new"), nil))
	assertContent(t, real, "new")
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, info.Mode().Type())
}

// A device is written in place: there is no file to replace.
func TestWriteDevice(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	rec := &atomicfiletest.Recorder{}
	require.NoError(t, atomicfile.WriteBytes(os.DevNull, []byte("x"), &atomicfile.Options{FS: rec}))
	assert.Empty(t, rec.Ops())
}

// Only the temporary files of the named files, with the suffix, are
// removed: never a file of another name or form.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".a.xlsx.123.partial", ".a.xlsx.9.partial", ".b.xlsx.4.partial",
		"a.xlsx", ".a.xlsx.partial", ".a.xlsx.12x.partial", ".a.xlsx..partial", ".a.xlsx.1.partial.bak", ".a.xlsx.77.tmp", ".c.xlsx.5.partial"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".a.xlsx.8.partial"), 0o755))
	rec := &atomicfiletest.Recorder{}
	removed, err := atomicfile.RemoveLeftovers(dir, []string{"a.xlsx", "b.xlsx"}, &atomicfile.Options{Suffix: ".partial", FS: rec})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{filepath.Join(dir, ".a.xlsx.123.partial"), filepath.Join(dir, ".a.xlsx.9.partial"),
		filepath.Join(dir, ".b.xlsx.4.partial")}, removed)
	assertOnly(t, dir, "a.xlsx", ".a.xlsx.partial", ".a.xlsx.12x.partial", ".a.xlsx..partial", ".a.xlsx.1.partial.bak",
		".a.xlsx.77.tmp", ".c.xlsx.5.partial", ".a.xlsx.8.partial")
	assert.Len(t, rec.Ops(), 3, "removed through the FS")

	removed, err = atomicfile.RemoveLeftovers(filepath.Join(dir, "missing"), []string{"a.xlsx"}, nil)
	assert.NoError(t, err)
	assert.Empty(t, removed)
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want, string(b))
}

// assertOnly checks that dir holds exactly these names: no temporary file
// is left.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	assert.ElementsMatch(t, names, got)
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Mode().Perm()
}
