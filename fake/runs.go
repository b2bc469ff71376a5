package fake

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// run is one run of an experiment, with the ids the real server was
// recorded giving: the run's own id (ApiBasicRun.id, the runId of the
// convert operations), then its experimentResultId (id+1, ApiBasicRun.rcId),
// then the ids of its dashboard pages, each followed by its charts' ids:
// the first page is experimentResultId+2. Every run takes a new block of ids.
// Its state is a function of the clock: under way from the instant it
// begins, then finished (or failed, in a scenario with validation errors)
// once the run duration has passed, unless stopped before. A run queued
// behind another ([SecondStartQueued]) begins when that one ends.
type run struct {
	id         ids.RunID
	rcID       ids.RcID
	scenarioID ids.ScenarioID
	resultID   ids.ExperimentResultID // experimentResultId: id+1
	typ        gen.ExperimentType
	seq        int       // its number among the scenario's listed runs (Statistics N), from 1
	started    time.Time // when runExperiment started it
	after      *run      // the run it is queued behind, nil when it began at its start
	duration   time.Duration
	stopped    *time.Time
	fails      bool
	stop       chan struct{} // closed when stopped
}

// begins is when the run begins: at its start, or, queued, when the run
// before it ends.
func (r *run) begins() time.Time {
	if r.after == nil {
		return r.started
	}
	return r.after.ends()
}

// ends is when the run ends: when stopped, else when its duration has
// passed since it began.
func (r *run) ends() time.Time {
	if r.stopped != nil {
		return *r.stopped
	}
	return r.begins().Add(r.duration)
}

// runState is where a run is in its lifecycle.
type runState int

const (
	runUnderWay runState = iota
	runQueued
	runFinished
	runFailed
	runStopped
)

func (r *run) state(now time.Time) runState {
	switch {
	case r.stopped != nil:
		return runStopped
	case now.Before(r.begins()):
		return runQueued
	case now.Sub(r.begins()) < r.duration:
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

// active reports a run under way or queued: one that has not ended.
func (r *run) active(now time.Time) bool {
	st := r.state(now)
	return st == runUnderWay || st == runQueued
}

func (r *run) finished(now time.Time) bool { return r.state(now) == runFinished }

// failureText is why a run of a scenario with validation errors failed.
const failureText = "The scenario has validation errors"

// idleState is the ExecutionState of an experiment that never ran.
func idleState() gen.ExecutionState {
	return gen.ExecutionState{Failed: ptr(false), Finished: ptr(false), Terminal: ptr(false),
		GenericState: gen.ExecutionStateGenericStateIDLE, Step: gen.ExecutionStateStepIDLE}
}

// executionState answers the run's state in the booleans of ExecutionState.
// A finished run reads finished true, terminal false and IDLE, and one
// under way finished false and IDLE, as a real server answered (RUNNING
// with WithRunningMarked); the other states are the fake's inference.
func (r *run) executionState(now time.Time, runningMarked bool) gen.ExecutionState {
	es := idleState()
	switch r.state(now) {
	case runUnderWay:
		if runningMarked {
			es.GenericState, es.Step = gen.ExecutionStateGenericStateRUNNING, gen.ExecutionStateStepRUNNING
		}
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

// listed reports whether getExperimentRunsForScenario lists the run: once
// it has finished, and never for a VARIATION configuration, as recorded.
func (r *run) listed(now time.Time) bool {
	return r.typ != gen.ExperimentTypeVARIATION && r.finished(now)
}

// basic answers the run as getExperimentRunsForScenario lists it, in the
// recorded relation: id, the experimentResultId as rcId, and the name
// Statistics, Statistics 2, ... counting up per scenario.
func (r *run) basic() gen.ApiBasicRun {
	name := "Statistics"
	if r.seq > 1 {
		name += " " + itoa(int64(r.seq))
	}
	return gen.ApiBasicRun{HasOptions: hasOptions(r.typ), Id: r.id, Name: name, RcId: r.resultID,
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
// needed (without one the real server answers "Access is denied"), and,
// unless the fake takes a second start (WithSecondStart), no run of it may
// be under way.
func (w *world) runnable(ctx context.Context, rcID ids.RcID, now time.Time) (*runConfig, error) {
	if !w.licensed[userFrom(ctx)] {
		return nil, failure(msgAccessDenied)
	}
	rc, err := w.runConfig(rcID)
	if err != nil {
		return nil, err
	}
	if last := w.lastRun(rc); last != nil && last.active(now) && w.cfg.secondStart == SecondStartRefused {
		return nil, failure("rcId %d: run %d is already running", rcID, last.id)
	}
	return rc, nil
}

// startRun starts a run of the experiment, taking the next block of ids.
// Queued behind a run that has not ended ([SecondStartQueued]), it begins
// when that one ends.
func (w *world) startRun(rc *runConfig, now time.Time) *run {
	r := &run{id: w.nextRun, rcID: rc.id, scenarioID: rc.scenarioID, typ: rc.typ,
		started: now, duration: w.cfg.runDuration, stop: make(chan struct{})}
	if last := w.lastRun(rc); last != nil && last.active(now) && w.cfg.secondStart == SecondStartQueued {
		r.after = last
	}
	r.resultID = ids.ExperimentResultID(r.id + 1) // as a real server numbered them
	if r.typ != gen.ExperimentTypeVARIATION {
		w.runSeq[rc.scenarioID]++
		r.seq = w.runSeq[rc.scenarioID]
	}
	r.fails = w.scenarios[rc.scenarioID].broken || w.cfg.failingRuns[rc.id]
	w.nextRun = ids.RunID(w.pageID(r, w.dashboardPages(r)+1)) // the block ends before the next page would start
	w.runs[r.id] = r
	w.results[r.resultID] = r
	rc.runs = append(rc.runs, r.id)
	return r
}

// RunExperiment starts a run and answers ApiRunExperiment, which names the
// run configuration (animationModelId) and its type, not the run.
func (s *service) RunExperiment(ctx context.Context, req genserver.RunExperimentRequestObject) (genserver.RunExperimentResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runnable(ctx, req.Params.RcId, now)
	if err != nil {
		return nil, err
	}
	w.startRun(rc, now)
	return genserver.RunExperiment200JSONResponse{AnimationModelId: int64(rc.id), ExperimentTypeId: rc.typ, Is3dAnimation: false}, nil
}

// RunExperimentSynchronously answers when the run has ended on the clock,
// with its id as experimentResultId. A scenario with validation errors runs
// nothing: the answer is HAS_ERRORS at once, with the rcId as
// experimentResultId, as the real server answered.
func (s *service) RunExperimentSynchronously(ctx context.Context, req genserver.RunExperimentSynchronouslyRequestObject) (genserver.RunExperimentSynchronouslyResponseObject, error) {
	w := s.w
	now := w.lock()
	rc, err := w.runnable(ctx, req.Params.RcId, now)
	if err != nil {
		w.unlock()
		return nil, err
	}
	if sc := w.scenarios[rc.scenarioID]; sc.broken {
		errs := runValidationErrors(sc)
		w.unlock()
		return genserver.RunExperimentSynchronously200JSONResponse{ExperimentResultId: ids.ExperimentResultID(rc.id), // the rcId, as a real server answered
			ValidationStatus: gen.ApiExperimentResultValidationStatusHASERRORS, ValidationErrors: &errs}, nil
	}
	r := w.startRun(rc, now)
	w.unlock()
	if err := w.awaitRun(ctx, r); err != nil {
		return nil, err
	}
	return genserver.RunExperimentSynchronously200JSONResponse{ExperimentResultId: r.resultID,
		ValidationStatus: gen.ApiExperimentResultValidationStatusOK}, nil
}

// awaitRun waits on the clock until the run has ended, and fails unless it
// finished.
func (w *world) awaitRun(ctx context.Context, r *run) error {
	for {
		now := w.lock()
		st, remaining := r.state(now), r.ends().Sub(now)
		w.unlock()
		switch st {
		case runQueued:
			remaining = r.begins().Sub(now)
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

// StopExperiment stops the run under way (with [SecondStartBeside], every
// run under way; a queued run then begins), and answers the state of the
// last run it stopped; a run that already ended is answered as it is. An
// experiment that never ran has nothing to stop.
func (s *service) StopExperiment(_ context.Context, req genserver.StopExperimentRequestObject) (genserver.StopExperimentResponseObject, error) {
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
	var underWay []*run // found first: a queued run begins when the one it waits for stops
	for _, id := range rc.runs {
		if u := w.runs[id]; u.state(now) == runUnderWay {
			underWay = append(underWay, u)
		}
	}
	for _, u := range underWay {
		u.stopped, r = ptr(now), u
		close(u.stop)
	}
	return genserver.StopExperiment200JSONResponse(r.executionState(now, w.cfg.runningMarked)), nil
}

// GetExperimentStatus answers the state of the experiment's latest run
// that has begun; within the status lag of its beginning, what it answered
// before: the run before's end, or idle. With [SecondStartBeside] it is
// under way while any run shown is, else the end of the last run to end.
func (s *service) GetExperimentStatus(_ context.Context, req genserver.GetExperimentStatusRequestObject) (genserver.GetExperimentStatusResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	var shown *run
	for _, id := range rc.runs {
		r := w.runs[id]
		if !w.statusShows(r, now) {
			continue
		}
		if shown == nil || w.cfg.secondStart != SecondStartBeside || r.state(now) == runUnderWay ||
			shown.state(now) != runUnderWay && !r.ends().Before(shown.ends()) {
			shown = r
		}
	}
	if shown == nil {
		return genserver.GetExperimentStatus200JSONResponse(idleState()), nil
	}
	return genserver.GetExperimentStatus200JSONResponse(shown.executionState(now, w.cfg.runningMarked)), nil
}

// statusShows reports whether getExperimentStatus shows the run: once the
// status lag has passed since it began (the lag never outlasts the run),
// or once it was stopped.
func (w *world) statusShows(r *run, now time.Time) bool {
	return r.stopped != nil || !now.Before(r.begins()) && now.Sub(r.begins()) >= min(w.cfg.statusLag, r.duration)
}

// GetExperimentRunsForScenario lists the listed runs of the scenario's
// experiments (see run.listed), oldest first.
func (s *service) GetExperimentRunsForScenario(_ context.Context, req genserver.GetExperimentRunsForScenarioRequestObject) (genserver.GetExperimentRunsForScenarioResponseObject, error) {
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
func (w *world) scenarioRuns(scenarioID ids.ScenarioID) []*run {
	var out []*run
	for _, rcID := range w.scenarioRCs(scenarioID) {
		for _, id := range w.rcs[rcID].runs {
			out = append(out, w.runs[id])
		}
	}
	slices.SortFunc(out, func(a, b *run) int { return cmp.Compare(a.id, b.id) })
	return out
}
