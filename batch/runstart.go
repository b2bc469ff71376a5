package batch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

// startOptions are what the item's start tells the facade: the scenario,
// the type and the project, with which a status that shows no end can
// still be told to be a run under way (facade.ExperimentsService.Activity).
func (w *worker) startOptions(s ItemState) *facade.StartOptions {
	return &facade.StartOptions{ProjectID: w.it.Project, ScenarioID: s.ScenarioID, Type: w.it.Experiment}
}

// startRun starts the item's run. What tells the new run from earlier ones
// (its resume token: the scenario's runs and the status before the start)
// is recorded, with the start marked as sent, before the start goes out; a
// start recorded as sent is settled by reconcileRun, never sent again on a
// guess. While the configuration has a run under way that the batch did
// not start (facade.ErrRunUnderWay: Prepare saw it, or the server refused
// the start), the item queues behind it, then prepares again: a refusal is
// neither a failure nor an unknown, and that run is never taken for the
// item's.
func (w *worker) startRun(ctx context.Context) error {
	s := w.state()
	switch {
	case s.RunStarted:
		return nil
	case s.RunSent:
		return w.reconcileRun(ctx, s)
	}
	for {
		err := w.startOnce(ctx, s)
		if !errors.Is(err, facade.ErrRunUnderWay) {
			return err
		}
		if err := w.queueBehind(ctx, s.RcID, err); err != nil {
			return err
		}
	}
}

// startOnce prepares the start, records its token as sent, and sends it,
// once. A start refused, or failed before it could be applied, is
// recorded as not sent; one whose answer was lost is settled.
func (w *worker) startOnce(ctx context.Context, s ItemState) error {
	opts := w.startOptions(s)
	run, err := w.r.c.Experiments.Prepare(ctx, s.RcID, opts)
	if err != nil {
		return err
	}
	token, err := run.ResumeToken()
	if err != nil {
		return err
	}
	if err := w.update(func(s *ItemState) { s.RunSent, s.RunToken, s.RunOrigin = true, token, nil }); err != nil {
		return err
	}
	w.emitState(StepRun, "STARTING", time.Time{})
	err = w.r.c.Experiments.StartPrepared(ctx, run, opts)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied):
		return w.reconcileRun(ctx, w.state())
	case err != nil:
		if uerr := w.update(func(s *ItemState) { s.RunSent, s.RunToken = false, "" }); uerr != nil {
			return uerr
		}
		return err
	}
	if token, err = run.ResumeToken(); err != nil { // its start is now the send's time
		return err
	}
	return w.update(func(s *ItemState) { s.RunStarted, s.RunToken = true, token })
}

// queueBehind waits for a run of the item's configuration that the batch
// did not start (refusal says how it was seen) to end, without stopping
// it and giving up the item's place among those under way, then for one
// stale window more (a status lags behind a start: the next run of a
// queue may not show yet).
func (w *worker) queueBehind(ctx context.Context, rcID ids.RcID, refusal error) error {
	since := w.r.opts.Now()
	w.emitState(StepQueue, fmt.Sprintf("waiting for a run of rcId %d that this batch did not start", rcID), since)
	w.slot.give()
	opts := w.waitOptions()
	other := &facade.WaitOptions{Policy: opts.Policy, StaleWindow: opts.StaleWindow} // never stops it
	_, err := w.r.c.Run(rcID).Wait(ctx, other)
	var ended *facade.StateError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%w: %w (%w)", errInterrupted, ctx.Err(), refusal)
	case err != nil && !errors.As(err, &ended):
		return err
	}
	if err := w.pause(ctx, staleWindow(opts)); err != nil {
		return fmt.Errorf("%w: %w", errInterrupted, err)
	}
	if err := w.slot.take(ctx); err != nil {
		return fmt.Errorf("%w: %w", errInterrupted, err)
	}
	return nil
}

// staleWindow is the stale window of the options, the facade's default
// when they declare none.
func staleWindow(o *facade.WaitOptions) time.Duration {
	if o.StaleWindow > 0 {
		return o.StaleWindow
	}
	return facade.DefaultStaleWindow
}

// pause waits d on the batch's clock, or until ctx ends.
func (w *worker) pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-w.r.opts.Clock.After(d):
		return nil
	}
}

// reconcileRun settles a start that was sent without its answer being
// recorded, from its resume token (facade.ExperimentsService.Began, which waits out the
// status's lag after a start, and the item's declared run length):
// began, and it is waited for; not begun (only with a declared run
// length), and it is sent again, once; unknown (facade.ErrStartUnknown),
// and the item is Unknown, with nothing sent, until a batch with
// RetryFailed, which sends it again if the server still cannot tell. A
// start recorded without evidence (by an early version) is unknown.
func (w *worker) reconcileRun(ctx context.Context, s ItemState) error {
	began, err := w.began(ctx, s)
	switch {
	case errors.Is(err, facade.ErrStartUnknown) && w.restart:
		w.restart = false
		if err := w.update(func(s *ItemState) { s.clearRun() }); err != nil {
			return err
		}
		return w.startRun(ctx)
	case err != nil:
		return err
	case began:
		return w.update(func(s *ItemState) { s.RunStarted = true })
	}
	if err := w.update(func(s *ItemState) { s.clearRun() }); err != nil {
		return err
	}
	if w.resent {
		opts := w.waitOptions()
		return fmt.Errorf("runExperiment of rcId %d was sent twice, and each time the server showed that it took no effect: no new run listed, under way or ended within the declared maxRunLength (%v) and staleWindow (%v) after it",
			s.RcID, opts.MaxRunLength, staleWindow(opts))
	}
	w.resent = true
	return w.startRun(ctx)
}

// began asks the server whether the item's recorded start took effect.
func (w *worker) began(ctx context.Context, s ItemState) (bool, error) {
	if !s.hasRunEvidence() {
		return false, &facade.StartUnknownError{Operation: "runExperiment", Subject: fmt.Sprintf("rcId %d", s.RcID),
			Reason: "an early version of the batch sent it without recording what the server showed before it",
			Check:  fmt.Sprintf("whether rcId %d ran since the item's start (scm status %d, and its scenario's runs); a batch with --retry-failed starts it anew", s.RcID, s.RcID)}
	}
	run, err := w.itemRun(s)
	if err != nil {
		return false, err
	}
	state := "SETTLING: the answer to the start was lost; asking the server whether it took effect"
	if weak := facade.EvidenceOf(run).Weak; weak != "" {
		state += ", on evidence " + weak
	}
	w.emitState(StepRun, state, w.r.opts.Now())
	return w.r.c.Experiments.Began(ctx, run, w.waitOptions())
}
