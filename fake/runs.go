package fake

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// run is one run of an experiment. Its id is also the experimentResultId of
// its result. Its state is a function of the clock: under way from the
// instant it starts, then finished (or failed, in a scenario with validation
// errors) once the run duration has passed, unless stopped before.
type run struct {
	id, rcID, scenarioID int64
	typ                  gen.ExperimentType
	seq                  int // its place among its experiment's runs, from 1
	started              time.Time
	duration             time.Duration
	stopped              *time.Time
	fails                bool
	stop                 chan struct{} // closed when stopped
}

// runState is where a run is in its lifecycle.
type runState int

const (
	runUnderWay runState = iota
	runFinished
	runFailed
	runStopped
)

func (r *run) state(now time.Time) runState {
	switch {
	case r.stopped != nil:
		return runStopped
	case now.Sub(r.started) < r.duration:
		return runUnderWay
	case r.fails:
		return runFailed
	}
	return runFinished
}

func progress(elapsed, total time.Duration) float64 {
	if total <= 0 || elapsed >= total {
		return 100
	}
	return round2(float64(elapsed) / float64(total) * 100)
}

func (r *run) active(now time.Time) bool   { return r.state(now) == runUnderWay }
func (r *run) finished(now time.Time) bool { return r.state(now) == runFinished }

// failureText is why a run of a scenario with validation errors failed.
const failureText = "The scenario has validation errors"

// idleState is the ExecutionState of an experiment that never ran.
func idleState() gen.ExecutionState {
	return gen.ExecutionState{Failed: ptr(false), Finished: ptr(false), Terminal: ptr(false),
		GenericState: gen.ExecutionStateGenericStateIDLE, Step: gen.ExecutionStateStepIDLE}
}

// executionState answers the run's state in the booleans of ExecutionState.
// A finished run reads finished true, terminal false and IDLE, as a real
// server answered; the other states are the fake's inference.
func (r *run) executionState(now time.Time) gen.ExecutionState {
	es := idleState()
	switch r.state(now) {
	case runUnderWay:
		es.GenericState, es.Step = gen.ExecutionStateGenericStateRUNNING, gen.ExecutionStateStepRUNNING
	case runFinished:
		es.Finished = ptr(true)
	case runFailed:
		es.Failed, es.Terminal, es.Text = ptr(true), ptr(true), ptr(failureText)
	case runStopped:
		es.StopTrigger, es.Terminal = true, ptr(true)
	}
	return es
}

// hasOptions tells whether results of an experiment type have result
// options (iterations): those of network optimization and variation.
func hasOptions(typ gen.ExperimentType) bool {
	return typ == gen.ExperimentTypeNETWORKOPTIMIZATION || typ == gen.ExperimentTypeVARIATION
}

// basic answers the run as getExperimentRunsForScenario lists it: named
// Statistics, Statistics 2, ... per experiment.
func (r *run) basic() gen.ApiBasicRun {
	name := "Statistics"
	if r.seq > 1 {
		name += " " + itoa(int64(r.seq))
	}
	return gen.ApiBasicRun{HasOptions: hasOptions(r.typ), Id: r.id, Name: name, RcId: r.rcID,
		Removing: false, ScenarioId: r.scenarioID, Type: r.typ}
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

// runnable checks that the user may run the experiment: a license is
// needed (without one the real server answers "Access is denied"), and no
// run of it may be under way.
func (w *world) runnable(ctx context.Context, rcID int64, now time.Time) (*runConfig, error) {
	if !w.licensed[userFrom(ctx)] {
		return nil, failure(msgAccessDenied)
	}
	rc, err := w.runConfig(rcID)
	if err != nil {
		return nil, err
	}
	if last := w.lastRun(rc); last != nil && last.active(now) {
		return nil, failure("rcId %d: run %d is already running", rcID, last.id)
	}
	return rc, nil
}

// startRun starts a run of the experiment.
func (w *world) startRun(rc *runConfig, now time.Time) *run {
	r := &run{id: w.nextRun, rcID: rc.id, scenarioID: rc.scenarioID, typ: rc.typ, seq: len(rc.runs) + 1,
		started: now, duration: w.cfg.runDuration, stop: make(chan struct{})}
	r.fails = w.scenarios[rc.scenarioID].broken
	w.nextRun++
	w.runs[r.id] = r
	rc.runs = append(rc.runs, r.id)
	return r
}

// RunExperiment starts a run and answers ApiRunExperiment, which names the
// run configuration (animationModelId) and its type, not the run.
func (s *service) RunExperiment(ctx context.Context, req gen.RunExperimentRequestObject) (gen.RunExperimentResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runnable(ctx, req.Params.RcId, now)
	if err != nil {
		return nil, err
	}
	w.startRun(rc, now)
	return gen.RunExperiment200JSONResponse{AnimationModelId: rc.id, ExperimentTypeId: rc.typ, Is3dAnimation: false}, nil
}

// RunExperimentSynchronously answers when the run has ended on the clock,
// with its id as experimentResultId. A scenario with validation errors runs
// nothing: the answer is HAS_ERRORS at once, with the rcId as
// experimentResultId, as the real server answered.
func (s *service) RunExperimentSynchronously(ctx context.Context, req gen.RunExperimentSynchronouslyRequestObject) (gen.RunExperimentSynchronouslyResponseObject, error) {
	w := s.w
	now := w.lock()
	rc, err := w.runnable(ctx, req.Params.RcId, now)
	if err != nil {
		w.unlock()
		return nil, err
	}
	if sc := w.scenarios[rc.scenarioID]; sc.broken {
		errs, warnings := validationFindings(sc)
		w.unlock()
		return gen.RunExperimentSynchronously200JSONResponse{ExperimentResultId: rc.id,
			ValidationStatus: gen.ApiExperimentResultValidationStatusHASERRORS, ValidationErrors: &errs, ValidationWarnings: &warnings}, nil
	}
	r := w.startRun(rc, now)
	w.unlock()
	if err := w.awaitRun(ctx, r); err != nil {
		return nil, err
	}
	return gen.RunExperimentSynchronously200JSONResponse{ExperimentResultId: r.id,
		ValidationStatus: gen.ApiExperimentResultValidationStatusOK}, nil
}

// awaitRun waits on the clock until the run has ended, and fails unless it
// finished.
func (w *world) awaitRun(ctx context.Context, r *run) error {
	for {
		now := w.lock()
		st, remaining := r.state(now), r.started.Add(r.duration).Sub(now)
		w.unlock()
		switch st {
		case runFinished:
			return nil
		case runStopped:
			return failure("rcId %d: run %d was stopped", r.rcID, r.id)
		case runFailed:
			return failure("rcId %d: run %d failed: %s", r.rcID, r.id, failureText)
		}
		select {
		case <-w.clock.After(remaining):
		case <-r.stop:
		case <-ctx.Done():
			return failure("rcId %d: the caller gave up waiting for run %d", r.rcID, r.id)
		}
	}
}

// StopExperiment stops the run under way; a run that already ended is
// answered as it is. An experiment that never ran has nothing to stop.
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
		return nil, failure("rcId %d: the experiment has no run to stop", rc.id)
	}
	if r.active(now) {
		r.stopped = ptr(now)
		close(r.stop)
	}
	return gen.StopExperiment200JSONResponse(r.executionState(now)), nil
}

// GetExperimentStatus answers the state of the experiment's latest run.
func (s *service) GetExperimentStatus(_ context.Context, req gen.GetExperimentStatusRequestObject) (gen.GetExperimentStatusResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	if r := w.lastRun(rc); r != nil {
		return gen.GetExperimentStatus200JSONResponse(r.executionState(now)), nil
	}
	return gen.GetExperimentStatus200JSONResponse(idleState()), nil
}

// GetExperimentRunsForScenario lists every run of the scenario's
// experiments that has started, oldest first.
func (s *service) GetExperimentRunsForScenario(_ context.Context, req gen.GetExperimentRunsForScenarioRequestObject) (gen.GetExperimentRunsForScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.scenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	out := gen.GetExperimentRunsForScenario200JSONResponse{}
	for _, r := range w.scenarioRuns(req.Params.ScenarioId) {
		out = append(out, r.basic())
	}
	return out, nil
}

// scenarioRuns returns the runs of the scenario's experiments, oldest first,
// from the experiments' own lists: the cost does not grow with other
// scenarios' runs.
func (w *world) scenarioRuns(scenarioID int64) []*run {
	var out []*run
	for _, rcID := range w.scenarioRCs(scenarioID) {
		for _, id := range w.rcs[rcID].runs {
			out = append(out, w.runs[id])
		}
	}
	slices.SortFunc(out, func(a, b *run) int { return cmp.Compare(a.id, b.id) })
	return out
}
