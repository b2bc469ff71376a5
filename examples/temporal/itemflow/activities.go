package itemflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Activities are the steps of an item, built on the facade. Register a
// value with the worker: worker.RegisterActivity(&itemflow.Activities{...}).
type Activities struct {
	Client *facade.Client
	// Poll paces the polling of jobs and runs; nil means the client's
	// policy.
	Poll *facade.PollPolicy
	// Clock must be the client's (facade.WithClock): a run's origin
	// records when its start was sent on it. Nil means the real clock.
	Clock facade.Clock
}

func (a *Activities) now() time.Time {
	if a.Clock == nil {
		return time.Now()
	}
	return a.Clock.Now()
}

func (a *Activities) waitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: a.Poll}
}

// ScenariosNamed returns the scenarios of a project that have the name: the
// baseline that tells an import's scenario from older ones.
func (a *Activities) ScenariosNamed(ctx context.Context, projectID ids.ProjectID, name string) ([]ids.ScenarioID, error) {
	named, err := a.Client.Scenarios.Named(ctx, projectID, name)
	return named, classify(err)
}

// ImportScenario imports a workbook as a new scenario and returns its id,
// heartbeating the job id and progress. A retry resumes from the
// heartbeat: it polls the recorded job, and without one it first looks for
// a scenario of the name that is not among in.Known (an import that
// finished) before importing. The job id is the attempt's first heartbeat,
// which the SDK sends at once (later ones are batched), so a crash loses
// it only between the import's answer and that heartbeat's round trip.
// An import whose answer was lost fails for good, as outcome unknown.
func (a *Activities) ImportScenario(ctx context.Context, in ImportInput) (ids.ScenarioID, error) {
	var hb ImportProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &hb)
	}
	if hb.JobID == 0 {
		id, found, err := a.Client.Scenarios.NewNamed(ctx, in.ProjectID, in.ScenarioName, in.Known)
		if err != nil || found {
			return id, classify(err)
		}
		opts := &facade.ImportOptions{Tables: in.Tables, ContainsFormulas: in.Formulas, SkipExperiments: !in.ImportExperiments}
		job, err := a.Client.Imports.Excel(ctx, in.ProjectID, in.ScenarioName, facade.UploadFile(in.Workbook), opts)
		if errors.Is(err, facade.ErrMayHaveBeenApplied) {
			err = fmt.Errorf("%w: %w", facade.ErrStartUnknown, err)
		}
		if err != nil {
			return 0, classify(err)
		}
		hb.JobID = job.JobID
		activity.RecordHeartbeat(ctx, hb)
	}
	beat := startBeating(ctx, hb)
	defer beat.stop()
	job := a.Client.Job(hb.JobID)
	for st, err := range job.States(ctx, a.waitOptions()) {
		if err != nil {
			return 0, classify(err)
		}
		hb.Status, hb.Progress = string(st.Status), deref(st.Progress)
		beat.set(hb)
	}
	final := deref(job.Status())
	if deref(final.ScenarioId) == 0 {
		return 0, temporal.NewNonRetryableApplicationError(fmt.Sprintf("import job %d ended without a scenarioId", hb.JobID), "NoScenario", nil)
	}
	return *final.ScenarioId, nil
}

// FindExperiment returns the scenario's experiment of the type and the
// origin of the workflow's run (facade.ExperimentsService.Prepare: the
// scenario's listed runs and the status, read before anything is started).
// The origin goes into the workflow's history before RunExperiment sends
// anything, so every attempt tells the workflow's run from earlier ones.
//
// It refuses a VARIATION experiment for good: the server never lists such
// runs, so the result of the workflow's run could not be found. While the
// experiment has a run under way it fails, to be retried: that run is no
// workflow's, and an origin taken during it could not tell it from the
// workflow's.
func (a *Activities) FindExperiment(ctx context.Context, in FindInput) (Experiment, error) {
	typ := gen.ExperimentType(in.Experiment)
	if typ == gen.ExperimentTypeVARIATION {
		msg := fmt.Sprintf("scenario %d: the server does not list %s runs, so the result of the workflow's run could not be found; run it with facade.ExperimentsService.RunSync, which answers its result id", in.ScenarioID, typ)
		return Experiment{}, temporal.NewNonRetryableApplicationError(msg, "NotListed", nil)
	}
	rcID, err := a.Client.Experiments.Find(ctx, in.ProjectID, in.ScenarioID, typ, in.ExperimentName)
	if err != nil {
		return Experiment{}, classify(err)
	}
	if err := a.noRunUnderWay(ctx, rcID); err != nil {
		return Experiment{}, classify(err)
	}
	run, err := a.Client.Experiments.Prepare(ctx, rcID, &facade.StartOptions{ScenarioID: in.ScenarioID, Type: typ})
	if err != nil {
		return Experiment{}, classify(err)
	}
	token, err := run.ResumeToken()
	if err != nil {
		return Experiment{}, classify(err)
	}
	return Experiment{RcID: rcID, Token: token}, nil
}

// noRunUnderWay fails while the experiment's status shows a run under way.
func (a *Activities) noRunUnderWay(ctx context.Context, rcID ids.RcID) error {
	st, err := a.Client.Experiments.Status(ctx, rcID)
	switch {
	case err != nil:
		return err
	case underWay(st):
		return fmt.Errorf("rcId %d has a run under way (%s) that this workflow did not start: the origin of the workflow's run is taken once it has ended", rcID, facade.RunStateValue(st))
	}
	return nil
}

// RunExperiment starts the workflow's run, waits for it and returns its
// run id and experimentResultId, heartbeating its origin, whether it
// started, and its state. The wait and the result are this start's, never
// an earlier run's (facade.Client.ResumeRunFromToken).
//
// A retry resumes from the heartbeat. One whose heartbeat says started
// waits for that run. One whose heartbeat says a start was sent, or any
// retry without a heartbeat saying started (the last heartbeats die with a
// worker), first settles whether an earlier attempt's start took effect
// (facade.Run.Began), and starts only when none did: it never starts a
// second run. The activity only stops waiting when cancelled; the workflow
// stops the run.
func (a *Activities) RunExperiment(ctx context.Context, in RunInput) (RunOutput, error) {
	hb := RunProgress{Token: in.Token}
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &hb); err != nil || hb.Token != in.Token {
			hb = RunProgress{Token: in.Token}
		}
	}
	run, err := a.Client.ResumeRunFromToken(hb.Token)
	if err != nil {
		return RunOutput{}, temporal.NewNonRetryableApplicationError(err.Error(), "ResumeToken", err)
	}
	beat := startBeating(ctx, hb)
	defer beat.stop()
	if !hb.Started {
		if err := a.startRun(ctx, run, &hb, beat); err != nil {
			return RunOutput{}, classify(err)
		}
	}
	for st, err := range run.States(ctx, a.waitOptions()) {
		if err != nil {
			return RunOutput{State: hb.State}, classify(err)
		}
		hb.State = string(facade.RunStateValue(st))
		beat.set(hb)
	}
	return runOutput(ctx, run, hb.State)
}

// startRun starts the run, unless an earlier attempt's start took effect
// (facade.Run.Began: a start whose effect cannot be told stops the item,
// for the user to check). The outcome is heartbeated: started, or sent
// when the answer was lost.
func (a *Activities) startRun(ctx context.Context, run *facade.Run, hb *RunProgress, beat *beater) error {
	if hb.Sent || activity.GetInfo(ctx).Attempt > 1 {
		began, err := run.Began(ctx, a.waitOptions())
		if err != nil {
			return err
		}
		if began {
			hb.Started = true
			beat.set(*hb)
			return nil
		}
	}
	err := a.Client.Experiments.StartPrepared(ctx, run, nil)
	hb.Sent = err == nil || errors.Is(err, facade.ErrMayHaveBeenApplied)
	hb.Started = err == nil
	beat.set(*hb)
	return err // a lost answer is settled by the retry
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

// StopExperiment stops the workflow's run if it is under way, and reports
// whether it did. The execution state names no run: the run is the
// workflow's once its start shows against the origin (facade.Run.Began: it
// is listed, or the status shows a run under way, or an end where none had
// ended before), which waits out the status's lag after a start, when it
// still shows the last run's end. It is stopped only while the status
// shows it not ended; a start whose effect cannot be told is left alone.
func (a *Activities) StopExperiment(ctx context.Context, in StopInput) (bool, error) {
	run, err := a.Client.ResumeRunFromToken(in.Token)
	if err != nil {
		return false, classify(err)
	}
	began, err := run.Began(ctx, a.waitOptions())
	if errors.Is(err, facade.ErrStartUnknown) {
		return false, nil // the run under way may be no workflow's: left alone
	}
	if err != nil || !began {
		return false, classify(err)
	}
	st, err := a.Client.Experiments.Status(ctx, run.RcID())
	if err != nil {
		return false, classify(err)
	}
	if facade.DefaultTerminalRule(string(facade.RunStateValue(st))) != facade.Pending {
		return false, nil // ended: a run of this start, began, that has not ended is under way
	}
	_, err = a.Client.Experiments.Stop(ctx, run.RcID())
	return err == nil, classify(err)
}

// underWay reports whether an execution state is of a run that goes on.
func underWay(st *gen.ExecutionState) bool {
	state := string(facade.RunStateValue(st))
	return facade.DefaultTerminalRule(state) == facade.Pending && state != string(gen.ExecutionStateGenericStateIDLE)
}

// ExportDashboard writes every dashboard page of the result into one
// workbook, heartbeating the page. The workbook is renamed into place
// whole; a retry after it was written does nothing, others export again
// (exports change nothing on the server).
func (a *Activities) ExportDashboard(ctx context.Context, in ExportInput) (string, error) {
	var hb ExportProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &hb)
	}
	if _, err := os.Stat(in.Path); hb.Written && err == nil {
		return in.Path, nil
	}
	beat := startBeating(ctx, hb)
	defer beat.stop()
	err := dashboard.ExportFile(ctx, a.Client, in.ExperimentResultID, in.Path, &dashboard.Options{Progress: func(p dashboard.Progress) {
		beat.set(ExportProgress{Page: p.Index, Total: p.Total})
	}})
	if err != nil {
		return "", classify(err)
	}
	activity.RecordHeartbeat(ctx, ExportProgress{Written: true})
	return in.Path, nil
}

// classify marks the errors that a retry cannot mend as non-retryable: a
// run or job that ended badly, an outcome that is unknown, and input the
// server or the SDK refused.
func classify(err error) error {
	var stateErr *facade.StateError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &stateErr):
		return temporal.NewNonRetryableApplicationError(err.Error(), "Ended"+stateErr.State, err)
	case errors.Is(err, facade.ErrStartUnknown):
		return temporal.NewNonRetryableApplicationError(err.Error(), "StartUnknown", err)
	case errors.Is(err, facade.ErrValidation), errors.Is(err, facade.ErrBadRequest), errors.Is(err, facade.ErrUnauthorized),
		errors.Is(err, facade.ErrForbidden), errors.Is(err, facade.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(err.Error(), "Refused", err)
	}
	return err
}

// beater heartbeats the latest details as they change, and every third of
// the heartbeat timeout, so that a wait between two changes does not pass
// for a dead worker. The SDK sends the first heartbeat of an attempt at
// once and batches later ones within its throttle interval.
type beater struct {
	ctx     context.Context
	mu      sync.Mutex
	details any
	done    chan struct{}
	wg      sync.WaitGroup
}

func startBeating(ctx context.Context, details any) *beater {
	b := &beater{ctx: ctx, details: details, done: make(chan struct{})}
	every := activity.GetInfo(ctx).HeartbeatTimeout / 3
	if every <= 0 {
		return b
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-b.done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				b.mu.Lock()
				d := b.details
				b.mu.Unlock()
				activity.RecordHeartbeat(ctx, d)
			}
		}
	}()
	return b
}

// set records new details and heartbeats them.
func (b *beater) set(details any) {
	b.mu.Lock()
	b.details = details
	b.mu.Unlock()
	activity.RecordHeartbeat(b.ctx, details)
}

func (b *beater) stop() {
	close(b.done)
	b.wg.Wait()
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
