package batch_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/atomicfile/atomicfiletest"
)

const exportPlan = `project: 1
output: out
items:
  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: a.xlsx}}
`

// A batch removes the temporary files a killed batch left behind, its state
// file's and its exports', and no other file.
func TestLeftoversRemoved(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(1, 1, 5))
	p := e.plan(t, exportPlan)
	out := filepath.Join(e.dir, "out")
	require.NoError(t, os.MkdirAll(out, 0o755))
	left := []string{filepath.Join(e.dir, ".plan.state.json.4021.tmp"), filepath.Join(out, ".a.xlsx.99.partial")}
	kept := []string{filepath.Join(e.dir, ".plan.state.json.tmp"), filepath.Join(e.dir, ".plan.state.json.old.tmp"),
		filepath.Join(e.dir, ".other.state.json.1.tmp"), filepath.Join(out, ".b.xlsx.1.partial"),
		filepath.Join(out, ".a.xlsx.partial"), filepath.Join(out, "a.xlsx.1.partial"), filepath.Join(out, ".a.xlsx.7.tmp")}
	for _, path := range append(left, kept...) {
		require.NoError(t, os.WriteFile(path, []byte("x"), 0o644))
	}
	sum := e.run(t, p, batch.Options{})
	require.True(t, sum.OK(), "%+v", sum.Items)
	for _, path := range left {
		assert.NoFileExists(t, path)
	}
	for _, path := range kept {
		assert.FileExists(t, path, "not a temporary file of this batch")
	}
}

// An export is written with mode 0644 before the umask.
func TestExportMode(t *testing.T) {
	atomicfiletest.SetUmask(t, 0)
	e := newEnv(t, fake.WithResultSize(1, 1, 5))
	p := e.plan(t, exportPlan)
	require.True(t, e.run(t, p, batch.Options{}).OK())
	assert.Equal(t, os.FileMode(0o644), fileMode(t, filepath.Join(e.dir, "out", "a.xlsx")))
}

// An export that fails (the connection drops mid-body, the server answers
// 500) leaves the file that was there byte for byte, and no temporary file.
func TestFailedExportKeepsTheFile(t *testing.T) {
	for name, fault := range map[string]fake.Fault{
		"truncated body": {Kind: fake.FaultTruncate, Times: 10},
		"server error":   {Kind: fake.FaultStatus, Status: 500, Times: 10},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, fake.WithResultSize(1, 1, 5))
			p := e.plan(t, exportPlan)
			out := filepath.Join(e.dir, "out")
			require.NoError(t, os.MkdirAll(out, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(out, "a.xlsx"), []byte("the previous export"), 0o600))
			e.srv.InjectFault("exportDashboardPage", fault)
			sum := e.run(t, p, batch.Options{})
			assert.Equal(t, batch.Failed, sum.Items[0].Status)
			assert.Contains(t, sum.Items[0].Error, "exporting the dashboard of result")
			b, err := os.ReadFile(filepath.Join(out, "a.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, "the previous export", string(b))
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary file left")
		})
	}
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Mode().Perm()
}
