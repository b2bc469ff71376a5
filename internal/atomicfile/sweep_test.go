package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/internal/atomicfile/atomicfiletest"
)

// A write with Output's options first removes what killed writes of its
// path left (.book.xlsx.<digits>.partial), and no other file: not a user's
// file of a similar name, nor another file's leftover, nor one of another
// suffix. They stayed before, one per killed export.
func TestWriteSweepsTheLeftoversOfItsPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	leftovers := []string{".book.xlsx.2342076590.partial", ".book.xlsx.7.partial"}
	users := []string{".book.xlsx.partial", "book.xlsx.123.partial", ".book.xlsx.12x.partial", ".book.xlsx..partial", ".book.xlsx.1.partial.bak",
		".book.xlsx.77.tmp", ".other.xlsx.5.partial", "my.book.xlsx.3.partial", ".my.book.xlsx.3.partial", ".book.xlsx.3.partial.partial"}
	for _, name := range append(leftovers, users...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644))
	}
	require.NoError(t, atomicfile.WriteBytes(path, []byte("new"), atomicfile.Output()))
	assertContent(t, path, "new")
	assertOnly(t, dir, append(users, "book.xlsx")...)
}

// Without SweepLeftovers, a write leaves them: batch's parts, which a
// batch removes once at its start, are not swept one directory read per
// part.
func TestWriteWithoutSweepLeavesLeftovers(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".a.csv.5.partial"), nil, 0o644))
	o := atomicfile.Output()
	o.SweepLeftovers = false
	require.NoError(t, atomicfile.WriteBytes(filepath.Join(dir, "a.csv"), []byte("x"), o))
	assertOnly(t, dir, "a.csv", ".a.csv.5.partial")
}

// The temporary file of a write under way is no leftover: a second write
// of the same path, or RemoveLeftovers, leaves it to its writer, which
// renames it into place.
func TestSweepLeavesALiveWritersFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a file open for writing cannot be removed there")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	writing, finish := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- atomicfile.Write(path, func(w io.Writer) error {
			close(writing)
			<-finish
			_, err := io.WriteString(w, "first")
			return err
		}, atomicfile.Output())
	}()
	select {
	case <-writing:
	case <-time.After(10 * time.Second):
		t.Fatal("the first write did not start within 10 s")
	}
	removed, err := atomicfile.RemoveLeftovers(dir, []string{"book.xlsx"}, atomicfile.Output())
	require.NoError(t, err)
	assert.Empty(t, removed, "RemoveLeftovers took a live writer's file")
	require.NoError(t, atomicfile.WriteBytes(path, []byte("second"), atomicfile.Output()))
	close(finish)
	select {
	case err := <-done:
		require.NoError(t, err, "the first write's file was swept from under it")
	case <-time.After(10 * time.Second):
		t.Fatal("the first write did not end within 10 s")
	}
	assertContent(t, path, "first")
	assertOnly(t, dir, "book.xlsx")
}

// killedWriterEnv makes the test binary a writer that starts writing the
// file it names and waits to be killed.
const killedWriterEnv = "ATOMICFILE_TEST_KILLED_WRITER"

func TestMain(m *testing.M) {
	if path := os.Getenv(killedWriterEnv); path != "" {
		_ = atomicfile.Write(path, func(w io.Writer) error {
			_, _ = io.WriteString(w, "half")
			fmt.Println("writing")
			time.Sleep(time.Minute)
			return nil
		}, atomicfile.Output())
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// A writer killed with SIGKILL leaves its temporary file, with its lock
// gone: the next write of the path removes it.
func TestKilledWritersLeftoverIsSwept(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killedWriterEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line := make([]byte, len("writing\n"))
	_, err = io.ReadFull(out, line)
	require.NoError(t, err, "the writer did not start")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Regexp(t, `^\.book\.xlsx\.[0-9]+\.partial$`, entries[0].Name(), "what the killed writer left")

	require.NoError(t, atomicfile.WriteBytes(path, []byte("whole"), atomicfile.Output()))
	assertContent(t, path, "whole")
	assertOnly(t, dir, "book.xlsx")
}

// NoFollow refuses a symbolic link at the path with an error matching
// ErrSymlink: the file it points to is left as it was, and no temporary
// file stays. Without it the link is followed (TestWriteFollowsSymlinks).
func TestNoFollowRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.xlsx")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o644))
	for name, target := range map[string]string{"to a file": real, "dangling": filepath.Join(dir, "none"), "to a device": os.DevNull} {
		t.Run(name, func(t *testing.T) {
			link := filepath.Join(t.TempDir(), "link.xlsx")
			if err := os.Symlink(target, link); err != nil {
				t.Skip("no symbolic links:", err)
			}
			o := atomicfile.Output()
			o.NoFollow = true
			err := atomicfile.WriteBytes(link, []byte("new"), o)
			require.ErrorIs(t, err, atomicfile.ErrSymlink)
			assert.Equal(t, link+" is a symbolic link, and writing through one is refused (it points to "+target+"): write to the file itself, or remove the link", err.Error())
			assertContent(t, real, "old")
			assertOnly(t, filepath.Dir(link), "link.xlsx")
			info, err := os.Lstat(link)
			require.NoError(t, err)
			assert.Equal(t, fs.ModeSymlink, info.Mode().Type(), "the link stays")
		})
	}
	o := atomicfile.Output()
	o.NoFollow = true
	require.NoError(t, atomicfile.WriteBytes(real, []byte("new"), o), "a file that is no link")
	assertContent(t, real, "new")
}

// An error of the file system names the path the caller gave, never the
// temporary file it did not: "open nodir/.x.xlsx.2342076590.partial: no
// such file or directory" was what a write into a missing directory said.
func TestErrorsNameThePathNotTheTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nodir", "x.xlsx")
	err := atomicfile.WriteBytes(path, []byte("x"), atomicfile.Output())
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "create "+path+": no such file or directory", err.Error())

	path = filepath.Join(dir, "x.xlsx")
	for _, op := range []string{atomicfiletest.Create, atomicfiletest.Write, atomicfiletest.Sync, atomicfiletest.Close, atomicfiletest.Rename} {
		o := atomicfile.Output()
		o.FS = &atomicfiletest.Recorder{Fail: op}
		err := atomicfile.WriteBytes(path, []byte("x"), o)
		require.ErrorIs(t, err, atomicfiletest.ErrInjected, op)
		var pe *fs.PathError
		require.True(t, errors.As(err, &pe), "%s: %v", op, err)
		assert.Equal(t, path, pe.Path, op)
		assert.NotContains(t, err.Error(), ".partial", op)
		assert.True(t, strings.HasSuffix(err.Error(), path+": "+atomicfiletest.ErrInjected.Error()), "%s: %v", op, err)
	}
}
