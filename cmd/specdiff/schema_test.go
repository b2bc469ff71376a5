package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// TestSchemaDriftIsNamedWithItsPath checks that every planted schema drift
// of models-drift.yaml is reported once, with the model and property path,
// and nothing else: a renamed, retyped, removed, newly required property
// and an added enumeration value among them.
func TestSchemaDriftIsNamedWithItsPath(t *testing.T) {
	code, out, errs := runSpecdiff(t, nil, "-spec", modelsSpec, "-o", "json", "testdata/listings/models-drift.yaml")
	if code != exitDrift {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitDrift, errs)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	type key struct{ kind, op, path string }
	want := map[key]bool{
		{"property-renamed", "getProjects", "ApiProjectResponse.projectId"}:        true,
		{"property-type", "getProjects", "ApiProjectResponse.open"}:                true,
		{"property-removed", "getProjects", "ApiProjectResponse.description"}:      true,
		{"property-required", "getScenarios", "ApiScenarioData.description"}:       true,
		{"enum-added", "getScenarios", "ApiScenarioData.type"}:                     true,
		{"enum-added", "getScenarios", ""}:                                         true, // the scenarioType parameter
		{"enum-removed", "getScenarios", "ApiScenarioData.tags[]"}:                 true,
		{"property-type", "getScenarios", "ApiTableMeta.rowCount"}:                 true,
		{"property-added", "getScenarios", "ApiTableMeta.columns"}:                 true,
		{"response-media-type", "getScenarios", ""}:                                true,
		{"enum-added", "getImportStatus", "ApiImportScenarioStatus.status"}:        true,
		{"enum-removed", "getImportStatus", "ApiImportScenarioStatus.status"}:      true,
		{"property-nullable", "getImportStatus", "ApiImportScenarioStatus.error"}:  true,
		{"property-type", "createVariation", "ApiVariationCreateRequest.values[]"}: true,
	}
	got := map[key]bool{}
	for _, f := range rep.Results[0].Findings {
		k := key{f.Kind, f.Operation, f.Path}
		if got[k] {
			t.Errorf("reported twice: %+v", f)
		}
		got[k] = true
		if !want[k] {
			t.Errorf("unexpected finding %+v", f)
		}
		if f.Path != "" && !containsPath(f.Detail, f.Path) {
			t.Errorf("detail %q does not name the path %s", f.Detail, f.Path)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing %+v", k)
		}
	}
}

func containsPath(detail, path string) bool {
	return strings.HasPrefix(detail, path)
}

// TestSchemaDiffOfTheSpecWithItselfIsClean guards against findings that
// come from the pairing itself rather than from the documents.
func TestSchemaDiffOfTheSpecWithItselfIsClean(t *testing.T) {
	for _, spec := range []string{specPath, modelsSpec} {
		code, out, errs := runSpecdiff(t, nil, "-spec", spec, spec)
		if code != exitClean {
			t.Errorf("%s vs itself: exit %d; stderr %s\n%s", spec, code, errs, out)
		}
	}
}
