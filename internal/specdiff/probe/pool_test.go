package probe

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// TestRCNeedsCoverEveryReadOnlyRCOperation checks the reviewed table of
// what each operation needs against the spec: every read-only operation
// that takes an rcId has an entry and no other operation has one; the
// types are the spec's experiment types; an operation needs a type exactly
// when its tag or summary names it (last mile optimization, comparison,
// variation); and results are read from finished runs.
func TestRCNeedsCoverEveryReadOnlyRCOperation(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	types := newRCPool(s).types
	if len(types) == 0 {
		t.Fatal("the spec names no experiment types")
	}
	listed := map[string]bool{}
	for _, op := range s.Ops {
		need, ok := rcNeeds[op.ID]
		listed[op.ID] = ok
		takes := slices.ContainsFunc(op.Params, func(p spec.Param) bool { return p.Name == "rcId" && p.Required })
		switch {
		case !ok && takes && !op.ChangesState:
			t.Errorf("%s is read-only and takes an rcId: add it to rcNeeds in internal/specdiff/probe/needs.go with the experiment it needs, so the probe sends it a fitting rcId", op.ID)
			continue
		case ok && !(takes && !op.ChangesState):
			t.Errorf("%s is in rcNeeds but is not a read-only operation taking an rcId: remove it from rcNeeds in internal/specdiff/probe/needs.go", op.ID)
			continue
		}
		words := strings.ToLower(op.Tag + " " + op.Summary)
		for typ := range types {
			named := strings.Contains(words, strings.ToLower(strings.ReplaceAll(typ, "_", " ")))
			if ok && named != slices.Contains(need.types, typ) {
				t.Errorf("%s (%q): needs %v, but its tag or summary names %s: %v", op.ID, words, need.types, typ, named)
			}
		}
		for _, typ := range need.types {
			if !types[typ] {
				t.Errorf("%s: %s is not an experiment type of the spec", op.ID, typ)
			}
		}
		if ok && op.Tag == "Results" && !need.finished {
			t.Errorf("%s reads results, which only a finished run has", op.ID)
		}
	}
	for id := range rcNeeds {
		if _, ok := listed[id]; !ok {
			t.Errorf("rcNeeds names %s, which is not an operation of the spec", id)
		}
	}
}

// TestRCPoolReadsAnswersByPropertyName feeds the pool answers whose ids are
// strings, whose types are spelt in lower case or under experimentType,
// and whose run state is an object, as changed models may send them.
func TestRCPoolReadsAnswersByPropertyName(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := newRCPool(s)
	learn := func(op, answer, scenario string) {
		t.Helper()
		v, err := decodeJSON([]byte(answer))
		if err != nil {
			t.Fatal(err)
		}
		p.learn(op, v, scenario, "")
	}
	learn("getExperiments", `[{"id": "10109", "type": "last_mile_optimization"}, {"id": 10106, "experimentType": "COMPARISON", "scenarioId": "101"},
		{"id": 10103, "type": "SIMULATION"}, {"id": 20103, "type": "SIMULATION", "scenarioId": 201}]`, "101")
	// A listed run names its result (rcId is its experimentResultId), not
	// its run configuration: the configuration of its scenario and type ran.
	learn("getExperimentRunsForScenario", `[{"id": 5001, "rcId": "5002", "type": "comparison", "state": {"value": "Finished"}},
		{"id": 5011, "rcId": 5012, "type": "SIMULATION", "scenarioId": "101", "state": "RUNNING"}]`, "101")
	learn("getExperimentRunsForScenario", `{"items": [{"rcId": 7001, "experimentType": "SIMULATION", "scenarioId": 201}]}`, "201")
	learn("getExperimentRunsForScenario", `[{"hasOptions": false, "id": 5021, "name": "Statistics", "rcId": 5022, "removing": false, "scenarioId": 101,
		"type": "LAST_MILE_OPTIMIZATION"}]`, "101") // the real shape: a listed run without a state has a result
	learn("getExperimentStatus", `{"finished": true, "failed": false}`, "")                          // no rcId: nothing learnt
	learn("getExperimentRunsForScenario", `[{"id": 5031, "rcId": 10103, "scenarioId": 101}]`, "101") // rcId is no run configuration's here
	lmo, comparison := rcNeeds["getLastMileOptimizationOrdersTableData"], rcNeeds["getComparisonResultData"]
	results := rcNeeds["getExperimentRunResult"]
	for _, tc := range []struct {
		need     rcNeed
		scenario string
		want     []string
	}{
		{lmo, "101", []string{"10109"}},
		{comparison, "101", []string{"10106"}},
		{results, "101", []string{"10109", "10106"}},           // 10103 is still running
		{results, "", []string{"10109", "10106", "20103"}},     // any scenario
		{rcNeed{}, "201", []string{"20103"}},                   // of its own scenario only
		{rcNeed{types: []string{"VARIATION"}}, "", []string{}}, // none seen
	} {
		if got := p.candidates(tc.need, tc.scenario, 5); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s of scenario %q: %v, want %v", tc.need, tc.scenario, got, tc.want)
		}
	}
	// A VARIATION run is never listed; the status of its configuration
	// shows its end.
	learn("getExperiments", `[{"id": 10105, "type": "VARIATION", "scenarioId": 101}]`, "101")
	v, _ := decodeJSON([]byte(`{"finished": true, "failed": false, "terminal": false}`))
	p.learn("getExperimentStatus", v, "", "10105")
	for _, tc := range []struct {
		need     rcNeed
		scenario string
		want     []string
	}{
		{rcNeed{types: []string{"VARIATION"}, finished: true}, "101", []string{"10105"}},
	} {
		if got := p.candidates(tc.need, tc.scenario, 5); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s of scenario %q: %v, want %v", tc.need, tc.scenario, got, tc.want)
		}
	}
}

// TestProbeFollowsIDsThatArriveAsStrings rewrites the fake's experiment
// list: every id a string, every type under experimentType. The probe
// reports the difference, and still calls the last mile and comparison
// operations with experiments of their types.
func TestProbeFollowsIDsThatArriveAsStrings(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	stringly := plant{op: "getExperiments", raw: func(w http.ResponseWriter, _ *http.Request, rec *httptest.ResponseRecorder) {
		v, err := decodeJSON(rec.Body.Bytes())
		items, _ := v.([]any)
		if err != nil || len(items) == 0 {
			t.Errorf("getExperiments: %v, %s", err, rec.Body)
		}
		for _, e := range items {
			item := e.(map[string]any)
			item["id"], item["experimentType"] = fieldText(item, "id"), item["type"]
			delete(item, "type")
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(items)
	}}
	clock := fake.NewVirtualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv, _ := plantingServer(t, s, []plant{stringly}, fake.WithClock(clock), fake.WithLicense())
	base := srv.URL + fake.BasePath
	seedFake(t, s, srv.URL+fake.BasePath)
	clock.Advance(fake.DefaultRunDuration + time.Second)
	code, res := probeReport(t, base, nil)
	if code != report.ExitDrift {
		t.Errorf("exit %d, want %d: the strings are drift", code, report.ExitDrift)
	}
	if !slices.ContainsFunc(res.Findings, func(f report.Finding) bool { return f.Kind == "probe-type" && f.Operation == "getExperiments" }) {
		t.Errorf("no probe-type finding on getExperiments: %+v", res.Findings)
	}
	// A VARIATION run is never listed: the probe learns that a VARIATION
	// configuration has a result only from its status, which it reads for
	// the first -items configurations it follows (the seeded-fake test
	// reaches it).
	for op, need := range rcNeeds {
		if len(need.types) > 0 && !slices.Contains(need.types, "VARIATION") &&
			op != "getExistingVariableParameterTableData" && op != "doesVariableParameterHasSelectedData" &&
			(slices.Contains(res.Coverage.NotCalled, op) || slices.Contains(res.Coverage.AnsweredOnlyErrors, op)) {
			t.Errorf("%s was not checked: %+v", op, res.Coverage)
		}
	}
}

// A run listing that shows a configuration ran is news: learn reports it,
// so that the probe offers the bindings again to the operations that need
// a finished run. The same listing again is no news.
func TestRCPoolReportsARunListingAsNews(t *testing.T) {
	t.Parallel()
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := newRCPool(s)
	learn := func(op, answer string) bool {
		t.Helper()
		v, err := decodeJSON([]byte(answer))
		if err != nil {
			t.Fatal(err)
		}
		return p.learn(op, v, "101", "")
	}
	if !learn("getExperiments", `[{"id": 10103, "type": "SIMULATION", "scenarioId": 101}]`) {
		t.Fatal("a new configuration is not news")
	}
	runs := `[{"id": 5001, "rcId": 5002, "type": "SIMULATION", "scenarioId": 101}]`
	if !learn("getExperimentRunsForScenario", runs) {
		t.Error("a listed run of the configuration's scenario and type is not news")
	}
	if got := p.candidates(rcNeeds["getExperimentRunResult"], "101", 5); !slices.Equal(got, []string{"10103"}) {
		t.Errorf("finished configurations %v, want [10103]", got)
	}
	if learn("getExperimentRunsForScenario", runs) {
		t.Error("the same listing again is news")
	}
}
