package facade

import (
	"errors"
	"os"
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
	return nonStandardDepsIn(t, "", pkg)
}

// nonStandardDepsIn is nonStandardDeps of a package of the module in dir,
// built alone (GOWORK=off); "" is this module.
func nonStandardDepsIn(t *testing.T, dir, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
	if dir != "" {
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOWORK=off")
	}
	out, err := cmd.Output()
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

// A program that imports only facade links nothing of OpenTelemetry: the
// spans and metrics are made by the module github.com/scmodel/scmgo/scmotel,
// through the Observer hook.
func TestFacadeLinksNoOpenTelemetry(t *testing.T) {
	const otel = "go.opentelemetry.io/"
	hasOTel := func(deps []string) bool {
		return slices.ContainsFunc(deps, func(d string) bool { return strings.HasPrefix(d, otel) })
	}
	require.True(t, hasOTel(nonStandardDepsIn(t, "../scmotel", "github.com/scmodel/scmgo/scmotel")), "the control: the adapter links it")
	for _, pkg := range []string{"github.com/scmodel/scmgo/facade", "github.com/scmodel/scmgo/dashboard", "github.com/scmodel/scmgo/batch"} {
		var linked []string
		for _, d := range nonStandardDeps(t, pkg) {
			if strings.HasPrefix(d, otel) {
				linked = append(linked, d)
			}
		}
		assert.Empty(t, linked, "%s links OpenTelemetry", pkg)
	}
}
