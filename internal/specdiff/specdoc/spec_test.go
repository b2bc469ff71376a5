package specdoc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scmodel/scmgo/internal/spec"
)

// specPath is the repository's spec, which the tests of the embedded one
// read from the working tree.
const specPath = "../../../api/openapi.yaml"

// fixtures is the directory of the specs specdiff's tests read: the
// command's, whose golden files show what it prints of them.
const fixtures = "../../../cmd/specdiff/testdata"

func TestKnownOmissionsAreLastMileAndLicenseOperations(t *testing.T) {
	s, err := Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadOmissions(OmissionsFile(specPath)); err != nil {
		t.Fatal(err)
	}
	for _, op := range s.Ops {
		want := op.Tag == "Last mile optimization" || op.ID == "requestLicense" || op.ID == "dropLicense"
		if s.Omitted(op.ID) != want {
			t.Errorf("%s (tag %s): known omission %v, want %v", op.ID, op.Tag, s.Omitted(op.ID), want)
		}
	}
}

// A spec given to specdiff validate (or -spec) never panics its checks.
func FuzzCheckSpec(f *testing.F) {
	for _, name := range []string{"overlay/spec.yaml", "specs/models.yaml", "specs/bad.yaml"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{"", "openapi: 3.0.3\npaths: {/a: null}\n", "openapi: 3.0.3\ncomponents: {schemas: {A: {$ref: '#/components/schemas/A'}}}\n",
		"openapi: 3.0.3\npaths: {/a: {get: {responses: {200: null}}}}\n", "openapi: 3.0.3\nx-a: &a [*a]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = spec.CheckData("fuzz.yaml", data)
	})
}
