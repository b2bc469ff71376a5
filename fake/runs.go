package fake

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// run is one run of an experiment. Its state is a function of the clock: queued
// at the instant it starts, running with linear progress, then finished (or
// failed, in a scenario with validation errors) once the run duration has
// passed, unless stopped before.
type run struct {
	id, rcID, scenarioID int64
	typ                  gen.ExperimentType
	started              time.Time
	duration             time.Duration
	stopped              *time.Time
	fails                bool
	stop                 chan struct{} // closed when stopped
}

func (r *run) state(now time.Time) (gen.ExecutionStateValue, float64) {
	at := now
	if r.stopped != nil {
		at = *r.stopped
	}
	elapsed := at.Sub(r.started)
	switch {
	case r.stopped == nil && elapsed >= r.duration && r.fails:
		return gen.ExecutionStateValueFAILED, 100
	case r.stopped == nil && elapsed >= r.duration:
		return gen.ExecutionStateValueFINISHED, 100
	case r.stopped != nil:
		return gen.ExecutionStateValueSTOPPED, progress(elapsed, r.duration)
	case elapsed <= 0:
		return gen.ExecutionStateValueQUEUED, 0
	}
	return gen.ExecutionStateValueRUNNING, progress(elapsed, r.duration)
}

func progress(elapsed, total time.Duration) float64 {
	if total <= 0 || elapsed >= total {
		return 100
	}
	return round2(float64(elapsed) / float64(total) * 100)
}

// resultID is the id of the run's result: runs and results are numbered
// together.
func (r *run) resultID() int64 { return r.id - firstRunID + firstResultID }

func (r *run) active(now time.Time) bool {
	st, _ := r.state(now)
	return st == gen.ExecutionStateValueQUEUED || st == gen.ExecutionStateValueRUNNING
}

func (r *run) finished(now time.Time) bool {
	st, _ := r.state(now)
	return st == gen.ExecutionStateValueFINISHED
}

func (r *run) endedAt(now time.Time) *time.Time {
	if r.stopped != nil {
		return r.stopped
	}
	if end := r.started.Add(r.duration); !now.Before(end) {
		return &end
	}
	return nil
}

func (r *run) executionState(now time.Time) gen.ExecutionState {
	st, p := r.state(now)
	es := gen.ExecutionState{RcId: r.rcID, RunId: ptr(r.id), State: st, Progress: ptr(p), StartedAt: ptr(r.started.UTC()), FinishedAt: utcPtr(r.endedAt(now))}
	if st == gen.ExecutionStateValueFAILED {
		es.Message = ptr("the scenario has validation errors")
	}
	return es
}

func (r *run) basic(now time.Time) gen.ApiBasicRun {
	st, _ := r.state(now)
	b := gen.ApiBasicRun{Id: r.id, RcId: ptr(r.rcID), ScenarioId: ptr(r.scenarioID), ExperimentType: ptr(r.typ), State: &st, StartedAt: ptr(r.started.UTC()), FinishedAt: utcPtr(r.endedAt(now))}
	if st == gen.ExecutionStateValueFINISHED {
		b.ExperimentResultId = ptr(r.resultID())
	}
	return b
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	return ptr(t.UTC())
}

// lastRun returns the experiment's latest run, nil when it never ran.
func (w *world) lastRun(rc *runConfig) *run {
	if len(rc.runs) == 0 {
		return nil
	}
	return w.runs[rc.runs[len(rc.runs)-1]]
}

// finishedRun returns the experiment's latest finished run: the one its
// results come from.
func (w *world) finishedRun(rc *runConfig, now time.Time) (*run, error) {
	for i := len(rc.runs) - 1; i >= 0; i-- {
		if r := w.runs[rc.runs[i]]; r.finished(now) {
			return r, nil
		}
	}
	return nil, notFound("rcId %d: the experiment has no finished run", rc.id)
}

// startRun starts a run of the experiment; a run in progress is a conflict.
func (w *world) startRun(ctx context.Context, rcID int64, now time.Time) (*run, error) {
	if !w.licensed[userFrom(ctx)] {
		return nil, errorf(http.StatusForbidden, "no license held: call requestLicense first")
	}
	rc, err := w.runConfig(rcID)
	if err != nil {
		return nil, err
	}
	if last := w.lastRun(rc); last != nil && last.active(now) {
		return nil, conflict("rcId %d: run %d is already running", rcID, last.id)
	}
	r := &run{id: w.nextRun, rcID: rcID, scenarioID: rc.scenarioID, typ: rc.typ,
		started: now, duration: w.cfg.runDuration, stop: make(chan struct{})}
	r.fails = w.scenarios[rc.scenarioID] != nil && w.scenarios[rc.scenarioID].broken
	w.nextRun++
	w.runs[r.id] = r
	rc.runs = append(rc.runs, r.id)
	return r, nil
}

func (s *service) RunExperiment(ctx context.Context, req gen.RunExperimentRequestObject) (gen.RunExperimentResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	r, err := w.startRun(ctx, req.Params.RcId, now)
	if err != nil {
		return nil, err
	}
	return gen.RunExperiment200JSONResponse(r.executionState(now)), nil
}

// RunExperimentSynchronously starts a run and answers when it has ended on
// the clock (finished, failed or stopped), or fails when the caller gives up.
func (s *service) RunExperimentSynchronously(ctx context.Context, req gen.RunExperimentSynchronouslyRequestObject) (gen.RunExperimentSynchronouslyResponseObject, error) {
	w := s.w
	now := w.lock()
	r, err := w.startRun(ctx, req.Params.RcId, now)
	w.unlock()
	if err != nil {
		return nil, err
	}
	for {
		now = w.lock()
		active, es := r.active(now), r.executionState(now)
		remaining := r.started.Add(r.duration).Sub(now)
		w.unlock()
		if !active {
			return w.syncRunAnswer(r, es), nil
		}
		select {
		case <-w.clock.After(remaining):
		case <-r.stop:
		case <-ctx.Done():
			return nil, errorf(http.StatusServiceUnavailable, "rcId %d: the caller gave up waiting for run %d", r.rcID, r.id)
		}
	}
}

// syncRunAnswer is what runExperimentSynchronously answers for an ended run:
// the experimentResultId of a finished run, null otherwise, and for a run of
// a scenario with validation errors validationStatus FAILED with the errors.
func (w *world) syncRunAnswer(r *run, es gen.ExecutionState) syncRunResponse {
	out := syncRunResponse{RcId: r.rcID, RunId: r.id, ExecutionState: es}
	if es.State == gen.ExecutionStateValueFINISHED {
		out.ExperimentResultId = ptr(r.resultID())
	}
	if r.fails {
		w.lock()
		errs, _ := validationFindings(w.scenarios[r.scenarioID])
		w.unlock()
		out.ValidationStatus, out.ValidationErrors = ptr("FAILED"), errs
	}
	return out
}

// syncRunResponse is the answer of runExperimentSynchronously. It writes
// experimentResultId as null when the run has no result, as the real server
// writes null into fields its own document calls required.
type syncRunResponse struct {
	ExperimentResultId *int64                   `json:"experimentResultId"`
	RcId               int64                    `json:"rcId"`
	RunId              int64                    `json:"runId"`
	ExecutionState     gen.ExecutionState       `json:"executionState"`
	ValidationStatus   *string                  `json:"validationStatus,omitempty"`
	ValidationErrors   []gen.ApiValidationError `json:"validationErrors,omitempty"`
}

func (r syncRunResponse) VisitRunExperimentSynchronouslyResponse(w http.ResponseWriter) error {
	return writeJSON(w, r)
}

// StopExperiment stops the running run; a run that already ended is answered
// as it is. An experiment that never ran is a conflict.
func (s *service) StopExperiment(_ context.Context, req gen.StopExperimentRequestObject) (gen.StopExperimentResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	r := w.lastRun(rc)
	if r == nil {
		return nil, conflict("rcId %d: the experiment has no run to stop", rc.id)
	}
	if r.active(now) {
		r.stopped = ptr(now)
		close(r.stop)
	}
	return gen.StopExperiment200JSONResponse(r.executionState(now)), nil
}

func (s *service) GetExperimentStatus(_ context.Context, req gen.GetExperimentStatusRequestObject) (gen.GetExperimentStatusResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	r := w.lastRun(rc)
	if r == nil {
		return gen.GetExperimentStatus200JSONResponse{RcId: rc.id, State: gen.ExecutionStateValueNOTSTARTED, Progress: ptr(0.0)}, nil
	}
	return gen.GetExperimentStatus200JSONResponse(r.executionState(now)), nil
}

func (s *service) GetExperimentRunsForScenario(_ context.Context, req gen.GetExperimentRunsForScenarioRequestObject) (gen.GetExperimentRunsForScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.scenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	return w.runList(req.Params.ScenarioId), nil
}

// scenarioRuns returns the runs of the scenario's experiments, oldest first,
// from the experiments' own lists: the cost does not grow with other
// scenarios' runs.
func (w *world) scenarioRuns(scenarioID int64) []*run {
	var out []*run
	for i := range experimentTypes {
		if rc := w.rcs[scenarioID*rcIDsPerScenario+int64(i+1)]; rc != nil {
			for _, id := range rc.runs {
				out = append(out, w.runs[id])
			}
		}
	}
	slices.SortFunc(out, func(a, b *run) int { return cmp.Compare(a.id, b.id) })
	return out
}
