package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validate -q prints nothing for a spec without problems, as make generate
// runs it, and the problems with their lines for one with problems.
func TestValidateQuietPrintsOnlyProblems(t *testing.T) {
	t.Parallel()
	code, out, errs := runSpecdiff(t, nil, "validate", "-q", "-spec", specPath)
	if code != exitClean || out != "" || errs != "" {
		t.Errorf("valid spec: exit %d, output %q, stderr %q; want exit 0 and nothing printed", code, out, errs)
	}
	code, out, _ = runSpecdiff(t, nil, "validate", "-q", "-spec", "testdata/specs/bad.yaml")
	if code != exitDrift || !strings.Contains(out, "[testdata/specs/bad.yaml:") {
		t.Errorf("bad spec: exit %d, want %d and the problems with their lines:\n%s", code, exitDrift, out)
	}
}

// validate reads the spec as validators that ignore the discriminator do:
// a oneOf whose variants only the discriminator tells apart and an example
// that breaks plain JSON Schema rules are problems, each with its line.
func TestValidateFindsABrokenOneOfAndAWrongExample(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, edit := range [][2]string{
		{"          enum: [ApiExperimentResultTableChartWrapper]\n", ""},
		{`example: {"status": "DONE", "scenarioId": 1207, "error": null}`, `example: {"status": "DONE", "scenarioId": null, "error": null}`},
	} {
		if !strings.Contains(text, edit[0]) {
			t.Fatalf("the spec has no %q", edit[0])
		}
		text = strings.Replace(text, edit[0], edit[1], 1)
	}
	path := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runSpecdiff(t, nil, "validate", "-spec", path)
	if code != exitDrift {
		t.Errorf("exit %d, want %d", code, exitDrift)
	}
	for _, want := range []string{
		"spec-one-of", "variant ApiExperimentResultTableChartWrapper does not declare className as a one-value enum",
		"spec-example", "getImportStatus responses.200 example: does not validate strictly against its schema: at /scenarioId: Value is not nullable",
		"getExperimentRunResult responses.200 example", "[" + path + ":",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
