package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// plant rewrites the answers of one operation: mutate changes the first
// item (or the object) of a 2xx JSON answer; raw, when set, replaces the
// whole answer.
type plant struct {
	op     string
	mutate func(item map[string]any)
	raw    func(w http.ResponseWriter, r *http.Request, rec *httptest.ResponseRecorder)
}

// plantingServer serves the fake behind a handler that applies the plants
// to the answers, and returns the fake's handler for its counters.
func plantingServer(t *testing.T, s *specdoc.Spec, plants []plant, opts ...fake.Option) (*httptest.Server, *fake.Handler) {
	t.Helper()
	h := fake.NewHandler(opts...).(*fake.Handler)
	byPath := map[string]plant{}
	for _, p := range plants {
		byPath[fake.BasePath+specOp(t, s, p.op).Path] = p
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := byPath[r.URL.Path]
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if p.raw != nil {
			p.raw(w, r, rec)
			return
		}
		body := rec.Body.Bytes()
		if rec.Code/100 == 2 {
			body = rewrite(t, body, p.mutate)
		}
		maps.Copy(w.Header(), rec.Header())
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, h
}

func rewrite(t *testing.T, body []byte, mutate func(map[string]any)) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Errorf("planting: %v", err)
		return body
	}
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			mutate(x[0].(map[string]any))
		}
	case map[string]any:
		mutate(x)
	}
	out, _ := json.Marshal(v)
	return out
}

func specOp(t *testing.T, s *specdoc.Spec, id string) (op struct {
	Path   string
	Model  *openapi3.Schema
	Name   string
	Method string
}) {
	t.Helper()
	i, ok := s.Index(id)
	if !ok {
		t.Fatalf("%s is not in the spec", id)
	}
	o := s.Ops[i]
	op.Path, op.Method, op.Name = o.Path, o.Method, o.Response.Schema
	if o.Response.Schema != "" {
		op.Model = s.Doc.Components.Schemas[o.Response.Schema].Value
	}
	return op
}

// specPath is the repository's spec: the fake serves what it says now.
const specPath = "../../../api/openapi.yaml"

// probeServer probes base with the fake's key and the default limits as
// edit changes them (when not nil), within three minutes, and returns the
// report.
func probeServer(t *testing.T, specFile, base string, edit func(*Limits)) report.Report {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	if edit != nil {
		edit(&lim)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	srv := Server{Base: u, Client: &http.Client{Timeout: time.Minute}, Headers: http.Header{"Authorization": {fake.DefaultAPIKey}}}
	rep, err := Run(ctx, specFile, srv, lim)
	if err != nil {
		t.Fatalf("probe of %s: %v (within 3m)", base, err)
	}
	return rep
}

// probeFindingsOf probes base (see probeServer) and returns the exit code
// the report states and its findings.
func probeFindingsOf(t *testing.T, base string, edit func(*Limits)) (int, []report.Finding) {
	t.Helper()
	rep := probeServer(t, specPath, base, edit)
	return rep.ExitCode(), rep.Results[0].Findings
}

// assertNothingApplied checks that no operation changed the fake's state,
// and that no state-changing operation was even sent.
func assertNothingApplied(t *testing.T, s *specdoc.Spec, h *fake.Handler, before map[string]int) {
	t.Helper()
	for _, op := range s.Ops {
		if got := h.Applied(op.ID); got != before[op.ID] {
			t.Errorf("%s: applied %d times during the probe", op.ID, got-before[op.ID])
		}
		if op.ChangesState && h.Calls(op.ID) != before["calls:"+op.ID] {
			t.Errorf("%s changes state and was sent", op.ID)
		}
	}
}

// firstProperty is the first property (by name) of model m that want
// accepts and the answer item has.
func firstProperty(m *openapi3.Schema, item map[string]any, want func(name string, s *openapi3.Schema) bool) string {
	for _, name := range slices.Sorted(maps.Keys(m.Properties)) {
		if _, ok := item[name]; ok && want(name, m.Properties[name].Value) {
			return name
		}
	}
	return ""
}

// isInputField reports whether the probe may take an input from the field
// of op's answers: planting on it would change what the probe calls next.
func isInputField(op, name string) bool {
	for input, fields := range inputLinks[op] {
		if name == input || slices.Contains(fields, name) {
			return true
		}
	}
	return strings.HasSuffix(name, "Id") || name == "id"
}

// TestProbeNamesEveryPlantAndChangesNothing plants, in the fake's answers,
// a renamed field, an unknown field, a retyped field, a dropped required
// field and a value outside an enumeration. The fields come from the spec's
// models and the answers, not from names written here, so the test follows
// the spec as it changes.
func TestProbeNamesEveryPlantAndChangesNothing(t *testing.T) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	scenarios, projects, tables, user, experiments := specOp(t, s, "getScenarios"), specOp(t, s, "getProjects"),
		specOp(t, s, "getTablesMeta"), specOp(t, s, "getCurrentUser"), specOp(t, s, "getExperiments")
	experimentType := s.Doc.Components.Schemas["ExperimentType"].Value
	want := map[string]string{} // kind -> path; the plants write it from the server's goroutines
	var mu sync.Mutex
	record := func(kind, model, name string) {
		if name == "" {
			t.Errorf("%s: no property of %s in the answer to plant on", kind, model)
		}
		mu.Lock()
		defer mu.Unlock()
		want[kind] = model + "." + name
	}
	plants := []plant{
		{op: "getScenarios", mutate: func(item map[string]any) {
			name := firstProperty(scenarios.Model, item, func(n string, p *openapi3.Schema) bool {
				return slices.Contains(scenarios.Model.Required, n) && p.Type.Is("string") && len(p.Enum) == 0 && !isInputField("getScenarios", n)
			})
			item[name+"Renamed"] = item[name]
			delete(item, name)
			record("probe-renamed", scenarios.Name, name)
		}},
		{op: "getProjects", mutate: func(item map[string]any) {
			item["probeExtra"] = true
			record("probe-unknown-field", projects.Name, "probeExtra")
		}},
		{op: "getTablesMeta", mutate: func(item map[string]any) {
			name := firstProperty(tables.Model, item, func(n string, p *openapi3.Schema) bool {
				return p.Type.Is("string") && len(p.Enum) == 0 && !isInputField("getTablesMeta", n)
			})
			item[name] = 12345
			record("probe-type", tables.Name, name)
		}},
		{op: "getCurrentUser", mutate: func(item map[string]any) {
			name := firstProperty(user.Model, item, func(n string, _ *openapi3.Schema) bool { return slices.Contains(user.Model.Required, n) })
			delete(item, name)
			record("probe-missing", user.Name, name)
		}},
		{op: "getExperiments", mutate: func(item map[string]any) {
			name := firstProperty(experiments.Model, item, func(_ string, p *openapi3.Schema) bool { return p == experimentType })
			item[name] = "QUANTUM_OPTIMIZATION"
			record("probe-enum", experiments.Name, name)
		}},
	}
	srv, h := plantingServer(t, s, plants)
	rep := probeServer(t, specPath, srv.URL+fake.BasePath, nil)
	code, findings := rep.ExitCode(), rep.Results[0].Findings
	if code != report.ExitDrift {
		t.Errorf("exit %d, want %d", code, report.ExitDrift)
	}
	got := map[string]string{}
	for _, f := range findings {
		if !f.Drift {
			continue
		}
		if _, dup := got[f.Kind]; dup {
			t.Errorf("a second %s: %+v", f.Kind, f)
		}
		got[f.Kind] = f.Path
		if !strings.HasPrefix(f.Detail, f.Path) {
			t.Errorf("%s: detail %q does not start with the path %s", f.Kind, f.Detail, f.Path)
		}
	}
	mu.Lock()
	want = maps.Clone(want)
	mu.Unlock()
	if len(want) != len(plants) {
		t.Fatalf("only %d of %d plants were applied: %v", len(want), len(plants), want)
	}
	for k, path := range want {
		if got[k] != path {
			t.Errorf("%s: got path %q, want %q", k, got[k], path)
		}
	}
	for k, path := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected %s at %s", k, path)
		}
	}
	// Without a finished run the fake has no results: the probe does not
	// ask for them, and says why.
	if !slices.ContainsFunc(findings, func(f report.Finding) bool {
		return f.Kind == "probe-not-called" && f.Operation == "getExperimentRunResult" && strings.Contains(f.Detail, "with a finished run")
	}) {
		t.Errorf("no note that getExperimentRunResult needs a finished run: %+v", findings)
	}
	for _, mode := range []string{"text", "markdown", "github"} {
		var b strings.Builder
		if err := report.Write(&b, mode, rep); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, path := range want {
			if !strings.Contains(out, path) {
				t.Errorf("-o %s does not name %s:\n%s", mode, path, out)
			}
		}
	}
	assertNothingApplied(t, s, h, map[string]int{})
}

// TestProbeReportsStatusMediaTypeNullAndBadJSON plants answers the spec
// does not describe at the level of the answer itself.
func TestProbeReportsStatusMediaTypeNullAndBadJSON(t *testing.T) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	user := specOp(t, s, "getCurrentUser")
	var nulled string
	plants := []plant{
		{op: "getTablesMeta", raw: func(w http.ResponseWriter, _ *http.Request, rec *httptest.ResponseRecorder) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated) // outside 200, 4XX and 5XX
			w.Write(rec.Body.Bytes())
		}},
		{op: "getProjects", raw: func(w http.ResponseWriter, _ *http.Request, _ *httptest.ResponseRecorder) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>login</html>"))
		}},
		{op: "translate", raw: func(w http.ResponseWriter, _ *http.Request, _ *httptest.ResponseRecorder) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("{not json"))
		}},
		{op: "getCurrentUser", mutate: func(item map[string]any) {
			nulled = firstProperty(user.Model, item, func(n string, p *openapi3.Schema) bool {
				return slices.Contains(user.Model.Required, n) && !p.Nullable
			})
			item[nulled] = nil
		}},
	}
	srv, h := plantingServer(t, s, plants)
	code, findings := probeFindingsOf(t, srv.URL+fake.BasePath, nil)
	if code != report.ExitDrift {
		t.Errorf("exit %d, want %d", code, report.ExitDrift)
	}
	want := map[[2]string]bool{
		{"probe-status", "getTablesMeta"}:   true,
		{"probe-media-type", "getProjects"}: true,
		{"probe-schema", "translate"}:       true,
		{"probe-null", "getCurrentUser"}:    true,
	}
	for _, f := range findings {
		if !f.Drift {
			continue
		}
		if !want[[2]string{f.Kind, f.Operation}] {
			t.Errorf("unexpected %+v", f)
		}
		delete(want, [2]string{f.Kind, f.Operation})
		if f.Kind == "probe-null" && f.Path != user.Name+"."+nulled {
			t.Errorf("probe-null at %s, want %s.%s", f.Path, user.Name, nulled)
		}
	}
	for k := range want {
		t.Errorf("missing %s on %s", k[0], k[1])
	}
	assertNothingApplied(t, s, h, map[string]int{})
}

// TestProbeStopsAtTheBudget checks -max-calls: no more calls reach the
// server, and the operations not reached say so.
func TestProbeStopsAtTheBudget(t *testing.T) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv, h := plantingServer(t, s, nil)
	code, findings := probeFindingsOf(t, srv.URL+fake.BasePath, func(lim *Limits) { lim.MaxCalls = 3 })
	if code != report.ExitClean {
		t.Errorf("exit %d, want %d", code, report.ExitClean)
	}
	sent := 0
	for _, op := range s.Ops {
		sent += h.Calls(op.ID)
	}
	if sent != 3 {
		t.Errorf("%d calls reached the server, want 3", sent)
	}
	if !slices.ContainsFunc(findings, func(f report.Finding) bool {
		return f.Kind == "probe-not-called" && f.Detail == "-max-calls 3 was reached first"
	}) {
		t.Errorf("no note says the budget ran out: %+v", findings)
	}
}

// TestProbeGoesOnAfterATimeout checks -timeout: a call that outlives its
// limit is a note, and the probe goes on with the others.
func TestProbeGoesOnAfterATimeout(t *testing.T) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	// getScenarios needs a projectId, so an answer came before it hangs.
	hang := plant{op: "getScenarios", raw: func(_ http.ResponseWriter, r *http.Request, _ *httptest.ResponseRecorder) {
		<-r.Context().Done() // until the client gives up
	}}
	srv, h := plantingServer(t, s, []plant{hang})
	// A second is long enough for every other call on a loaded machine.
	code, findings := probeFindingsOf(t, srv.URL+fake.BasePath, func(lim *Limits) { lim.Timeout = time.Second })
	if code != report.ExitClean {
		t.Errorf("exit %d, want %d", code, report.ExitClean)
	}
	if !slices.ContainsFunc(findings, func(f report.Finding) bool {
		return f.Kind == "probe-error" && f.Operation == "getScenarios" && strings.Contains(f.Detail, "deadline exceeded")
	}) {
		t.Errorf("the timeout is not noted: %+v", findings)
	}
	if h.Calls("getCurrentUser") == 0 || h.Calls("getScenarios") < 2 {
		t.Errorf("the probe did not go on: getCurrentUser %d calls, getScenarios %d", h.Calls("getCurrentUser"), h.Calls("getScenarios"))
	}
}
