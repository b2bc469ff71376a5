package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/atomicfile/atomicfiletest"
)

// exportCommands are the commands that write a workbook to -o FILE, for the
// result id given.
func exportCommands(result, out string) map[string][]string {
	id, _ := strconv.ParseInt(result, 10, 64)
	page := strconv.FormatInt(id+2, 10) // the first page is experimentResultId+2
	return map[string][]string{
		"export page":      {"export", "page", result, "--page", page, "-o", out},
		"export dashboard": {"export", "dashboard", result, "-o", out},
		"call":             {"call", "exportDashboardPage", "--experimentResultId", result, "--pageId", page, "-o", out},
	}
}

// An export that fails, because the server answers 500 or the connection
// drops mid-body, leaves the file that was at -o FILE byte for byte, and no
// temporary file beside it.
func TestFailedExportKeepsTheFile(t *testing.T) {
	faults := map[string]fake.Fault{
		"server error":     {Kind: fake.FaultStatus, Status: 500, Times: 10},
		"dropped mid-body": {Kind: fake.FaultTruncate, Times: 10},
	}
	for faultName, fault := range faults {
		for _, cmdName := range []string{"export page", "export dashboard", "call"} {
			t.Run(faultName+"/"+cmdName, func(t *testing.T) {
				srv, flags := finishedRun(t)
				result := resultOf(t, flags, 103).String()
				dir := t.TempDir()
				out := filepath.Join(dir, "report.xlsx")
				require.NoError(t, os.WriteFile(out, []byte("last week's report"), 0o600))
				args := exportCommands(result, out)[cmdName]
				srv.InjectFault("exportDashboardPage", fault)
				r := scm(t, "", append(args, flags...)...)
				assert.Equal(t, exitAPI, r.code, r.stderr)
				b, err := os.ReadFile(out)
				require.NoError(t, err)
				assert.Equal(t, "last week's report", string(b))
				entries, err := os.ReadDir(dir)
				require.NoError(t, err)
				assert.Len(t, entries, 1, "no temporary file left")
			})
		}
	}
}

// An export replaces the file at -o FILE whole; a new one has mode 0644
// before the umask.
func TestExportWritesWholeFiles(t *testing.T) {
	atomicfiletest.SetUmask(t, 0)
	_, flags := finishedRun(t)
	result := resultOf(t, flags, 103).String()
	dir := t.TempDir()
	for _, name := range []string{"export page", "export dashboard", "call"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, name+".xlsx")
			args := exportCommands(result, out)[name]
			for range 2 { // new, then replaced
				r := scm(t, "", append(args, flags...)...)
				require.Equal(t, 0, r.code, r.stderr)
				book, err := excelize.OpenFile(out)
				require.NoError(t, err, "a whole workbook")
				require.NoError(t, book.Close())
			}
			assert.Equal(t, os.FileMode(0o644), fileMode(t, out))
		})
	}
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Mode().Perm()
}

// -o - writes the workbook to standard output, and no file named "-".
func TestExportToStandardOutput(t *testing.T) {
	_, flags := finishedRun(t)
	t.Chdir(t.TempDir())
	for name, args := range map[string][]string{
		"page":      {"export", "page", "5002", "--page", "5004", "-o", "-"},
		"dashboard": {"export", "dashboard", "5002", "-o", "-", "--quiet"},
	} {
		t.Run(name, func(t *testing.T) {
			r := scm(t, "", append(args, flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.True(t, strings.HasPrefix(r.stdout, "PK\x03\x04"), "a workbook (a zip) on standard output")
			assert.NoFileExists(t, "-")
		})
	}
}
