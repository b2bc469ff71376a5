package overlay

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/probe"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// fixtureServer answers the two operations of the overlay fixture spec with
// the given JSON bodies, under /api/v1.
func fixtureServer(t *testing.T, projects, options string) string {
	t.Helper()
	mux := http.NewServeMux()
	for path, body := range map[string]string{"/api/v1/open/project/list": projects, "/api/v1/open/options": options} {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v1"
}

// driftingProjects differ from the fixture spec in every way the overlay
// fixes: id a string, created not a date-time, name renamed to title in
// one project and null in the other, an unknown boolean and an unknown
// nested object, values outside both enumerations.
const driftingProjects = `[
 {"id": "7", "title": "P", "state": "ARCHIVED", "created": "yesterday", "archived": true,
  "owner": {"userId": 5, "kind": "TEAM", "extra": {"a": 1}}},
 {"id": "8", "name": null, "state": "OPEN"}]`

const driftingOptions = `{"total": 3, "options": ["a"], "more": true}`

// TestOverlayFromAProbeMakesTheProbeClean probes a server that drifts from
// the fixture spec, checks the structured fields of the findings, turns the
// probe's report into an overlay, applies it to a copy of the spec, and
// probes again against the patched copy: no drift is left.
func TestOverlayFromAProbeMakesTheProbeClean(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t, driftingProjects, driftingOptions)
	rep := probeOf(t, overlaySpec, base)
	if code := rep.ExitCode(); code != report.ExitDrift {
		t.Fatalf("probe: exit %d, want %d: %+v", code, report.ExitDrift, rep.Results)
	}
	var out strings.Builder
	if err := report.Write(&out, "json", rep); err != nil {
		t.Fatal(err)
	}
	reportFile := filepath.Join(t.TempDir(), "probe.json")
	if err := os.WriteFile(reportFile, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	assertStructuredFields(t, out.String())
	ov, errs, err := makeOverlayOf(t, overlaySpec, "", reportFile)
	if err != nil || ov == nil {
		t.Fatalf("overlay: %v: %s", err, errs)
	}
	source := fmt.Sprintf("specdiff probe of %s on %s", base, time.Now().UTC().Format(time.DateOnly))
	text, _ := ov.ToString()
	if !strings.Contains(text, "x-observed: "+source) {
		t.Errorf("the overlay does not mark x-observed: %s:\n%s", source, text)
	}
	patched := assertOverlayApplies(t, overlaySpec, ov)
	if rep := probeOf(t, patched, base); rep.ExitCode() != report.ExitClean {
		t.Errorf("probe of the patched spec: exit %d, want %d:\n%+v", rep.ExitCode(), report.ExitClean, rep.Results)
	}
}

// probeOf probes the server at base against specFile with the default
// limits, within a minute.
func probeOf(t *testing.T, specFile, base string) report.Report {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rep, err := probe.Run(ctx, specFile, probe.Server{Base: u, Client: &http.Client{}}, probe.DefaultLimits())
	if err != nil {
		t.Fatalf("probe of %s: %v (within 1m)", base, err)
	}
	return rep
}

// assertStructuredFields checks that each probe finding carries the model,
// property and what the answer had, as a tool reads them.
func assertStructuredFields(t *testing.T, probeReport string) {
	t.Helper()
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(probeReport), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Results[0].Findings {
		if f.Drift {
			got[f.Kind+" "+f.Path] = fmt.Sprintf("model=%s property=%s jsonType=%s specType=%s value=%s renamedTo=%s",
				f.Model, f.Property, f.JSONType, f.SpecType, f.Value, f.RenamedTo)
		}
	}
	want := map[string]string{
		"probe-type Project.id":                            "model=Project property=id jsonType=string specType=integer value= renamedTo=",
		"probe-type Project.created":                       "model=Project property=created jsonType=string specType=string value= renamedTo=",
		"probe-renamed Project.name":                       "model=Project property=name jsonType=string specType= value= renamedTo=title",
		"probe-null Project.name":                          "model=Project property=name jsonType=null specType= value= renamedTo=",
		"probe-unknown-field Project.archived":             "model=Project property=archived jsonType=boolean specType= value= renamedTo=",
		"probe-unknown-field Project.owner.extra":          "model=Project property=owner.extra jsonType=object specType= value= renamedTo=",
		"probe-enum Project.state":                         `model=Project property=state jsonType=string specType= value="ARCHIVED" renamedTo=`,
		"probe-enum Project.owner.kind":                    `model=Project property=owner.kind jsonType=string specType= value="TEAM" renamedTo=`,
		"probe-unknown-field getOptions 200 response.more": "model= property=more jsonType=boolean specType= value= renamedTo=",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, cmp.Or(got[k], "no finding"), w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected finding %s: %s", k, got[k])
		}
	}
}
