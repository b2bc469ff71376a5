package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// No error names the temporary file a write goes through: a write that
// fails when the file is made, while it is written or when it is renamed
// into place names the path the user gave, and leaves no temporary file.
func TestErrorsNameTheFileNotItsTemporary(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		args  []string
		named string
		setUp func(*fake.Server)
	}{
		"made": {args: []string{"projects", "-o", filepath.Join(dir, "missing", "projects.json")}, named: filepath.Join(dir, "missing", "projects.json")},
		"written": {args: []string{"export", "page", "5002", "--page", "5004", "-o", filepath.Join(dir, "page.xlsx")}, named: filepath.Join(dir, "page.xlsx"),
			setUp: func(srv *fake.Server) {
				srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate, Times: 10})
			}},
		"renamed": {args: []string{"results", "export", "5002", "-o", filepath.Join(dir, "charts") + "/", "--quiet"},
			named: filepath.Join(dir, "charts", "Overview - Overview table 1.csv"),
			setUp: func(*fake.Server) { // a directory, not empty, where a chart's file goes: the rename fails
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "charts", "Overview - Overview table 1.csv", "x"), 0o755))
			}},
	} {
		t.Run(name, func(t *testing.T) {
			srv, flags := finishedRun(t)
			if tc.setUp != nil {
				tc.setUp(srv)
			}
			r := scm(t, "", append(tc.args, flags...)...)
			assert.Equal(t, exitAPI, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.named, "the error names the file")
			assert.NotContains(t, r.stderr, ".partial", "the error names no temporary file")
			leftovers, err := filepath.Glob(filepath.Join(filepath.Dir(tc.named), ".*.partial"))
			require.NoError(t, err)
			assert.Empty(t, leftovers, "no temporary file is left")
		})
	}
}
