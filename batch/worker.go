package batch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/internal/runshow"
	"github.com/scmodel/scmgo/internal/steps"

	"github.com/scmodel/scmgo/facade"
)

// worker takes one item through its steps. Each step first reads what the
// state file records and does nothing when its work is done; every id is
// written to the state file before the next call that depends on it.
type worker struct {
	r  *Runner
	it Item
	// retry: the item failed, or its outcome was unknown, in an earlier
	// batch and Options.RetryFailed asks to work on it again.
	retry bool
	// reimport: the earlier import's outcome is unknown and RetryFailed
	// allows importing again once the scenario is still not found.
	reimport bool
	// resent: a start that did not take effect was sent again already.
	resent bool
	// restart: the item's start was unknown in an earlier batch and
	// Options.RetryFailed asks to start it again if the server still
	// cannot tell.
	restart bool
	// slot is the item's place among the items under way.
	slot *slot
	// wasDone: the item was done; only its part of the dataset is
	// written, and its end is kept.
	wasDone bool
}

func (w *worker) run(ctx context.Context) {
	defer w.r.gate.forget(w.it.Name)
	ctx, end := steps.Start(w.r.c, ctx, "batch.item", w.it.Name, 0, 0)
	now := w.r.opts.Now()
	err := w.update(func(s *ItemState) {
		if w.retry {
			w.reimport, w.restart = s.forgetFailure()
		}
		w.wasDone = s.Status == Done
		s.Status, s.Error = Running, ""
		if !w.wasDone {
			s.Ended = nil
		}
		if s.Started == nil {
			s.Started = &now
		}
	})
	if err == nil {
		err = w.steps(ctx)
	}
	w.finish(ctx, err)
	end(err)
}

func (w *worker) steps(ctx context.Context) error {
	if err := w.sequence(ctx, w.scenario, w.experiment); err != nil {
		return err
	}
	if err := w.exclusive(ctx, w.startRun, w.waitRun, w.result); err != nil {
		return err
	}
	return w.sequence(ctx, w.export, w.data)
}

func (w *worker) sequence(ctx context.Context, steps ...func(context.Context) error) error {
	for _, step := range steps {
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// exclusive runs steps using the item's run configuration alone among the
// items of the batch; while another item uses it, the item queues and
// gives up its place among the items under way. An item whose result is
// known has nothing to run.
func (w *worker) exclusive(ctx context.Context, steps ...func(context.Context) error) error {
	s := w.state()
	if s.ExperimentResultID != 0 {
		return nil
	}
	release, err := w.r.gate.enter(ctx, s.RcID, w.it.Name, func(holder string) {
		w.slot.give()
		w.emitState(StepQueue, fmt.Sprintf("waiting for run configuration %d, in use by item %s", s.RcID, holder), w.r.opts.Now())
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errInterrupted, err)
	}
	defer release()
	if err := w.slot.take(ctx); err != nil {
		return fmt.Errorf("%w: %w", errInterrupted, err)
	}
	return w.sequence(ctx, steps...)
}

// finish records how the item ended and reports it.
func (w *worker) finish(ctx context.Context, err error) {
	var stateErr *facade.StateError
	status := Done
	switch {
	case err == nil:
	case errors.Is(err, errInterrupted), ctx.Err() != nil && !errors.As(err, &stateErr):
		status = Interrupted
	case errors.Is(err, facade.ErrStartUnknown):
		status = Unknown
	default:
		status = Failed
	}
	end := w.r.opts.Now()
	saveErr := w.update(func(s *ItemState) {
		s.Status = status
		if err != nil {
			s.Error = err.Error()
		}
		if status != Interrupted && !(status == Done && w.wasDone) {
			s.Ended = &end
		}
	})
	w.r.emit(Event{Item: w.it.Name, Step: StepEnd, Status: status, Err: errors.Join(err, saveErr)})
}

// forgetFailure clears what must be done anew to retry a failed item: a job
// or run that ended badly, a run whose result could not be told from
// another's (an ambiguous facade.StartUnknownError). It reports whether an import, or
// a start, of unknown outcome may be sent again once the server still
// cannot tell.
func (s *ItemState) forgetFailure() (reimport, restart bool) {
	if s.jobFailed() {
		s.ImportSent, s.KnownScenarios, s.JobID, s.JobStatus = false, nil, 0, ""
	}
	if s.runFailed() || s.Status == Unknown && s.RunStarted && s.RunState == "" {
		s.clearRun()
	}
	return s.Status == Unknown && s.ImportSent && s.JobID == 0 && s.ScenarioID == 0,
		s.Status == Unknown && s.RunSent && !s.RunStarted
}

func (s *ItemState) clearRun() {
	s.RunSent, s.RunStarted, s.RunID, s.RunState, s.RunToken, s.RunOrigin = false, false, 0, "", "", nil
}

func (w *worker) state() ItemState { return w.r.st.get(w.it.Name) }

func (w *worker) update(change func(*ItemState)) error { return w.r.st.update(w.it.Name, change) }

// emit reports a step's state with its measured progress.
func (w *worker) emit(step Step, state string, percent float64) {
	w.r.emit(Event{Item: w.it.Name, Step: step, Status: Running, State: state, Percent: percent, Measured: true})
}

// emitState reports a step's state where no progress is measured; since
// is when its work began, zero when not known.
func (w *worker) emitState(step Step, state string, since time.Time) {
	w.r.emit(Event{Item: w.it.Name, Step: step, Status: Running, State: state, Since: since})
}

// waitEnded handles a wait for a job or run that ended with err: a bad end
// is recorded by ended, a stop on Ctrl-C by stopped.
func (w *worker) waitEnded(ctx context.Context, err error, stopped func(*ItemState), ended func(*ItemState, string)) error {
	var se *facade.StateError
	switch {
	case errors.As(err, &se):
		if uerr := w.update(func(s *ItemState) { ended(s, se.State) }); uerr != nil {
			return uerr
		}
		return err
	case ctx.Err() == nil:
		return err
	case w.r.opts.StopOnCancel && !runshow.StopFailed(err):
		if uerr := w.update(stopped); uerr != nil {
			return uerr
		}
	}
	return fmt.Errorf("%w: %w", errInterrupted, err)
}

func (w *worker) experiment(ctx context.Context) error {
	s := w.state()
	if s.RcID != 0 {
		return nil
	}
	w.emitState(StepExperiment, string(w.it.Experiment), time.Time{})
	rcID, err := w.r.c.Experiments.Find(ctx, w.it.Project, s.ScenarioID, w.it.Experiment, w.it.ExperimentName)
	if err != nil {
		return err
	}
	return w.update(func(s *ItemState) { s.RcID = rcID })
}

func (w *worker) result(ctx context.Context) error {
	s := w.state()
	if s.ExperimentResultID != 0 {
		return nil
	}
	w.emitState(StepResult, "", time.Time{})
	if !s.hasRunEvidence() {
		return fmt.Errorf("the run of rcId %d was started by an earlier version of the batch, which did not record its origin: its result cannot be told from an earlier run's; start the item anew", s.RcID)
	}
	run, err := w.itemRun(s)
	if err != nil {
		return err
	}
	if facade.EvidenceOf(run).End == "" { // its end was recorded by a release whose token did not carry the decision
		if err := w.decide(ctx, run); err != nil {
			return err
		}
	}
	id, err := run.ResultID()
	if err != nil {
		return err
	}
	entry := facade.EvidenceOf(run).Entry
	return w.update(func(s *ItemState) { s.ExperimentResultID, s.RunID = id, entry.Id })
}
