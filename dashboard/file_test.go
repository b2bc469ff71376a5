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
