package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// modelDrift changes, in every 2xx JSON answer of an operation whose
// response is the model (or a list of it), each object of the model.
type modelDrift struct {
	model  string
	mutate func(item map[string]any)
}

// driftingServer serves the fake (fake.NewServer) behind a proxy that
// applies the drifts to its answers, as a server whose models changed.
func driftingServer(t *testing.T, s *specdoc.Spec, fk *fake.Server, drifts []modelDrift) string {
	t.Helper()
	target, err := url.Parse(strings.TrimSuffix(fk.URL, fake.BasePath))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		i, ok := s.RouteIndex(resp.Request.Method, strings.TrimPrefix(resp.Request.URL.Path, fake.BasePath))
		if !ok || resp.StatusCode/100 != 2 || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			return nil
		}
		var mutates []func(map[string]any)
		for _, d := range drifts {
			if s.Ops[i].Response.Schema == d.model {
				mutates = append(mutates, d.mutate)
			}
		}
		if len(mutates) == 0 {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		body = rewriteAll(t, body, mutates)
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL + fake.BasePath
}

// rewriteAll applies the mutations to the answer object, or to each item
// of the answer list.
func rewriteAll(t *testing.T, body []byte, mutates []func(map[string]any)) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Errorf("drifting: %v", err)
		return body
	}
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			for _, mutate := range mutates {
				mutate(m)
			}
		}
	}
	out, _ := json.Marshal(v)
	return out
}

// plannedDrift is what the end-to-end test plants and what the probe must
// then report: an unknown object field, a retyped field and a dropped
// required field of the project model, a value outside the scenario
// model's enumeration. The fields come from the spec, not from names
// written here, so the test follows the spec as it changes.
type plannedDrift struct {
	drifts []modelDrift
	want   map[string]bool // "kind path"
	check  []*regexp.Regexp
}

func planDrift(t *testing.T, s *specdoc.Spec) plannedDrift {
	t.Helper()
	projects, scenarios := responseModel(t, s, "getProjects"), responseModel(t, s, "getScenarios")
	dropped := firstName(projects.Model, func(n string, p *openapi3.Schema) bool {
		return slices.Contains(projects.Model.Required, n) && !isIDField(n)
	})
	retyped := firstName(projects.Model, func(n string, p *openapi3.Schema) bool {
		return p.Type.Is("string") && len(p.Enum) == 0 && n != dropped && !isIDField(n)
	})
	enumField := firstName(scenarios.Model, func(n string, p *openapi3.Schema) bool {
		return len(p.Enum) > 0 && p.Type.Is("string") && !isIDField(n)
	})
	if dropped == "" || retyped == "" || enumField == "" {
		t.Fatalf("no fields to plant on: drop %q, retype %q, enumeration %q", dropped, retyped, enumField)
	}
	return plannedDrift{
		drifts: []modelDrift{
			{projects.Name, func(m map[string]any) {
				delete(m, dropped)
				m["probeExtra"] = map[string]any{"seen": true}
				m[retyped] = 12345
			}},
			{scenarios.Name, func(m map[string]any) { m[enumField] = "QUANTUM" }},
		},
		want: map[string]bool{
			"probe-missing " + projects.Name + "." + dropped:       true,
			"probe-unknown-field " + projects.Name + ".probeExtra": true,
			"probe-type " + projects.Name + "." + retyped:          true,
			"probe-enum " + scenarios.Name + "." + enumField:       true,
		},
		// What the regenerated models must show: the new field, the
		// retyped one as an integer, the new enumeration value.
		check: []*regexp.Regexp{
			regexp.MustCompile(`ProbeExtra +\*struct \{|ProbeExtra +\*map\[string\]RawJSON`),
			regexp.MustCompile(`(?i)` + regexp.QuoteMeta(retyped) + ` +\*?int64 +` + "`json:\"" + regexp.QuoteMeta(retyped)),
			regexp.MustCompile(`QUANTUM +\w+ = "QUANTUM"`),
		},
	}
}

// model is a model of the spec, by name.
type model struct {
	Name  string
	Model *openapi3.Schema
}

// responseModel is the model of the answers of operation id.
func responseModel(t *testing.T, s *specdoc.Spec, id string) model {
	t.Helper()
	i, ok := s.Index(id)
	if !ok || s.Ops[i].Response.Schema == "" {
		t.Fatalf("%s is not an operation of the spec that answers a model", id)
	}
	name := s.Ops[i].Response.Schema
	return model{Name: name, Model: s.Doc.Components.Schemas[name].Value}
}

// isIDField reports whether a field may be one the probe takes an input
// from (an id): planting on it would change what the probe calls next.
func isIDField(name string) bool { return strings.HasSuffix(name, "Id") || name == "id" }

// firstName is the first property of m, by name, that want accepts.
func firstName(m *openapi3.Schema, want func(name string, s *openapi3.Schema) bool) string {
	for _, name := range slices.Sorted(maps.Keys(m.Properties)) {
		if p := m.Properties[name].Value; p != nil && want(name, p) {
			return name
		}
	}
	return ""
}

// driftKeys are the drift findings of a probe report, as "kind path".
func driftKeys(t *testing.T, probeReport string) map[string]bool {
	t.Helper()
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(probeReport), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("decoding the probe's report: %v\n%s", err, probeReport)
	}
	out := map[string]bool{}
	for _, f := range rep.Results[0].Findings {
		if f.Drift {
			out[f.Kind+" "+f.Path] = true
		}
	}
	return out
}

func probeJSON(t *testing.T, spec, base string) (int, string) {
	t.Helper()
	code, out, errs := runSpecdiff(t, nil, "probe", "-spec", spec, "-o", "json", "-header", "Authorization: "+fake.DefaultAPIKey, base)
	if code == exitError {
		t.Fatalf("probe of %s: exit 2: %s", base, errs)
	}
	return code, out
}

// TestOverlayEndToEnd: the probe of a drifting fake finds the planted
// differences; specdiff overlay turns them into an overlay; applied to a
// copy of api/openapi.yaml, the copy validates, regenerates (oapi-codegen
// with the repository's configuration, then our two generators) into a gen
// package that builds, and the probe against the patched copy finds none
// of those differences. The probe of the undrifted fake is the baseline:
// only its findings may remain.
func TestOverlayEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates and builds package gen")
	}
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	fk := fake.NewServer()
	t.Cleanup(fk.Close)
	_, out := probeJSON(t, specPath, fk.URL)
	baseline := driftKeys(t, out)
	if len(baseline) > 0 {
		t.Logf("the probe of the undrifted fake reports drift; only these may remain: %v", slices.Sorted(maps.Keys(baseline)))
	}
	plan := planDrift(t, s)
	base := driftingServer(t, s, fk, plan.drifts)
	code, drifted := probeJSON(t, specPath, base)
	found := driftKeys(t, drifted)
	for k := range plan.want {
		if !found[k] {
			t.Errorf("the probe of the drifting fake does not report %s; it reports %v", k, slices.Sorted(maps.Keys(found)))
		}
	}
	for k := range found {
		if !plan.want[k] && !baseline[k] {
			t.Errorf("the probe of the drifting fake reports %s, which was not planted", k)
		}
	}
	if code != exitDrift || t.Failed() {
		t.Fatalf("probe: exit %d", code)
	}
	patched := overlayAndApply(t, drifted)
	regenerate(t, patched, plan.check)
	_, out = probeJSON(t, patched, base)
	for k := range driftKeys(t, out) {
		if plan.want[k] || !baseline[k] {
			t.Errorf("the probe against the patched spec still reports %s", k)
		}
	}
}

// overlayAndApply turns a probe report into an overlay, applies it to a
// copy of the spec and returns the copy.
func overlayAndApply(t *testing.T, findings string) string {
	t.Helper()
	dir := t.TempDir()
	reportFile, ovFile, patched := filepath.Join(dir, "probe.json"), filepath.Join(dir, "fix.yaml"), filepath.Join(dir, "openapi.yaml")
	mustWrite(t, reportFile, findings)
	if code, _, errs := runSpecdiff(t, nil, "overlay", "-spec", specPath, "-o", ovFile, reportFile); code != exitClean {
		t.Fatalf("overlay: exit %d: %s", code, errs)
	}
	if code, out, errs := runSpecdiff(t, nil, "overlay", "apply", "-spec", specPath, "-o", patched, ovFile); code != exitClean {
		t.Fatalf("overlay apply: exit %d: %s%s", code, out, errs)
	}
	return patched
}

// regenerate runs the repository's generators on a spec into a temporary
// directory and builds package gen from what they wrote (go build
// -overlay), leaving gen/ as it is; the generated models must match each
// of check.
func regenerate(t *testing.T, specFile string, check []*regexp.Regexp) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(root, "oapi-codegen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range []string{"api.gen.go", "operations.go", "decode.gen.go", "models.gen.go"} {
		out[filepath.Join(root, "gen", f)] = filepath.Join(dir, f)
	}
	cfgFile := filepath.Join(dir, "oapi-codegen.yaml")
	mustWrite(t, cfgFile, regexp.MustCompile(`(?m)^output: .*$`).ReplaceAllString(string(cfg), "output: "+filepath.Join(dir, "api.gen.go")))
	// The steps of generate.go, pointed at the copy; go run caches the
	// generators' binaries.
	goCmd(t, ctx, root, "run", "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen", "-config", cfgFile, specFile)
	goCmd(t, ctx, root, "run", "./tools/opsgen", "-spec", specFile, "-out", out[filepath.Join(root, "gen", "operations.go")])
	goCmd(t, ctx, root, "run", "./tools/decodegen", "-spec", specFile, "-types", filepath.Join(dir, "api.gen.go"),
		"-out", out[filepath.Join(root, "gen", "decode.gen.go")])
	replace, _ := json.Marshal(map[string]any{"Replace": out})
	mustWrite(t, filepath.Join(dir, "overlay.json"), string(replace))
	goCmd(t, ctx, root, "build", "-overlay", filepath.Join(dir, "overlay.json"), "./gen")
	models, err := os.ReadFile(filepath.Join(dir, "api.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range check {
		if !re.Match(models) {
			t.Errorf("the regenerated models have nothing like %s", re)
		}
	}
}

// goCmd runs the go command in dir and fails the test with its output
// when it fails.
func goCmd(t *testing.T, ctx context.Context, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v (within 3m)\n%s", strings.Join(args, " "), err, out)
	}
}

// TestOverlayFromTheSDKsDriftReport: the SDK itself meets the drifting
// fake (a client's calls, as a user's program makes them) and reports the
// differences (facade.Client.Drift, what scm --drift-report writes); the
// overlay made from that report, applied to a copy of the spec, leaves the
// probe of the same server none of them.
func TestOverlayFromTheSDKsDriftReport(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	fk := fake.NewServer()
	t.Cleanup(fk.Close)
	plan := planDrift(t, s)
	base := driftingServer(t, s, fk, plan.drifts)
	c, err := facade.New(base, facade.WithAPIKey(fake.DefaultAPIKey), facade.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if _, err := c.Projects.List(ctx); err != nil {
		t.Fatalf("getProjects: %v", err)
	}
	if _, err := c.Scenarios.List(ctx, 1); err != nil {
		t.Fatalf("getScenarios: %v", err)
	}
	reported := map[string]bool{}
	for _, f := range c.Drift() {
		reported[f.Kind+" "+f.Path] = true
	}
	for k := range plan.want {
		if !reported[k] {
			t.Errorf("the SDK does not report %s; it reports %v", k, slices.Sorted(maps.Keys(reported)))
		}
	}
	sdkReport, err := json.Marshal(c.Drift())
	if err != nil {
		t.Fatal(err)
	}
	patched := overlayAndApply(t, string(sdkReport))
	_, out := probeJSON(t, patched, base)
	for k := range driftKeys(t, out) {
		if plan.want[k] {
			t.Errorf("the probe against the spec patched from the SDK's report still reports %s", k)
		}
	}
}
