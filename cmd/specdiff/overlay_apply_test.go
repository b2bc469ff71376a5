package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// realSpecFindings are findings of every kind the overlay fixes about
// api/openapi.yaml, on models and properties picked from the spec (so the
// test follows the spec as it changes): a model with two required typed
// properties loses one and has the other retyped, gets an unknown object
// field, and a string enumeration gets a value.
func realSpecFindings(t *testing.T) []report.Finding {
	t.Helper()
	s, err := specdoc.Load(specPath)
	if err != nil {
		t.Fatal(err)
	}
	schemas := s.Doc.Components.Schemas
	var fs []report.Finding
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		m := schemas[name]
		var typed []string
		for _, p := range m.Value.Required {
			if prop := m.Value.Properties[p]; prop != nil && prop.Ref == "" && (prop.Value.Type.Is("string") || prop.Value.Type.Is("integer")) && len(prop.Value.Enum) == 0 {
				typed = append(typed, p)
			}
		}
		if fs == nil && len(typed) >= 2 {
			fs = append(fs, probeFinding("probe-missing", name+"."+typed[0]),
				with(probeFinding("probe-type", name+"."+typed[1]), func(f *report.Finding) { f.JSONType = "boolean" }),
				with(probeFinding("probe-unknown-field", name+".observedExtra"), func(f *report.Finding) { f.JSONType = "object" }))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		if v := schemas[name].Value; v.Type.Is("string") && len(v.Enum) > 0 {
			fs = append(fs, report.Finding{Kind: "probe-enum", Operation: "getX", Path: name, Detail: name + ": QUANTUM", Drift: true,
				Model: name, JSONType: "string", Value: json.RawMessage(`"QUANTUM"`)})
			break
		}
	}
	if len(fs) != 4 {
		t.Fatalf("the spec has no model with two required typed properties, or no string enumeration: %+v", fs)
	}
	return fs
}

// TestOverlayOfTheRealSpecAppliesAndKeepsItsLayout applies an overlay of
// each kind to a copy of api/openapi.yaml: specdiff validate passes, only
// the lines of what changed differ, and the same findings against the
// patched copy ask for nothing more.
func TestOverlayOfTheRealSpecAppliesAndKeepsItsLayout(t *testing.T) {
	t.Parallel()
	findings := writeFindings(t, realSpecFindings(t))
	code, ov, errs := makeOverlayOf(t, "-spec", specPath, "-source", testSource, findings)
	if code != exitClean || ov == nil {
		t.Fatalf("exit %d: %s", code, errs)
	}
	patched := assertOverlayApplies(t, specPath, ov)
	before, _ := os.ReadFile(specPath)
	after, _ := os.ReadFile(patched)
	if n := changedLineCount(string(before), string(after)); n == 0 || n > 30 {
		t.Errorf("%d lines changed, want a few:\n%s", n, after)
	}
	if _, err := specdoc.Load(patched); err != nil {
		t.Errorf("the patched spec does not load: %v", err)
	}
	code, again, errs := makeOverlayOf(t, "-spec", patched, "-source", testSource, findings)
	if code != exitClean || again != nil || !strings.Contains(errs, "nothing to change; no overlay written") {
		t.Errorf("the findings against the patched spec: exit %d, overlay %v:\n%s", code, again, errs)
	}
}

// changedLineCount counts lines of a not in b and of b not in a.
func changedLineCount(a, b string) int {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	n := 0
	for _, c := range count {
		n += max(c, -c)
	}
	return n
}

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
	findings := writeFindings(t, []report.Finding{probeFinding("probe-missing", "Project.name")})
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

// TestOverlayReadsReportsArraysAndStdin: a specdiff report and an array of
// findings make the same overlay; - reads stdin; without -source the marks
// name each origin.
func TestOverlayReadsReportsArraysAndStdin(t *testing.T) {
	t.Parallel()
	f := probeFinding("probe-missing", "Project.name")
	rep, _ := json.Marshal(report.JSONReport{SchemaVersion: 1, Command: "probe", Date: "2026-11-23", Results: []report.JSONResult{{Source: "https://h/api/v1", Findings: []report.Finding{f}}}})
	file := filepath.Join(t.TempDir(), "probe.json")
	mustWrite(t, file, string(rep))
	array := writeFindings(t, []report.Finding{f})
	code, out, errs := runSpecdiff(t, strings.NewReader(string(rep)), "overlay", "-spec", overlaySpec, "-", array)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	info, _ := os.Stat(array)
	mark := "a real client lists projects; specdiff probe of https://h/api/v1 on 2026-11-23; SDK drift report drift.json of " + info.ModTime().UTC().Format("2006-01-02")
	if !strings.Contains(out, "x-observed: "+mark) {
		t.Errorf("the overlay does not mark x-observed: %s:\n%s", mark, out)
	}
	_, fromReport, _ := runSpecdiff(t, nil, "overlay", "-spec", overlaySpec, "-source", testSource, file)
	_, fromArray, _ := runSpecdiff(t, nil, "overlay", "-spec", overlaySpec, "-source", testSource, array)
	if fromReport != strings.ReplaceAll(fromArray, array, file) {
		t.Errorf("a report and an array of the same finding differ:\n%s\n%s", fromReport, fromArray)
	}
}
