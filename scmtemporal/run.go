package scmtemporal

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// PrepareRun finds the scenario's experiment of the type and reads the
// evidence of the workflow's run to come (facade.ExperimentsService.Prepare:
// the scenario's listed runs and the status, read before anything is
// started), returned as a resume token. It changes nothing; the token goes
// into the workflow's history before StartRun sends anything, so every
// attempt of StartRun, WaitRun and StopRun tells the workflow's run from
// earlier ones by it, on any worker.
//
// It refuses a VARIATION experiment for good ([ErrTypeNotListed]): the
// server never lists such runs, so the result of the workflow's run could
// not be found. While the experiment has a run under way it fails, to be
// retried: that run is no workflow's, and evidence read during it could not
// tell it from the workflow's.
func (a *Activities) PrepareRun(ctx context.Context, in PrepareInput) (Prepared, error) {
	if in.Experiment == gen.ExperimentTypeVARIATION {
		msg := fmt.Sprintf("scenario %d: the server does not list %s runs, so the result of the workflow's run could not be found; run it with facade.ExperimentsService.RunSync, which answers its result id", in.ScenarioID, in.Experiment)
		return Prepared{}, temporal.NewNonRetryableApplicationError(msg, ErrTypeNotListed, nil)
	}
	rcID, err := a.Client.Experiments.Find(ctx, in.ProjectID, in.ScenarioID, in.Experiment, in.ExperimentName)
	if err != nil {
		return Prepared{}, classify(err)
	}
	if err := a.noRunUnderWay(ctx, rcID); err != nil {
		return Prepared{}, classify(err)
	}
	run, err := a.Client.Experiments.Prepare(ctx, rcID, &facade.StartOptions{ScenarioID: in.ScenarioID, Type: in.Experiment})
	if err != nil {
		return Prepared{}, classify(err)
	}
	token, err := run.ResumeToken()
	if err != nil {
		return Prepared{}, classify(err)
	}
	return Prepared{RcID: rcID, Token: token}, nil
}

// noRunUnderWay fails while the experiment's status shows a run under way.
func (a *Activities) noRunUnderWay(ctx context.Context, rcID ids.RcID) error {
	st, err := a.Client.Experiments.Status(ctx, rcID)
	switch {
	case err != nil:
		return err
	case underWay(st):
		return fmt.Errorf("rcId %d has a run under way (%s) that this workflow did not start: the evidence of the workflow's run is read once it has ended", rcID, facade.RunStateValue(st))
	}
	return nil
}

// underWay reports whether an execution state is of a run that goes on.
func underWay(st *gen.ExecutionState) bool {
	state := string(facade.RunStateValue(st))
	return facade.DefaultTerminalRule(state) == facade.Pending && state != string(gen.ExecutionStateGenericStateIDLE)
}

// StartRun sends the workflow's run's start (runExperiment) at most once
// across its attempts, and returns its resume token with the time it was
// sent. Every attempt that is to send marks so first ([SendMark]). A retry
// that finds an earlier attempt's mark first asks the server what the
// earlier attempts did, with the facade's three answers (facade.Run.Began):
// began, and it sends nothing (Settled); not begun, and it sends the start;
// unknown, and the item stops with a non-retryable [ErrTypeStartUnknown]
// error saying what to check on the server. A retry that finds no
// confirmed mark (the attempts before it died before they marked), or
// that follows an attempt that failed knowing that its start did not reach
// the server, sends without asking. A start whose answer was lost is left to the retry
// to settle.
func (a *Activities) StartRun(ctx context.Context, in RunInput) (Started, error) {
	run, err := a.Client.ResumeRunFromToken(in.Token)
	if err != nil {
		return Started{}, classify(err)
	}
	var prev startProgress
	had := details(ctx, &prev)
	hb := startProgress{SendMark: a.marked(prev.SendMark)}
	settle := a.mayHaveSent(ctx, had, prev.SendMark) && !notSentBefore(ctx, prev.NotSentBy)
	beat := newBeater(ctx)
	defer beat.stop()
	if settle {
		beat.set(hb)
		began, err := run.Began(ctx, in.Options.waitOptions())
		switch {
		case err != nil:
			return Started{}, classify(err)
		case began:
			return Started{Token: in.Token, Settled: true}, nil
		}
	} else {
		// Confirmed before any heartbeat of the attempt carries it, so an
		// attempt that dies before this point leaves no mark: its retry
		// sends. (One that settles found a mark the service holds.) The
		// heartbeats go out beside the send, so that only the send itself
		// follows the confirmation.
		if err := a.confirm(ctx, hb); err != nil {
			return Started{}, err
		}
		beat.setBeside(hb)
	}
	err = a.Client.Experiments.StartPrepared(ctx, run, nil)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied), err != nil && ctx.Err() != nil:
		return Started{}, err // the retry settles it
	case err != nil:
		// Refused: no start of the workflow's run took effect (this one was
		// sent only once that was known), and the failure carries it.
		beat.set(startProgress{SendMark: SendMark{Marked: true}, NotSentBy: activity.GetInfo(ctx).Attempt})
		return Started{}, classify(err)
	}
	token, err := run.ResumeToken()
	if err != nil {
		return Started{Token: in.Token}, nil // sent: the evidence read before it still tells the run
	}
	return Started{Token: token}, nil
}

// startProgress is the heartbeat of StartRun: its SendMark, and NotSentBy,
// an attempt whose start did not reach the server (see JobProgress).
type startProgress struct {
	SendMark
	NotSentBy int32
}

// WaitRun waits for the workflow's run, heartbeating its state, and returns
// its run id and experimentResultId: this start's, never an earlier run's
// (facade.Client.ResumeRunFromToken). It changes nothing, so a retry on
// another worker simply waits again. It only stops waiting when cancelled;
// the workflow stops the run when its options ask for it.
func (a *Activities) WaitRun(ctx context.Context, in RunInput) (RunOutput, error) {
	run, err := a.Client.ResumeRunFromToken(in.Token)
	if err != nil {
		return RunOutput{}, classify(err)
	}
	var hb RunProgress
	details(ctx, &hb)
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(hb)
	for st, err := range run.States(ctx, in.Options.waitOptions()) {
		if err != nil {
			return RunOutput{State: hb.State}, classify(err)
		}
		hb.State, hb.Polls = string(facade.RunStateValue(st)), hb.Polls+1
		beat.set(hb)
	}
	return runOutput(ctx, run, hb.State)
}

// runOutput takes the run's ids from its entry among the scenario's runs,
// which a server lists once the run has finished: a retry looks again.
func runOutput(ctx context.Context, run *facade.Run, state string) (RunOutput, error) {
	out := RunOutput{State: state}
	id, err := run.ResultID(ctx)
	if err != nil {
		return out, classify(err)
	}
	entry, err := run.Entry(ctx)
	if err != nil {
		return out, classify(err)
	}
	out.RunID, out.ExperimentResultID = entry.Id, id
	return out, nil
}

// StopRun stops the workflow's run if it is under way, and reports whether
// it did. The status names no run: the run is the workflow's once its
// start shows against the evidence (facade.Run.Began, which waits out the
// status's lag after a start), and it is stopped only while the status
// shows it not ended. A start whose effect cannot be told is left alone.
func (a *Activities) StopRun(ctx context.Context, in RunInput) (bool, error) {
	run, err := a.Client.ResumeRunFromToken(in.Token)
	if err != nil {
		return false, classify(err)
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(struct{}{})
	began, err := run.Began(ctx, in.Options.waitOptions())
	if errors.Is(err, facade.ErrStartUnknown) {
		activity.GetLogger(ctx).Warn("scmtemporal: a run whose start cannot be told is left alone", "rcId", run.RcID(), "error", err)
		return false, nil
	}
	if err != nil || !began {
		return false, classify(err)
	}
	st, err := a.Client.Experiments.Status(ctx, run.RcID())
	if err != nil {
		return false, classify(err)
	}
	if facade.DefaultTerminalRule(string(facade.RunStateValue(st))) != facade.Pending {
		return false, nil // ended
	}
	_, err = a.Client.Experiments.Stop(ctx, run.RcID())
	return err == nil, classify(err)
}
