package diff

import (
	"os"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// TestSchemaDriftIsNamedWithItsPath checks that every planted schema drift
// of models-drift.yaml is reported once, with the model and property path,
// and nothing else: a renamed, retyped, removed, newly required property
// and an added enumeration value among them.
func TestSchemaDriftIsNamedWithItsPath(t *testing.T) {
	rep := diffFile(t, modelsSpec, "models-drift.yaml")
	if code := rep.ExitCode(); code != report.ExitDrift {
		t.Fatalf("exit %d, want %d", code, report.ExitDrift)
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
		s, err := specdoc.Load(spec, 0)
		if err == nil {
			err = s.LoadOmissions("")
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		l, err := listing.Parse(spec, spec, data, listing.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		findings, err := Listing(s, l)
		if err != nil || len(findings) > 0 {
			t.Errorf("%s vs itself: %v, findings %+v", spec, err, findings)
		}
	}
}
