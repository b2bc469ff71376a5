package fake

import (
	"encoding/json"
	"iter"
	"net/http"
	"slices"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// jsonList answers 200 with a JSON array whose items are produced while it
// is written, a buffer at a time, so a list of any length costs the memory
// of one buffer. It writes the bytes the generated list response would
// (each item as encoding/json encodes it). It implements the Visit method of
// every operation whose list it answers.
type jsonList[T any] iter.Seq[T]

func (l jsonList[T]) write(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	buf := make([]byte, 0, 2*flushSize)
	buf = append(buf, '[')
	first := true
	for item := range l {
		b, err := json.Marshal(item)
		if err != nil {
			return err
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		if buf = append(buf, b...); len(buf) >= flushSize {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(append(buf, "]\n"...))
	return err
}

func (l jsonList[T]) VisitGetScenariosResponse(w http.ResponseWriter) error { return l.write(w) }
func (l jsonList[T]) VisitGetExperimentRunsForScenarioResponse(w http.ResponseWriter) error {
	return l.write(w)
}
func (l jsonList[T]) VisitGetExperimentDashboardPagesResponse(w http.ResponseWriter) error {
	return l.write(w)
}
func (l jsonList[T]) VisitGetExperimentRunResultPagesResponse(w http.ResponseWriter) error {
	return l.write(w)
}
func (l jsonList[T]) VisitGetExperimentRunResultPageChartsResponse(w http.ResponseWriter) error {
	return l.write(w)
}

// listBatch is how many items of a list are read in one turn of the
// world's lock.
const listBatch = 256

// batches yields the items fill produces, calling it under the world's lock
// for up to listBatch items at a time: a long list is read in short turns
// of the lock and never held whole. fill appends the items after cursor to
// batch and returns them, the cursor after them and whether more may
// follow. A list read this way is not a snapshot: an item added or removed
// while it is written may or may not be in it.
func batches[T any](w *world, fill func(now time.Time, cursor int64, batch []T) ([]T, int64, bool)) iter.Seq[T] {
	return func(yield func(T) bool) {
		batch := make([]T, 0, listBatch)
		var cursor int64
		for more := true; more; {
			now := w.lock()
			batch, cursor, more = fill(now, cursor, batch[:0])
			w.unlock()
			for _, item := range batch {
				if !yield(item) {
					return
				}
			}
		}
	}
}

// scenarioList lists the scenarios of a project in id order, as getScenarios
// answers them, from the project's index: the other projects' scenarios
// cost nothing.
func (w *world) scenarioList(projectID ids.ProjectID) jsonList[gen.ApiScenarioData] {
	return jsonList[gen.ApiScenarioData](batches(w, func(_ time.Time, after int64, batch []gen.ApiScenarioData) ([]gen.ApiScenarioData, int64, bool) {
		scenarios := w.projectScenarioIDs(projectID)
		i, _ := slices.BinarySearch(scenarios, ids.ScenarioID(after+1))
		for ; i < len(scenarios) && len(batch) < listBatch; i++ {
			batch, after = append(batch, scenarioData(w.scenarios[scenarios[i]])), int64(scenarios[i])
		}
		return batch, after, i < len(scenarios)
	}))
}

// runList lists the listed runs of a scenario's experiments in id order,
// as getExperimentRunsForScenario answers them: each experiment's runs are
// in id order, so each batch takes the next runs of all of them, after the
// last run looked at.
func (w *world) runList(scenarioID ids.ScenarioID) jsonList[gen.ApiBasicRun] {
	return jsonList[gen.ApiBasicRun](batches(w, func(now time.Time, after int64, batch []gen.ApiBasicRun) ([]gen.ApiBasicRun, int64, bool) {
		runs := w.runsAfter(scenarioID, ids.RunID(after), listBatch)
		for _, id := range runs {
			if r := w.runs[id]; r.listed(now) {
				batch = append(batch, r.basic())
			}
		}
		if len(runs) == 0 {
			return batch, after, false
		}
		return batch, int64(runs[len(runs)-1]), len(runs) == listBatch
	}))
}

// runsAfter returns the ids of up to n runs of the scenario's experiments
// after the run id after, in order.
func (w *world) runsAfter(scenarioID ids.ScenarioID, after ids.RunID, n int) []ids.RunID {
	var out []ids.RunID
	for _, rcID := range w.scenarioRCs(scenarioID) {
		rc := w.rcs[rcID]
		from, _ := slices.BinarySearch(rc.runs, after+1)
		out = append(out, rc.runs[from:from+min(n, len(rc.runs)-from)]...)
	}
	slices.Sort(out)
	return out[:min(n, len(out))]
}

// countedList lists n items made by item, 1-based, without a lock: for
// lists that come from the options alone.
func countedList[T any](n int64, item func(i int64) T) jsonList[T] {
	return func(yield func(T) bool) {
		for i := int64(1); i <= n; i++ {
			if !yield(item(i)) {
				return
			}
		}
	}
}
