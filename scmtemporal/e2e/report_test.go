package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/ids"
)

// facts of n items that each ran once, were imported once and exported
// their own result.
func goodItems(n int) []itemFacts {
	items := make([]itemFacts, n)
	for i := range items {
		items[i] = itemFacts{Name: itemName(i), Scenarios: []ids.ScenarioID{1001}, Results: []ids.ExperimentResultID{5002}, Runs: 1, Export: exportOwn}
	}
	return items
}

// TestReportPassesOnlyWhenEveryItemIsExactlyOnce checks the verdict: any
// item run twice or never, imported twice, lost, exporting another result
// or claiming another result, or a check that cannot tell results apart,
// fails the phase.
func TestReportPassesOnlyWhenEveryItemIsExactlyOnce(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(r *phaseReport)
		pass bool
	}{
		"all good":                 {func(*phaseReport) {}, true},
		"a run started twice":      {func(r *phaseReport) { r.items[1].Runs = 2 }, false},
		"a run never started":      {func(r *phaseReport) { r.items[1].Runs = 0 }, false},
		"imported twice":           {func(r *phaseReport) { r.items[1].Scenarios = append(r.items[1].Scenarios, ids.ScenarioID(1002)) }, false},
		"an item lost":             {func(r *phaseReport) { r.lost = []string{"item-001"} }, false},
		"another item's export":    {func(r *phaseReport) { r.items[1].Export = exportOther }, false},
		"an export missing":        {func(r *phaseReport) { r.items[1].Export = exportMissing }, false},
		"a result claimed wrong":   {func(r *phaseReport) { r.claims = []string{"item-001"} }, false},
		"a check that cannot fail": {func(r *phaseReport) { r.checkBroken = true }, false},
		"no items":                 {func(r *phaseReport) { r.items = nil }, false},
		"a stray file only":        {func(r *phaseReport) { r.stray = []string{".item-001.xlsx.1.partial"} }, true},
		"unknown beside a busy run": {func(r *phaseReport) {
			r.items[1].Busy, r.items[1].Export = 1, exportMissing
			r.lost, r.lostItems = []string{"item-001 (unknown)"}, []lostItem{{itemName(1), "unknown"}}
			r.excuseAmbiguous()
		}, true},
		"unknown without a busy run": {func(r *phaseReport) {
			r.items[1].Export = exportMissing
			r.lost, r.lostItems = []string{"item-001 (unknown)"}, []lostItem{{itemName(1), "unknown"}}
			r.excuseAmbiguous()
		}, false},
		"failed beside a busy run": {func(r *phaseReport) {
			r.items[1].Busy, r.items[1].Export = 1, exportMissing
			r.lost, r.lostItems = []string{"item-001 (failed)"}, []lostItem{{itemName(1), "failed"}}
			r.excuseAmbiguous()
		}, false},
	} {
		t.Run(name, func(t *testing.T) {
			r := &phaseReport{items: goodItems(3)}
			tc.edit(r)
			if got := r.passed(); got != tc.pass {
				t.Errorf("passed() = %v, want %v", got, tc.pass)
			}
		})
	}
}

// TestCheckClaimsComparesTheWorkflowsResultWithTheListedRun checks that a
// workflow returning an experimentResultId other than the one its scenario
// lists is reported, and a failed workflow is not compared.
func TestCheckClaimsComparesTheWorkflowsResultWithTheListedRun(t *testing.T) {
	r := &phaseReport{items: goodItems(3)}
	r.checkClaims([]outcome{{name: itemName(0), resultID: 5002}, {name: itemName(1), resultID: 5014},
		{name: itemName(2), err: errors.New("lost")}})
	if len(r.claims) != 1 || !strings.HasPrefix(r.claims[0], itemName(1)+":") {
		t.Errorf("claims = %q, want one for %s", r.claims, itemName(1))
	}
}

// TestSummarizeAttemptsCountsRetriesAndCutAttempts reads a journal: an
// attempt without its end line was cut by a kill.
func TestSummarizeAttemptsCountsRetriesAndCutAttempts(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	journal := map[string][]attempt{"e2e-item-000": {
		{ID: "5", Activity: "StartRun", Attempt: 1, Worker: "worker-0.1", At: at},
		{ID: "5", Activity: "StartRun", Attempt: 2, Worker: "worker-1.1", At: at.Add(time.Second)},
		{ID: "5", Activity: "StartRun", Attempt: 2, Worker: "worker-1.1", At: at.Add(2 * time.Second), End: "ok"},
	}}
	s := summarizeAttempts(journal)
	if s.begun != 2 || s.retries != 1 || s.cut != 1 || s.byActivity["StartRun"] != 1 {
		t.Errorf("summary = %+v, want 2 begun, 1 retry (StartRun), 1 cut", s)
	}
	kills := []kill{{identity: "worker-9.1", at: at.Add(-time.Second)}, {identity: "worker-0.1", at: at.Add(300 * time.Millisecond)}}
	h := history("e2e-item-000", journal["e2e-item-000"], kills)
	for _, want := range []string{"StartRun#1 on worker-0.1 began; its worker was killed at 12:00:00.300, 300ms later\n",
		"12:00:00.300 kill of worker-0.1\n    12:00:01.000 StartRun#2"} {
		if !strings.Contains(h, want) {
			t.Errorf("history lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "worker-9.1") {
		t.Errorf("history names a kill before the item began:\n%s", h)
	}
}
