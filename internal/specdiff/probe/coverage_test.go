package probe

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// statusLog records the status of every answer a server gave, by
// operation.
type statusLog struct {
	mu            sync.Mutex
	errors        map[string][]int // operation -> statuses outside 2xx, 501 aside
	unimplemented map[string]bool  // operations answered 501
}

func (l *statusLog) errorsByOp() map[string][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.errors)
}

// notImplemented lists, sorted, the operations the fake answered 501: those
// of the spec it has no handler for yet (added to the spec since), which
// the probe cannot check. They are the fake's to implement, and the fake's
// tests ask for them; here they are left out of what must be checked.
func (l *statusLog) notImplemented() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(maps.Keys(l.unimplemented))
}

// recordingServer serves the fake and records the status of each answer.
func recordingServer(t *testing.T, s *specdoc.Spec, opts ...fake.Option) (*httptest.Server, *fake.Handler, *statusLog) {
	t.Helper()
	h := fake.NewHandler(opts...).(*fake.Handler)
	log := &statusLog{errors: map[string][]int{}, unimplemented: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		if rec.Code/100 != 2 {
			op := r.Method + " " + r.URL.Path
			if i, ok := s.RouteIndex(r.Method, strings.TrimPrefix(r.URL.Path, fake.BasePath)); ok {
				op = s.Ops[i].ID
			}
			log.mu.Lock()
			if rec.Code == http.StatusNotImplemented {
				log.unimplemented[op] = true
			} else {
				log.errors[op] = append(log.errors[op], rec.Code)
			}
			log.mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, h, log
}

// probeReport probes base (see probeServer) with the inputs given, and
// returns the exit code the report states and its only result.
func probeReport(t *testing.T, base string, inputs map[string]string) (int, report.Result) {
	t.Helper()
	rep := probeServer(t, specPath, base, func(lim *Limits) { lim.Inputs = inputs })
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1: %+v", len(rep.Results), rep.Results)
	}
	return rep.ExitCode(), rep.Results[0]
}

func readOnlyOperations(s *specdoc.Spec) []string {
	var out []string
	for _, op := range s.Ops {
		if !op.ChangesState {
			out = append(out, op.ID)
		}
	}
	return out
}

// TestProbeChecksEveryReadOnlyOperationOfASeededFake gives the fake what no
// read-only operation can make (finished runs of a simulation, a variation
// and a comparison experiment, a variation, a copy job), names the job and
// the variation with -input, and checks that the probe checks every
// read-only operation, sends each one ids it can answer for (no call
// answers an error), finds no drift in the fake and applies nothing.
func TestProbeChecksEveryReadOnlyOperationOfASeededFake(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock := fake.NewVirtualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv, h, log := recordingServer(t, s, fake.WithClock(clock), fake.WithLicense())
	base := srv.URL + fake.BasePath
	inputs := seedFake(t, s, base)
	clock.Advance(fake.DefaultRunDuration + time.Second)
	before := map[string]int{}
	for _, op := range s.Ops {
		before[op.ID], before["calls:"+op.ID] = h.Applied(op.ID), h.Calls(op.ID)
	}
	code, res := probeReport(t, base, inputs)
	skip := log.notImplemented()
	for _, f := range res.Findings {
		if f.Kind != "probe-unchecked" || !slices.Contains(skip, f.Operation) {
			t.Errorf("a finding on the seeded fake: %+v", f)
		}
	}
	if code != report.ExitClean {
		t.Errorf("exit %d, want %d", code, report.ExitClean)
	}
	ro := readOnlyOperations(s)
	if c := res.Coverage; c == nil || c.ReadOnly != len(ro) || c.Checked != len(ro)-len(skip) {
		t.Errorf("coverage %+v, want all %d read-only operations checked but the %v the fake answers 501", c, len(ro), skip)
	}
	if errs := log.errorsByOp(); len(errs) > 0 {
		t.Errorf("calls answered errors (ids of the wrong kind?): %v", errs)
	}
	assertNothingApplied(t, s, h, before)
}

// TestProbeOnAFreshFakeSendsOnlyFittingIDs probes the fake as it starts: no
// run has finished, no variation or job exists. The probe must not send a
// results, comparison, variation or last mile operation an rcId of another
// kind: every call answers 2xx, and each operation it cannot check is named
// with the reason.
func TestProbeOnAFreshFakeSendsOnlyFittingIDs(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv, _, log := recordingServer(t, s)
	code, res := probeReport(t, srv.URL+fake.BasePath, nil)
	if code != report.ExitClean {
		t.Errorf("exit %d, want %d", code, report.ExitClean)
	}
	if errs := log.errorsByOp(); len(errs) > 0 {
		t.Errorf("calls answered errors (ids of the wrong kind?): %v", errs)
	}
	why := map[string]string{ // operation -> what its note says
		"getImportStatus":                       "name one with -input jobId=ID",
		"getExistingVariableParameterTableData": "name one with -input variationId=ID",
		"doesVariableParameterHasSelectedData":  "name one with -input variationId=ID",
	}
	for op, need := range rcNeeds {
		if need.finished {
			why[op] = need.String()
		}
	}
	for _, op := range []string{"getExperimentDashboardPages", "getExperimentDashboardPage", "exportDashboardPage"} {
		why[op] = "no answer gave experimentResultId" // only a finished run has one
	}
	notes := map[string]string{}
	skip := log.notImplemented()
	for _, f := range res.Findings {
		if f.Kind == "probe-unchecked" && slices.Contains(skip, f.Operation) {
			continue
		}
		if f.Drift || f.Kind != "probe-not-called" {
			t.Errorf("unexpected finding: %+v", f)
		}
		notes[f.Operation] = f.Detail
	}
	for op, want := range why {
		if !strings.Contains(notes[op], want) {
			t.Errorf("%s: note %q, want it to say %q", op, notes[op], want)
		}
	}
	c := res.Coverage
	want := slices.Sorted(maps.Keys(why))
	if c == nil || !slices.Equal(c.NotCalled, want) || !sameSet(c.AnsweredOnlyErrors, skip) || len(c.NoAnswer) > 0 ||
		c.Checked != c.ReadOnly-len(want)-len(skip) {
		t.Errorf("coverage %+v; want only %v not called, and only the %v the fake answers 501 answering errors", c, want, skip)
	}
}

// TestProbeSummaryCountsCheckedOperations checks the summary: an operation
// that answered only errors is not checked, and the text names it with the
// operations not called.
func TestProbeSummaryCountsCheckedOperations(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv, h, log := recordingServer(t, s)
	h.InjectFault("getTablesMeta", fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable, Times: 100})
	base := srv.URL + fake.BasePath
	rep := probeServer(t, specPath, base, nil)
	res := rep.Results[0]
	c := res.Coverage
	if c == nil || !sameSet(c.AnsweredOnlyErrors, append(log.notImplemented(), "getTablesMeta")) || len(c.NotCalled) == 0 {
		t.Fatalf("coverage %+v: want getTablesMeta alone answering only errors (with the %v the fake answers 501), and some operations not called",
			c, log.notImplemented())
	}
	notChecked := len(c.AnsweredOnlyErrors) + len(c.NotCalled)
	if c.Checked != c.ReadOnly-notChecked || c.ReadOnly != len(readOnlyOperations(s)) {
		t.Errorf("coverage %+v: checked and read-only do not add up", c)
	}
	var text strings.Builder
	if err := report.Write(&text, "text", rep); err != nil {
		t.Fatal(err)
	}
	code, out := rep.ExitCode(), text.String()
	head := fmt.Sprintf("checked %d of %d read-only operations", c.Checked, c.ReadOnly)
	for _, want := range []string{
		fmt.Sprintf("\n%s; %d not checked (%d answered only errors, %d not called): %s\n", head, notChecked, len(c.AnsweredOnlyErrors), len(c.NotCalled),
			strings.Join(slices.Concat(c.AnsweredOnlyErrors, c.NotCalled), ", ")),
		fmt.Sprintf("\nspecdiff probe: no drift in 1 server, %d notes; %s\n", notChecked+len(c.NotCalled)-len(c.NotCalled), head),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exit %d; output lacks %q:\n%s", code, want, out)
		}
	}
}

// seedFake makes, through the fake's own operations, what no read-only
// operation can: finished runs (once the clock moves on) of the
// simulation, variation and comparison experiments of the first scenario,
// a variation and a copy job. It returns the inputs (-input) that name the
// variation and the job. Ids are taken from answers by property name.
func seedFake(t *testing.T, s *specdoc.Spec, base string) map[string]string {
	t.Helper()
	project := answerID(t, callFake(t, s, base, "getProjects", nil), "projectId", "id")
	rcs := map[string]string{} // experiment type -> rcId, over the project's scenarios
	var scenario string
	for _, sc := range answerItems(callFake(t, s, base, "getScenarios", map[string]string{"projectId": project}), 3) {
		id := cmp.Or(fieldText(sc, "scenarioId"), fieldText(sc, "id"))
		scenario = cmp.Or(scenario, id)
		for _, item := range answerItems(callFake(t, s, base, "getExperiments", map[string]string{"projectId": project, "scenarioId": id}), 100) {
			typ := cmp.Or(fieldText(item, "type"), fieldText(item, "experimentType"))
			rcs[typ] = cmp.Or(rcs[typ], cmp.Or(fieldText(item, "rcId"), fieldText(item, "id")))
		}
	}
	for _, typ := range []string{"SIMULATION", "VARIATION", "COMPARISON"} {
		if rcs[typ] == "" {
			t.Fatalf("getExperiments gave no %s experiment: %v", typ, rcs)
		}
		callFake(t, s, base, "runExperiment", map[string]string{"rcId": rcs[typ]})
	}
	rc, _ := json.Number(rcs["VARIATION"]).Int64()
	variation := callFakeBody(t, s, base, "createNewVariableParameter", nil, map[string]any{"rcId": rc,
		"apiVariation": map[string]any{"objectType": idName("SiteData_SIM_FULL"), "object": idName("101"),
			"parameter": idName("period"), "variationType": idName("LINK_LIST")},
		"tableSelection": []any{map[string]any{"columnIndex": 1, "rowIndexes": []int{1}}},
	})
	job := callFake(t, s, base, "copyScenario", map[string]string{"scenarioId": scenario, "newType": "GFA"})
	return map[string]string{"variationId": answerID(t, variation, "variationId", "id"), "jobId": answerID(t, job, "jobId", "id")}
}

// idName is an {id, name} of a variation, named by its id.
func idName(id string) map[string]any { return map[string]any{"id": id, "name": id} }

// answerID is the first of fields that the first item of an answer has.
func answerID(t *testing.T, v any, fields ...string) string {
	t.Helper()
	for _, item := range answerItems(v, 1) {
		for _, f := range fields {
			if id := fieldText(item, f); id != "" {
				return id
			}
		}
	}
	t.Fatalf("no %v in %v", fields, v)
	return ""
}

func callFake(t *testing.T, s *specdoc.Spec, base, id string, in map[string]string) any {
	t.Helper()
	return callFakeBody(t, s, base, id, in, nil)
}

// callFakeBody sends one operation with the query inputs in and a JSON
// body (none when nil), and returns its decoded 200 answer.
func callFakeBody(t *testing.T, s *specdoc.Spec, base, id string, in map[string]string, body any) any {
	t.Helper()
	i, ok := s.Index(id)
	if !ok {
		t.Fatalf("%s is not in the spec", id)
	}
	op := s.Ops[i]
	q := url.Values{}
	for _, prm := range op.Params {
		if v, ok := in[prm.Name]; ok {
			q.Set(prm.Name, v)
		}
	}
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	req, _ := http.NewRequestWithContext(t.Context(), op.Method, base+op.Path+"?"+q.Encode(), bytes.NewReader(data))
	req.Header.Set("Authorization", fake.DefaultAPIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	v, err := decodeBody(resp)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s, %v", id, resp.Status, err)
	}
	return v
}

func decodeBody(resp *http.Response) (any, error) {
	var v any
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber()
	return v, dec.Decode(&v)
}

// sameSet reports whether two lists hold the same names, in any order.
func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
