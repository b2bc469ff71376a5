package resultdata_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deps lists the packages pkg links that are not in the standard library.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.CommandContext(testCtx(t), "go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, exitErr.Stderr)
	}
	require.NoError(t, err)
	return strings.Fields(string(out))
}

// The Parquet library and the workbook library stay out of what a program
// links for less: facade links no package of either; resultdata (which
// reads workbooks itself and writes CSV and JSON Lines) none of them nor
// of what they bring beyond what facade links; only resultdata/parquetfile
// links parquet-go.
func TestHeavyLibrariesStayOut(t *testing.T) {
	const parquet, excelize = "github.com/parquet-go/parquet-go", "github.com/xuri/excelize/v2"
	require.Contains(t, deps(t, "github.com/scmodel/scmgo/resultdata/parquetfile"), parquet, "the control: parquetfile links it")
	facade := deps(t, "github.com/scmodel/scmgo/facade")
	assert.Empty(t, slices.DeleteFunc(slices.Clone(facade), func(d string) bool {
		return !strings.HasPrefix(d, "github.com/parquet-go/") && !strings.HasPrefix(d, "github.com/xuri/")
	}), "facade links parquet-go or excelize")
	heavy := slices.DeleteFunc(slices.Concat(deps(t, parquet), deps(t, excelize)), func(d string) bool { return slices.Contains(facade, d) })
	require.Contains(t, heavy, "github.com/klauspost/compress/zstd")
	var linked []string
	for _, d := range deps(t, "github.com/scmodel/scmgo/resultdata") {
		if slices.Contains(heavy, d) {
			linked = append(linked, d)
		}
	}
	assert.Empty(t, linked, "resultdata links packages of parquet-go or excelize")
}
