package diff

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// specPath is the repository's spec.
const specPath = "../../../api/openapi.yaml"

// fixtures is the directory of the listings and specs specdiff's tests
// read: the command's, whose golden files show what it prints of them.
const fixtures = "../../../cmd/specdiff/testdata"

// referenceSpec is a copy of api/openapi.yaml with the reference's
// operations, from which the listings of the fixtures were made: the tests
// of listings compare with it, so that their findings do not follow every
// change of api/openapi.yaml.
var referenceSpec = filepath.Join(fixtures, "reference", "openapi.yaml")

// modelsSpec is a small spec of its own for the schema-level diff.
var modelsSpec = filepath.Join(fixtures, "specs", "models.yaml")

// diffFile diffs one listing of the fixtures against spec, as specdiff
// does, within 10 seconds.
func diffFile(t *testing.T, spec, name string) report.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	rep, err := Run(ctx, Options{Spec: spec, Format: listing.FormatAuto, Listings: []string{filepath.Join(fixtures, "listings", name)},
		Fetcher: fetch.Fetcher{Client: &http.Client{}}, Notes: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// kindCounts maps each kind in the report to operation -> findings.
func kindCounts(rep report.Report) map[string]map[string]int {
	got := map[string]map[string]int{}
	for _, r := range rep.Results {
		for _, f := range r.Findings {
			if got[f.Kind] == nil {
				got[f.Kind] = map[string]int{}
			}
			got[f.Kind][f.Operation]++
		}
	}
	return got
}

func assertKinds(t *testing.T, got, want map[string]map[string]int) {
	t.Helper()
	for k, ops := range want {
		for op, n := range ops {
			if got[k][op] != n {
				t.Errorf("%s %s: %d findings, want %d", k, op, got[k][op], n)
			}
		}
	}
	for k, ops := range got {
		for op, n := range ops {
			if want[k][op] == 0 {
				t.Errorf("unexpected %s %s (x%d)", k, op, n)
			}
		}
	}
}

func TestCamelListingReportsEachPlantedDriftOnce(t *testing.T) {
	rep := diffFile(t, referenceSpec, "camel-drift.txt")
	if code := rep.ExitCode(); code != report.ExitDrift {
		t.Errorf("exit %d, want %d", code, report.ExitDrift)
	}
	assertKinds(t, kindCounts(rep), map[string]map[string]int{
		"missing-in-listing":   {"getProjects": 1},
		"extra-in-listing":     {"getProjectStatistics": 1, "archiveProject": 1},
		"duplicate-in-listing": {"closeProject": 1},
		"method-path-mismatch": {"openProject": 1, "getScenarios": 1},
		"name-mismatch":        {"getExperimentRunsForScenario": 1},
	})
}

func TestOpenAPIListingReportsEachPlantedDriftOnce(t *testing.T) {
	rep := diffFile(t, referenceSpec, "drift-openapi.yaml")
	if code := rep.ExitCode(); code != report.ExitDrift {
		t.Errorf("exit %d, want %d", code, report.ExitDrift)
	}
	assertKinds(t, kindCounts(rep), map[string]map[string]int{
		"missing-in-listing":  {"translate": 1},
		"known-omission":      {"dropLicense": 1},
		"param-missing":       {"findAndOpenProjectByName": 1},
		"param-extra":         {"getProjects": 1},
		"param-required":      {"openProject": 1},
		"param-type":          {"getScenarios": 1},
		"param-location":      {"removeScenarioById": 1},
		"param-default":       {"getExperimentDashboardPage": 1},
		"enum-added":          {"getExperiment": 1},
		"enum-removed":        {"copyScenario": 1},
		"request-media-type":  {"importScenario": 1},
		"response-media-type": {"exportDashboardPage": 1},
		"security":            {"getCurrentUser": 1},
	})
}

func TestSnakeListingOmittingKnownOmissionsIsClean(t *testing.T) {
	rep := diffFile(t, referenceSpec, "snake-omissions.md")
	if code := rep.ExitCode(); code != report.ExitClean {
		t.Fatalf("exit %d; want a clean run: %+v", code, rep.Results)
	}
	s, err := specdoc.Load(referenceSpec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadOmissions(specdoc.OmissionsFile(referenceSpec)); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]int{"known-omission": {}}
	for _, op := range s.Ops {
		if s.Omitted(op.ID) {
			want["known-omission"][op.ID] = 1
		}
	}
	if len(want["known-omission"]) != 15 {
		t.Errorf("known-omissions.yaml names %d operations, want 13 last mile and 2 license", len(want["known-omission"]))
	}
	assertKinds(t, kindCounts(rep), want)
}
