package main

import (
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
