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

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// Activities are the steps of an item, built on the facade. Register a
// value with the worker: worker.RegisterActivity(&itemflow.Activities{...}).
type Activities struct {
	Client *facade.Client
	// Poll paces the polling of jobs and runs; nil means the client's
	// policy.
	Poll *facade.PollPolicy
}

// ScenariosNamed returns the scenarios of a project that have the name: the
// baseline that tells an import's scenario from older ones.
func (a *Activities) ScenariosNamed(ctx context.Context, projectID int64, name string) ([]int64, error) {
	ids, err := batch.ScenariosNamed(ctx, a.Client, projectID, name)
	return ids, classify(err)
}

// ImportScenario imports a workbook as a new scenario and returns its id,
// heartbeating the job id and progress. A retry resumes from the
// heartbeat: it polls the recorded job, and without one it first looks for
// a scenario of the name that is not among in.Known (an import that
// finished) before importing. The job id is the attempt's first heartbeat,
// which the SDK sends at once (later ones are batched), so a crash loses
// it only between the import's answer and that heartbeat's round trip.
// An import whose answer was lost fails for good, as outcome unknown.
func (a *Activities) ImportScenario(ctx context.Context, in ImportInput) (int64, error) {
	var hb ImportProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &hb)
	}
	if hb.JobID == 0 {
		id, found, err := batch.NewScenarioNamed(ctx, a.Client, in.ProjectID, in.ScenarioName, in.Known)
		if err != nil || found {
			return id, classify(err)
		}
		opts := &facade.ImportOptions{Tables: in.Tables, ContainsFormulas: in.Formulas, SkipExperiments: !in.ImportExperiments}
		job, err := a.Client.Imports.Excel(ctx, in.ProjectID, in.ScenarioName, facade.UploadFile(in.Workbook), opts)
		if errors.Is(err, facade.ErrMayHaveBeenApplied) {
			err = fmt.Errorf("%w: %w", batch.ErrOutcomeUnknown, err)
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
	for st, err := range job.States(ctx, &facade.WaitOptions{Policy: a.Poll}) {
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

// FindExperiment returns the scenario's experiment of the type and its
// latest run, the baseline that tells the workflow's run from older ones.
func (a *Activities) FindExperiment(ctx context.Context, in FindInput) (Experiment, error) {
	rcID, err := batch.FindExperiment(ctx, a.Client, in.ProjectID, in.ScenarioID, gen.ExperimentType(in.Experiment), in.ExperimentName)
	if err != nil {
		return Experiment{}, classify(err)
	}
	prev, err := batch.LastRunID(ctx, a.Client, in.ScenarioID, rcID)
	return Experiment{RcID: rcID, PreviousRunID: prev}, classify(err)
}

// RunExperiment starts the run, waits for it and returns its result id,
// heartbeating the run id and progress. A retry resumes from the
// heartbeat, or, when the heartbeat was lost, from the experiment's
// status: a run later than in.PreviousRunID is the one an earlier attempt
// started, and is waited for instead of starting another. The activity
// only stops waiting when cancelled; the workflow stops the run.
func (a *Activities) RunExperiment(ctx context.Context, in RunInput) (RunOutput, error) {
	var hb RunProgress
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &hb)
	}
	if !hb.Started {
		var err error
		if hb, err = a.startRun(ctx, in); err != nil {
			return RunOutput{}, classify(err)
		}
		hb.RcID = in.RcID
		activity.RecordHeartbeat(ctx, hb)
	}
	beat := startBeating(ctx, hb)
	defer beat.stop()
	run := a.Client.Run(in.RcID)
	for st, err := range run.States(ctx, &facade.WaitOptions{Policy: a.Poll}) {
		if err != nil {
			return RunOutput{RunID: hb.RunID, State: hb.State}, classify(err)
		}
		hb.State = facade.RunStateValue(st)
		beat.set(hb)
	}
	if hb.RunID == 0 {
		runID, later, err := batch.RunAfter(ctx, a.Client, in.ScenarioID, in.RcID, in.PreviousRunID)
		if err == nil && !later {
			err = fmt.Errorf("rcId %d ended, but scenario %d lists no run of it later than run %d", in.RcID, in.ScenarioID, in.PreviousRunID)
		}
		if err != nil {
			return RunOutput{State: hb.State}, classify(err)
		}
		hb.RunID = runID
	}
	resultID, err := batch.ResultOfRun(ctx, a.Client, in.ScenarioID, in.RcID, hb.RunID)
	return RunOutput{RunID: hb.RunID, ExperimentResultID: resultID, State: hb.State}, classify(err)
}

// startRun starts the run unless the experiment's status shows one later
// than the baseline already.
func (a *Activities) startRun(ctx context.Context, in RunInput) (RunProgress, error) {
	runID, started, err := batch.RunAfter(ctx, a.Client, in.ScenarioID, in.RcID, in.PreviousRunID)
	if err != nil || started {
		return RunProgress{Started: started, RunID: runID}, err
	}
	if _, err := a.Client.Experiments.Start(ctx, in.RcID, nil); err != nil {
		return RunProgress{}, err // a lost answer is settled by the retry, from the scenario's runs
	}
	return RunProgress{Started: true}, nil
}

// StopExperiment stops the workflow's run (one later than the baseline)
// if it is under way, and reports whether it did. The execution state
// names no run: the scenario's runs tell whether the latest run of the
// experiment is later than the baseline, and the state whether it goes
// on (neither finished, failed nor stopped, and not idle).
func (a *Activities) StopExperiment(ctx context.Context, in StopInput) (bool, error) {
	_, ours, err := batch.RunAfter(ctx, a.Client, in.ScenarioID, in.RcID, in.PreviousRunID)
	if err != nil || !ours {
		return false, classify(err)
	}
	st, err := a.Client.Experiments.Status(ctx, in.RcID)
	if err != nil {
		return false, classify(err)
	}
	if !underWay(st) {
		return false, nil
	}
	_, err = a.Client.Experiments.Stop(ctx, in.RcID)
	return err == nil, classify(err)
}

// underWay reports whether an execution state is of a run that goes on.
func underWay(st *gen.ExecutionState) bool {
	state := facade.RunStateValue(st)
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
	err := batch.ExportDashboardFile(ctx, a.Client, in.ExperimentResultID, in.Path, func(p dashboard.Progress) {
		beat.set(ExportProgress{Page: p.Index, Total: p.Total})
	})
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
	case errors.Is(err, batch.ErrOutcomeUnknown):
		return temporal.NewNonRetryableApplicationError(err.Error(), "OutcomeUnknown", err)
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
