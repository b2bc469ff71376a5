package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plan file is the user's: a malformed one is an error naming it, never
// a panic.
func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{onePlan, "", "project: 1\n", "project: 1\nitems: null\n", "project: 1\nitems: [null]\n",
		"project: x\nitems:\n  - {name: a, workbook: a.xlsx, scenarioName: A, experiment: SIMULATION, export: {dashboard: a.xlsx}}\n",
		"project: 1\noutput: out\nitems:\n  - {name: a, scenario: 101, experiment: GFA, tables: [Sites], export: {results: r.csv}}\n  - {name: a, scenario: 102, experiment: GFA}\n",
		"project: 1\nitems:\n  - &a {name: a, scenario: 101, experiment: GFA}\n  - *a\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePlan("plan.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "plan.yaml") {
				t.Fatalf("the error does not name the plan: %v", err)
			}
			return
		}
		for _, it := range p.Items {
			_ = it.Digest()
		}
	})
}

// A state file is read back from disk, where anything may have happened
// to it: one that is accepted has a state for every item of the plan, and
// one that is refused is an error naming it, never a panic.
func FuzzStateFile(f *testing.F) {
	for _, s := range []string{"", " ", "{}", "null", `{"version":1,"items":null}`, `{"version":1,"items":{}}`,
		`{"version":1,"plan":"plan.yaml","items":{"a":{"digest":"x","status":"done","jobId":7}}}`,
		`{"version":1,"items":{"a":null}}`, `{"version":2,"items":{}}`, `{"version":1,"items":[]}`, `{"version":"1","items":{"a":{"status":7}}}`,
		`{"version":1,"items":{"a":{"digest":"x","status":"done"},"a":{"status":"pending"}}}`, `{"version":1,"Version":1,"items":{}}`,
		`{"version":1,"later":{"x":[1,{"y":2}]},"items":{"a":{"status":"pending","more":true,"data":{"file":"f","extra":1}}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p, err := ParsePlan(filepath.Join(dir, "plan.yaml"), []byte(onePlan))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p.StatePath(), data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := openStore(p.StatePath(), p)
		if err != nil {
			if !strings.Contains(err.Error(), p.StatePath()) {
				t.Fatalf("the error does not name the state file: %v", err)
			}
			return
		}
		for _, it := range p.Items {
			if s.data.Items[it.Name] == nil {
				t.Fatalf("item %s has no state", it.Name)
			}
		}
		// What is accepted is written back, with the fields kept, as a
		// state accepted again.
		if err := s.flush(); err != nil {
			t.Fatalf("writing back an accepted state: %v", err)
		}
		if _, err := openStore(p.StatePath(), p); err != nil {
			t.Fatalf("the state written back is refused: %v", err)
		}
	})
}
