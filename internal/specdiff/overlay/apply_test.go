package overlay

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
	s, err := specdoc.Load(specPath, 0)
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
	ov, errs, err := makeOverlayOf(t, specPath, testSource, findings)
	if err != nil || ov == nil {
		t.Fatalf("%v: %s", err, errs)
	}
	patched := assertOverlayApplies(t, specPath, ov)
	before, _ := os.ReadFile(specPath)
	after, _ := os.ReadFile(patched)
	if n := changedLineCount(string(before), string(after)); n == 0 || n > 30 {
		t.Errorf("%d lines changed, want a few:\n%s", n, after)
	}
	if _, err := specdoc.Load(patched, 0); err != nil {
		t.Errorf("the patched spec does not load: %v", err)
	}
	again, errs, err := makeOverlayOf(t, patched, testSource, findings)
	if err != nil || again != nil || !strings.Contains(errs, "nothing to change; no overlay written") {
		t.Errorf("the findings against the patched spec: %v, overlay %v:\n%s", err, again, errs)
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

// TestOverlayReadsReportsArraysAndStdin: a specdiff report and an array of
// findings make the same overlay; - reads stdin; without -source the marks
// name each origin.
func TestOverlayReadsReportsArraysAndStdin(t *testing.T) {
	t.Parallel()
	f := probeFinding("probe-missing", "Project.name")
	rep, _ := json.Marshal(report.JSONReport{SchemaVersion: 1, Command: "probe", Date: "2026-11-23", Results: []report.JSONResult{{Source: "https://h/api/v1", Findings: []report.Finding{f}}}})
	file := filepath.Join(t.TempDir(), "probe.json")
	if err := os.WriteFile(file, rep, 0o644); err != nil {
		t.Fatal(err)
	}
	array := writeFindings(t, []report.Finding{f})
	out, errs, err := overlayText(strings.NewReader(string(rep)), overlaySpec, "", "-", array)
	if err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	info, _ := os.Stat(array)
	mark := "a real client lists projects; specdiff probe of https://h/api/v1 on 2026-11-23; SDK drift report drift.json of " + info.ModTime().UTC().Format("2006-01-02")
	if !strings.Contains(out, "x-observed: "+mark) {
		t.Errorf("the overlay does not mark x-observed: %s:\n%s", mark, out)
	}
	fromReport, _, _ := overlayText(nil, overlaySpec, testSource, file)
	fromArray, _, _ := overlayText(nil, overlaySpec, testSource, array)
	if fromReport != strings.ReplaceAll(fromArray, array, file) {
		t.Errorf("a report and an array of the same finding differ:\n%s\n%s", fromReport, fromArray)
	}
}
