package fake

import "github.com/scmodel/scmgo/ids"

// ScenarioTables returns the row count of every table of a scenario, by
// table id, and false when there is no such scenario. No operation answers
// a scenario's tables (the real server's scenario model is {id, name,
// type}), so tests read what imports, conversions and the last mile add
// operations wrote here.
func (h *Handler) ScenarioTables(scenarioID ids.ScenarioID) (map[string]int64, bool) {
	w := h.world
	w.lock()
	defer w.unlock()
	sc, ok := w.scenarios[scenarioID]
	if !ok {
		return nil, false
	}
	out := make(map[string]int64, len(sc.tables))
	for _, t := range sc.tables {
		out[t.id] = t.rows
	}
	return out, true
}

// LastRun returns the ids of a running configuration's latest run: its own
// id (the runId of the convert operations) and its experimentResultId, and
// false when it never ran. A server lists a run only once it has finished,
// and never a VARIATION run, so tests read the ids of such runs here.
func (h *Handler) LastRun(rcID ids.RcID) (runID ids.RunID, resultID ids.ExperimentResultID, ok bool) {
	w := h.world
	w.lock()
	defer w.unlock()
	rc, found := w.rcs[rcID]
	if !found {
		return 0, 0, false
	}
	r := w.lastRun(rc)
	if r == nil {
		return 0, 0, false
	}
	return r.id, r.resultID, true
}
