package facadetags

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// fixtures is the directory of the specs and facade packages specdiff's
// tests read: the command's, whose golden files show what it prints.
const fixtures = "../../../cmd/specdiff/testdata"

// Each planted mistake of the drifting facade is one finding of its kind,
// on the operation it is about; the complete facade has none.
func TestCheckNamesEachPlantedTagOnce(t *testing.T) {
	spec := filepath.Join(fixtures, "reference", "openapi.yaml")
	for dir, want := range map[string][]string{
		"complete": nil,
		"drift": {"facade-missing getProjects", "facade-duplicate openProject", "facade-unknown getProjectStatistics",
			"facade-unknown get_scenarios", "facade-stray dropLicense", "facade-stray getCurrentUser", "facade-stray translate"},
	} {
		rep, err := Check(spec, filepath.Join(fixtures, "facade", dir), 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range rep.Results[0].Findings {
			got = append(got, f.Kind+" "+f.Operation)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: findings %q, want %q", dir, got, want)
		}
		if code := rep.ExitCode(); (code == report.ExitDrift) != (len(want) > 0) {
			t.Errorf("%s: exit %d", dir, code)
		}
	}
}

// A directory without Go files is an error, not a facade with every
// operation missing.
func TestCheckRefusesADirectoryWithoutGoFiles(t *testing.T) {
	if _, err := Check(filepath.Join(fixtures, "reference", "openapi.yaml"), t.TempDir(), 0); err == nil {
		t.Error("no error for a directory without Go files")
	}
}
