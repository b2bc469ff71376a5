package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// prepareRun (scm.PrepareRun) finds the scenario's experiment of the type
// and reads the evidence of the item's run to come
// (facade.ExperimentsService.Prepare, with the project, so that a status
// that shows no end can still be told to be a run under way), returned as
// a resume token. It changes nothing; the token goes into the workflow's
// history before StartRun sends anything.
//
// It refuses a VARIATION experiment for good ([ErrTypeNotListed]): the
// server never lists such runs, so the result of the item's run could not
// be found. While the experiment has a run under way
// (facade.ExperimentsService.Activity, the one rule) it fails with
// [ErrTypeRunUnderWay], and the workflow waits and prepares again: that
// run is no item's, and is never adopted.
func (a *Activities) prepareRun(ctx context.Context, in wire.PrepareInput) (wire.Prepared, error) {
	if in.Experiment == gen.ExperimentTypeVARIATION {
		msg := fmt.Sprintf("scenario %d: the server does not list %s runs, so the result of the item's run could not be found; run it with facade.ExperimentsService.RunSync, which answers its result id", in.ScenarioID, in.Experiment)
		return wire.Prepared{}, temporal.NewNonRetryableApplicationError(msg, ErrTypeNotListed, nil)
	}
	rcID, err := a.Client.Experiments.Find(ctx, in.ProjectID, in.ScenarioID, in.Experiment, in.ExperimentName)
	if err != nil {
		return wire.Prepared{}, classify(err)
	}
	opts := &facade.StartOptions{ProjectID: in.ProjectID, ScenarioID: in.ScenarioID, Type: in.Experiment}
	act, _, err := a.Client.Experiments.Activity(ctx, rcID, opts)
	switch {
	case err != nil:
		return wire.Prepared{}, classify(err)
	case act == facade.ActivityUnderWay:
		return wire.Prepared{}, classify(fmt.Errorf("scmtemporal: rcId %d: %w, which no item started: the item starts its own once it has ended", rcID, facade.ErrRunUnderWay))
	}
	run, err := a.Client.Experiments.Prepare(ctx, rcID, opts)
	if err != nil {
		return wire.Prepared{}, classify(err)
	}
	token, err := run.ResumeToken()
	if err != nil {
		return wire.Prepared{}, classify(err)
	}
	subject, err := facade.TokenSubject(token)
	if err != nil {
		return wire.Prepared{}, tokenError(err)
	}
	if err := a.checkClock(subject.Started); err != nil {
		return wire.Prepared{}, err
	}
	return wire.Prepared{RcID: rcID, Token: token, EndBefore: act == facade.ActivityIdle}, nil
}

// resume resumes the run of a token, refusing for good one that is not the
// run of the item (facade.TokenSubject): another configuration, scenario or
// type.
func (a *Activities) resume(in wire.RunInput) (*facade.Run, error) {
	subject, err := facade.TokenSubject(in.Token)
	if err != nil {
		return nil, tokenError(err)
	}
	want := facade.RunSubject{RcID: in.Subject.RcID, ScenarioID: in.Subject.ScenarioID, Type: in.Subject.Experiment}
	if subject.RcID != want.RcID || subject.ScenarioID != want.ScenarioID || subject.Type != want.Type {
		msg := fmt.Sprintf("scmtemporal: the resume token is the run of %s, not the item's %s: the workflow's state was edited, or made by another version", subject, want)
		return nil, temporal.NewNonRetryableApplicationError(msg, ErrTypeResumeToken, nil)
	}
	run, err := a.Client.ResumeRunFromToken(in.Token)
	return run, tokenError(err)
}

// tokenError classes the failure to read a resume token: one this SDK
// does not read, or not for this client's server ([facade.ErrValidation]),
// is [ErrTypeResumeToken], for good.
func tokenError(err error) error {
	if errors.Is(err, facade.ErrValidation) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeResumeToken, err)
	}
	return classify(err)
}

// startRun (scm.StartRun) sends the item's run's start (runExperiment) at
// most once across its attempts, and returns its resume token with the
// time it was sent. Every attempt that is to send marks so first
// (wire.SendMark). A retry that finds an earlier attempt's mark first asks
// the server what the earlier attempts did (facade.ExperimentsService.Began, with
// Options.MaxRunLength): began, and it sends nothing (Settled); not begun,
// and it sends the start; unknown, and the item stops with a non-retryable
// [ErrTypeStartUnknown] error saying what to check on the server. A retry
// that finds no confirmed mark, or that follows an attempt that failed
// knowing that its start did not reach the server, sends without asking.
// A start the server refuses because a run is under way sent nothing: the
// attempt says so in its last heartbeat and fails with
// [ErrTypeRunUnderWay], and the workflow prepares again.
func (a *Activities) startRun(ctx context.Context, in wire.RunInput) (wire.Started, error) {
	run, err := a.resume(in)
	if err != nil {
		return wire.Started{}, err
	}
	var prev wire.StartProgress
	had := details(ctx, &prev)
	hb := wire.StartProgress{SendMark: a.marked(prev.SendMark)}
	beat := newBeater(ctx)
	defer beat.stop()
	if a.mayHaveSent(ctx, had, prev.SendMark) && !notSentBefore(ctx, prev.NotSentBy) {
		hb.SettlingSince = prev.SettlingSince
		if hb.SettlingSince.IsZero() {
			hb.SettlingSince = a.now()
		}
		beat.set(hb)
		began, err := a.Client.Experiments.Began(ctx, run, a.settleOptions(in.Options, hb.SettlingSince))
		switch {
		case err != nil:
			return wire.Started{}, classify(err)
		case began:
			return wire.Started{Token: in.Token, Settled: true}, nil
		}
	} else {
		// Confirmed before any heartbeat of the attempt carries it, so an
		// attempt that dies before this point leaves no mark: its retry
		// sends. The heartbeats go out beside the send, so that only the
		// send itself follows the confirmation.
		if err := a.confirmMark(ctx, hb); err != nil {
			return wire.Started{}, err
		}
		beat.setBeside(hb)
	}
	return a.send(ctx, beat, run, in.Token)
}

// settleOptions are Began's options for a retry whose first settling
// attempt began at since: a declared MaxRunLength counts from there, so
// that attempts killed one after another while they settle end within one
// window (the facade counts it from the later of the start and now). Any
// start an earlier attempt sent was sent before since.
func (a *Activities) settleOptions(o wire.Options, since time.Time) *facade.WaitOptions {
	opts := o.WaitOptions()
	if opts.MaxRunLength > 0 {
		opts.MaxRunLength = max(since.Add(opts.MaxRunLength).Sub(a.now()), time.Millisecond)
	}
	return opts
}

// send sends the start and returns the run's token, as of the send.
func (a *Activities) send(ctx context.Context, beat *beater, run *facade.Run, token string) (wire.Started, error) {
	err := a.Client.Experiments.StartPrepared(ctx, run, nil)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied), err != nil && ctx.Err() != nil:
		return wire.Started{}, err // the retry settles it
	case err != nil:
		// Refused (a run under way, ErrRunUnderWay, among others): no
		// start of the item's run took effect (this one was sent only once
		// that was known), and the failure carries it.
		beat.set(wire.StartProgress{SendMark: wire.SendMark{Marked: true}, NotSentBy: activity.GetInfo(ctx).Attempt})
		return wire.Started{}, classify(err)
	}
	sent, err := run.ResumeToken()
	if err != nil {
		return wire.Started{Token: token}, nil // sent: the evidence read before it still tells the run
	}
	return wire.Started{Token: sent}, nil
}

// waitRun (scm.WaitRun) waits for the item's run, heartbeating its state,
// and returns its run id and experimentResultId: this start's, never
// another run's (facade.Run's rules). It changes nothing, so a retry on
// another worker simply waits again. It only stops waiting when cancelled;
// the workflow stops the run when its options ask for it.
func (a *Activities) waitRun(ctx context.Context, in wire.RunInput) (wire.RunOutput, error) {
	run, err := a.resume(in)
	if err != nil {
		return wire.RunOutput{}, err
	}
	var hb wire.RunProgress
	details(ctx, &hb)
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(hb)
	for st, err := range run.States(ctx, in.Options.WaitOptions()) {
		if err != nil {
			return wire.RunOutput{State: hb.State}, classify(err)
		}
		hb.State, hb.Polls = string(facade.RunStateValue(st)), hb.Polls+1
		beat.set(hb)
	}
	return runOutput(run, hb.State)
}

// runOutput takes the run's ids from its entry among the scenario's runs
// (facade.RunEvidence.Entry), which the wait found once it decided the
// run's end: a retry waits, and looks, again.
func runOutput(run *facade.Run, state string) (wire.RunOutput, error) {
	out := wire.RunOutput{State: state}
	id, err := run.ResultID()
	if err != nil {
		return out, classify(err)
	}
	out.RunID, out.ExperimentResultID = facade.EvidenceOf(run).Entry.Id, id
	return out, nil
}

// stopRun (scm.StopRun) stops the item's run if it is under way, and
// reports whether it did. stopExperiment names no run: it stops the
// configuration's run under way. So the run is stopped only when it is the
// item's as far as anything can tell: StartRun returned (the start took
// effect), its start shows (facade.ExperimentsService.Began, which waits out the status's
// lag), the one rule (facade.ExperimentsService.Activity) does not show an
// end, and no other client's run can be under way: the status showed an
// end when the run was prepared, or it marks a run under way (so a run
// under way then would have shown). A first run on a server that shows a
// run under way as it shows none cannot be told from another client's
// first run, and is left to finish, as is a start whose effect cannot be
// told.
func (a *Activities) stopRun(ctx context.Context, in wire.StopInput) (bool, error) {
	run, err := a.resume(in.Run)
	if err != nil {
		return false, err
	}
	if !in.Started {
		logLeftAlone(ctx, run, "the item's start was not seen to take effect")
		return false, nil
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(struct{}{})
	began, err := a.Client.Experiments.Began(ctx, run, in.Run.Options.WaitOptions())
	switch {
	case errors.Is(err, facade.ErrStartUnknown):
		logLeftAlone(ctx, run, err.Error())
		return false, nil
	case err != nil || !began:
		return false, classify(err)
	}
	act, st, err := a.Client.Experiments.Activity(ctx, run.RcID(), nil)
	switch {
	case err != nil:
		return false, classify(err)
	case act == facade.ActivityIdle:
		return false, nil // ended
	case !in.EndBefore && facade.RunActivity(st, false) != facade.ActivityUnderWay:
		logLeftAlone(ctx, run, "the configuration's first run shows as no run at all, so another client's first run under way could not be told from it")
		return false, nil
	}
	_, err = a.Client.Experiments.Stop(ctx, run.RcID())
	return err == nil, classify(err)
}

func logLeftAlone(ctx context.Context, run *facade.Run, why string) {
	activity.GetLogger(ctx).Warn("scmtemporal: the run is left alone", "rcId", run.RcID(), "why", why)
}
