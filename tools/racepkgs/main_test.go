package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStartsGoroutines(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"a go statement", "package p\nfunc f() { go func() {}() }\n", true},
		{"sync", "package p\nimport \"sync\"\nvar mu sync.Mutex\n", true},
		{"sync/atomic", "package p\nimport \"sync/atomic\"\nvar n atomic.Int64\n", true},
		{"errgroup", "package p\nimport \"golang.org/x/sync/errgroup\"\nvar g errgroup.Group\n", true},
		{"one goroutine", "package p\nimport \"strings\"\nfunc f() string { return strings.ToUpper(\"go\") }\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := startsGoroutines(dir, []string{"p.go"})
			if err != nil || got != tc.want {
				t.Errorf("startsGoroutines = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// The split of this module: the facade and the fake start goroutines, the
// spec's loader does not.
func TestSplitOfThisModule(t *testing.T) {
	pkgs, err := list([]string{"github.com/scmodel/scmgo/facade", "github.com/scmodel/scmgo/fake", "github.com/scmodel/scmgo/internal/spec"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"github.com/scmodel/scmgo/facade": true, "github.com/scmodel/scmgo/fake": true, "github.com/scmodel/scmgo/internal/spec": false}
	for _, p := range pkgs {
		got, err := startsGoroutines(p.dir, p.files)
		if err != nil || got != want[p.path] {
			t.Errorf("%s: startsGoroutines = %v, %v; want %v", p.path, got, err, want[p.path])
		}
	}
	if len(pkgs) != len(want) {
		t.Errorf("go list gave %d packages, want %d", len(pkgs), len(want))
	}
}
