package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overlaySpec is the small spec of the overlay tests (package overlay's
// tests change it in every way; these run the command on it).
const overlaySpec = "testdata/overlay/spec.yaml"

// TestOverlayApplyRewritesTheRepositorySpecInPlace runs overlay apply
// without -spec in a directory below a copy of the repository's root: it
// changes that api/openapi.yaml, keeping its mode, and nothing else.
func TestOverlayApplyRewritesTheRepositorySpecInPlace(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "go.mod"), "module github.com/scmodel/scmgo\n\ngo 1.26.0\n")
	spec, err := os.ReadFile(overlaySpec)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "api", "openapi.yaml"), string(spec))
	if err := os.Chmod(filepath.Join(root, "api", "openapi.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(root, "fix.yaml")
	mustWrite(t, ov, "overlay: 1.1.0\ninfo: {title: t, version: '1'}\nactions:\n- target: $.components.schemas.State.enum\n  update: [ARCHIVED]\n")
	t.Chdir(filepath.Join(root, "api"))
	code, out, errs := runSpecdiff(t, nil, "overlay", "apply", ov)
	if code != exitClean || !strings.Contains(out, "wrote "+filepath.Join(root, "api", "openapi.yaml")+"; it passes specdiff validate") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	got, _ := os.ReadFile(filepath.Join(root, "api", "openapi.yaml"))
	want := strings.Replace(string(spec), "enum: [OPEN, CLOSED]", "enum: [OPEN, CLOSED, ARCHIVED]", 1)
	if string(got) != want {
		t.Errorf("the spec is now:\n%s", got)
	}
	if info, err := os.Stat(filepath.Join(root, "api", "openapi.yaml")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the spec's mode is %v (%v), want it kept at 0600", info.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "api"))
	if len(entries) != 1 {
		t.Errorf("api/ holds %d files, want the spec alone (no temporary file left)", len(entries))
	}
}

func mustWrite(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOverlayBadInputExitsTwoNamingIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notJSON, object, unmatched, invalid := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.yaml"), filepath.Join(dir, "d.yaml")
	mustWrite(t, notJSON, "kind: probe-missing\n")
	mustWrite(t, object, `{"kind": "probe-missing"}`)
	mustWrite(t, unmatched, "overlay: 1.1.0\ninfo: {title: t, version: '1'}\nactions:\n- target: $.components.schemas.Nowhere\n  update: {x-observed: t}\n")
	mustWrite(t, invalid, "overlay: 9.9.9\ninfo: {title: t, version: '1'}\nactions: []\n")
	findings := filepath.Join(dir, "drift.json")
	mustWrite(t, findings, `[{"kind":"probe-missing","operation":"getProjects","detail":"Project.name differs","path":"Project.name","drift":true,"model":"Project","property":"name"}]`)
	tests := map[string]struct {
		args []string
		want string
	}{
		"no findings file":      {[]string{"overlay"}, "no findings file given"},
		"not JSON":              {[]string{"overlay", notJSON}, notJSON + ": not JSON"},
		"an object, no report":  {[]string{"overlay", object}, object + ": a JSON object without command and results"},
		"a missing file":        {[]string{"overlay", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		"a two-line source":     {[]string{"overlay", "-source", "a\nb", findings}, "-source \"a\\nb\": want one line"},
		"apply, two overlays":   {[]string{"overlay", "apply", "-spec", overlaySpec, unmatched, invalid}, "want one OVERLAY file"},
		"apply, no match":       {[]string{"overlay", "apply", "-spec", overlaySpec, "-o", filepath.Join(dir, "out.yaml"), unmatched}, `selector "$.components.schemas.Nowhere" did not match any targets`},
		"apply, a bad overlay":  {[]string{"overlay", "apply", "-spec", overlaySpec, "-o", filepath.Join(dir, "out.yaml"), invalid}, invalid + ": overlay version must be one of"},
		"apply, a missing spec": {[]string{"overlay", "apply", "-spec", filepath.Join(dir, "none.yaml"), unmatched}, "none.yaml: no such file"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runSpecdiff(t, nil, tc.args...)
			if code != exitError || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d); stderr lacks %q:\n%s%s", code, exitError, tc.want, out, errs)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out.yaml")); err == nil {
		t.Error("a failed apply wrote its output")
	}
}
