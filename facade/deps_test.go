package facade

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nonStandardDeps lists the packages pkg links that are not in the
// standard library (go list -deps).
func nonStandardDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, exitErr.Stderr)
	}
	require.NoError(t, err, "go list -deps %s", pkg)
	return strings.Fields(string(out))
}

// A program that imports only facade links no workbook library: neither
// excelize nor any package excelize brings (merging dashboard pages lives
// in package dashboard).
func TestFacadeLinksNoWorkbookLibrary(t *testing.T) {
	const excelize = "github.com/xuri/excelize/v2"
	workbook := nonStandardDeps(t, excelize)
	require.Contains(t, workbook, excelize)
	require.Contains(t, nonStandardDeps(t, "github.com/scmodel/scmgo/dashboard"), excelize, "the control: dashboard links it")
	deps := nonStandardDeps(t, "github.com/scmodel/scmgo/facade")
	require.Contains(t, deps, "github.com/scmodel/scmgo/gen")
	var linked []string
	for _, d := range deps {
		if slices.Contains(workbook, d) {
			linked = append(linked, d)
		}
	}
	assert.Empty(t, linked, "facade links packages of the workbook library")
}
