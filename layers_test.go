package scmgo_test

import (
	"context"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
	"time"
)

const module = "github.com/scmodel/scmgo"

// layer is what a package of the module is to the others: the runtime the
// SDK links, a generator or project tool, or a helper of tests.
type layer string

const (
	runtimeLayer  layer = "runtime"
	toolLayer     layer = "generator or tool"  // tools/...
	testkitLayer  layer = "test helper"        // internal/testkit/..., and the xxxtest packages beside what they help test
	commandsLayer layer = "command (a main)"   // may link anything
	otherModule   layer = "not of this module" // the standard library and dependencies
)

// layerOf places a package by its path and its name.
func layerOf(path, name string) layer {
	switch {
	case path != module && !strings.HasPrefix(path, module+"/"):
		return otherModule
	case strings.HasPrefix(path, module+"/tools/"):
		return toolLayer
	case name == "main":
		return commandsLayer
	case strings.HasPrefix(path, module+"/internal/testkit/"), strings.HasSuffix(name, "test"):
		return testkitLayer
	}
	return runtimeLayer
}

// The folders read bottom-up as the imports go: no runtime package (one
// the SDK or a user's program links, not a main) imports a generator, a
// project tool or a test helper. Tests may import anything; go list's
// Imports leaves their imports out.
func TestRuntimeImportsNoToolNorTestHelper(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "list", "-f", `{{.ImportPath}} {{.Name}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	names := map[string]string{} // package path: name
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		names[f[0]], imports[f[0]] = f[1], f[2:]
	}
	seen := map[layer][]string{}
	for path, name := range names {
		seen[layerOf(path, name)] = append(seen[layerOf(path, name)], path)
	}
	for l, want := range map[layer]string{runtimeLayer: "internal/jsondec", toolLayer: "tools/decodegen", testkitLayer: "internal/testkit/heaptest", commandsLayer: "cmd/specdiff"} {
		if !slices.Contains(seen[l], module+"/"+want) {
			t.Fatalf("%s is not placed as a %s: the layers are read wrong (%d packages listed)", want, l, len(names))
		}
	}
	for _, path := range seen[runtimeLayer] {
		for _, imp := range imports[path] {
			if l := layerOf(imp, names[imp]); l == toolLayer || l == testkitLayer {
				t.Errorf("%s, a runtime package, imports %s, a %s: move what it needs into a runtime package (internal/, outside internal/testkit)",
					strings.TrimPrefix(path, module+"/"), strings.TrimPrefix(imp, module+"/"), l)
			}
		}
	}
}

// Every package is named as its folder, in every module of the repository
// (a main excepted): an import reads as the package it brings, with no
// alias to learn.
func TestEveryFolderIsItsPackagesName(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	mods, err := exec.CommandContext(ctx, "git", "ls-files", "--cached", "--others", "--exclude-standard", "go.mod", "**/go.mod").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for mod := range strings.Lines(string(mods)) {
		dir := path.Dir(strings.TrimSpace(mod))
		cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f", "{{.ImportPath}} {{.Name}}", "./...")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list in %s: %v", dir, err)
		}
		for line := range strings.Lines(string(out)) {
			f := strings.Fields(line)
			if len(f) == 2 && f[1] != "main" && path.Base(f[0]) != f[1] {
				t.Errorf("%s (module folder %s): package %s lives in a folder named %s; name the folder as the package", f[0], dir, f[1], path.Base(f[0]))
			}
		}
	}
}
