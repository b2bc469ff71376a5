package dashboard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// ExportFile writes the whole workbook at path, creating its directory,
// and leaves what was there when the export fails: no partial file stays.
func TestExportFileIsWholeOrUntouched(t *testing.T) {
	srv, c := newFake(t)
	result := runSync(t, c, 10303)
	dir := filepath.Join(t.TempDir(), "out")
	path := filepath.Join(dir, "dashboard.xlsx")
	require.NoError(t, ExportFile(testCtx(t), c, result, path, nil))
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "PK\x03\x04", string(whole[:4]))

	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate, Times: 100})
	require.Error(t, ExportFile(testCtx(t), c, result, path, nil))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, whole, after, "the workbook that was there")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no partial file left")
}

// ExportFile removes what exports of its path killed before they ended
// left beside it (.dashboard.xlsx.<digits>.partial), and no other file: a
// user's file of a similar name stays. They stayed before, one per killed
// export.
func TestExportFileRemovesWhatAKilledExportLeft(t *testing.T) {
	_, c := newFake(t)
	result := runSync(t, c, 10303)
	dir := t.TempDir()
	path := filepath.Join(dir, "dashboard.xlsx")
	users := []string{".dashboard.xlsx.partial", "dashboard.xlsx.17.partial", ".dashboard.xlsx.17.partial.bak", ".dashboard.xlsx.17x.partial", ".other.xlsx.17.partial"}
	for _, name := range append(users, ".dashboard.xlsx.2342076590.partial", ".dashboard.xlsx.17.partial") {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("half a workbook"), 0o644))
	}
	require.NoError(t, ExportFile(testCtx(t), c, result, path, nil))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, append(users, "dashboard.xlsx"), names)
}

// With NoFollow, a symbolic link at the path is refused before anything is
// exported: the file it points to stays as it was. Without it, the link is
// followed.
func TestExportFileNoFollowRefusesASymlink(t *testing.T) {
	srv, c := newFake(t)
	result := runSync(t, c, 10303)
	dir := t.TempDir()
	target := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(target, []byte("mine"), 0o644))
	link := filepath.Join(dir, "dashboard.xlsx")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	err := ExportFile(testCtx(t), c, result, link, &Options{NoFollow: true})
	require.ErrorIs(t, err, ErrSymlink)
	assert.Contains(t, err.Error(), link+" is a symbolic link, and writing through one is refused (it points to "+target+")")
	assert.Zero(t, srv.Calls("exportDashboardPage"), "nothing exported")
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))

	require.NoError(t, ExportFile(testCtx(t), c, result, link, nil))
	b, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "PK\x03\x04", string(b[:4]), "followed without NoFollow")
}
