package scmgo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"
)

// cliOnlyModule is a module that only the commands and the adapters need:
// a program that imports the SDK's client packages must not find it in its
// module graph.
type cliOnlyModule struct {
	path string // the module's path, or a prefix of paths ending in "/"
	what string
}

// cliOnlyModules are what the scm command's module (cmd/scm/go.mod)
// requires and the root module's go.mod must not: with module graph
// pruning, a user's go list -m all holds every requirement of the root
// module's go.mod. OpenTelemetry's API is the otel module's too.
var cliOnlyModules = []cliOnlyModule{
	{"go.opentelemetry.io/otel/sdk", "OpenTelemetry's SDK"},
	{"go.opentelemetry.io/otel/sdk/", "OpenTelemetry's SDK"},
	{"go.opentelemetry.io/otel/exporters/", "OpenTelemetry's exporters"},
	{"go.opentelemetry.io/proto/otlp", "OTLP's protocol buffers"},
	{"google.golang.org/grpc", "gRPC"},
	{"github.com/spf13/cobra", "the command-line framework"},
	{"github.com/schollz/progressbar/", "the progress bar"},
	{"go.opentelemetry.io/otel", "OpenTelemetry's API"},
	{"go.opentelemetry.io/otel/", "OpenTelemetry"},
}

func (m cliOnlyModule) matches(path string) bool {
	if prefix, ok := strings.CutSuffix(m.path, "/"); ok {
		return strings.HasPrefix(path, prefix+"/")
	}
	return path == m.path
}

// libraryUser is a user's program: it imports the client and the result
// readers, nothing of the commands.
const libraryUser = `package main

import (
	"fmt"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/resultdata"
)

func main() {
	fmt.Println(facade.New, resultdata.Result)
}
`

// A program that imports facade and resultdata, in a module of its own
// that requires this one, finds in go list -m all none of the modules only
// the commands need.
func TestLibraryModuleGraphHoldsNoCLIModule(t *testing.T) {
	graph := libraryUserGraph(t)
	require.Contains(t, graph, "github.com/scmodel/scmgo", "the control: the user's graph holds this module")
	require.Contains(t, graph, "github.com/oapi-codegen/runtime", "the control: the user's graph holds what facade builds against")
	t.Logf("go list -m all of a program importing facade and resultdata: %d modules", len(graph))
	for _, path := range graph {
		for _, m := range cliOnlyModules {
			if m.matches(path) {
				t.Errorf("%s (%s) is in the module graph of a program that imports only facade and resultdata: it belongs in the go.mod of the module that needs it (cmd/scm, otel), not in the root go.mod (go mod why -m %s says which package of the root brings it)", path, m.what, path)
				break
			}
		}
	}
}

// Every name the check looks for is a module the scm command's module
// requires, so that no entry is misspelled into one that never matches.
func TestCLIOnlyModulesAreRequiredByTheCLI(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("cmd", "scm", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("cmd/scm/go.mod", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cliOnlyModules {
		if !slices.ContainsFunc(f.Require, func(r *modfile.Require) bool { return m.matches(r.Mod.Path) }) {
			t.Errorf("cliOnlyModules names %q (%s), which cmd/scm/go.mod does not require: correct or remove the entry", m.path, m.what)
		}
	}
}

// libraryUserGraph writes a user's module beside a copy of this module's
// go.sum (so that no checksum database is asked), requiring this module
// through a replace of the working tree, and returns the module paths of
// its go list -m all, the user's own first.
func libraryUserGraph(t *testing.T) []string {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := fmt.Sprintf("module example.com/libraryuser\n\ngo %s\n\nrequire github.com/scmodel/scmgo v0.0.0-00010101000000-000000000000\n\nreplace github.com/scmodel/scmgo => %s\n", goDirective(t), root)
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": libraryUser} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "all")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("go list -m all of the user's module did not end within 2 minutes")
	}
	if exitErr := (*exec.ExitError)(nil); errors.As(err, &exitErr) {
		t.Fatalf("go list -m all of the user's module: %v\n%s", err, exitErr.Stderr)
	}
	if err != nil {
		t.Fatalf("go list -m all of the user's module: %v", err)
	}
	var paths []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fields := strings.Fields(line); len(fields) > 0 {
			paths = append(paths, fields[0])
		}
	}
	return paths
}

// goDirective is the go directive of this module's go.mod.
func goDirective(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil || f.Go == nil {
		t.Fatalf("go.mod: no go directive (%v)", err)
	}
	return f.Go.Version
}
