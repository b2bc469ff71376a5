package scmtemporal

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/ids"
)

// DefaultTaskQueue is the task queue of [StartPlan] and of the example's
// workers when none is given.
const DefaultTaskQueue = "scm-batch"

// a names the activities for ExecuteActivity; its methods are never called
// on it.
var a *Activities

// ItemWorkflow takes one plan item through its steps, as `scm batch` does:
// the scenario (imported, copied or existing), the run's evidence
// (PrepareRun), the start (StartRun), the wait (WaitRun), the dashboard
// export and the result data. What tells the item's scenario and run from
// older ones (the scenarios that had the name, the run's resume token) is
// read by short activities first, so it is in the workflow's history before
// anything is imported, copied or started, and every retry has it on any
// worker.
//
// Cancelled, the workflow stops waiting; it stops the run on the server
// only when in.Options.StopOnCancel says so (StopRun, on a context the
// cancellation does not end), and ends cancelled.
func ItemWorkflow(ctx workflow.Context, in ItemInput) (ItemResult, error) {
	res := ItemResult{Name: in.Name, ScenarioID: in.ScenarioID}
	if err := in.validate(); err != nil {
		return res, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRefused, nil)
	}
	var err error
	if res.ScenarioID, err = scenarioStep(ctx, in); err != nil {
		return res, err
	}
	var prep Prepared
	find := PrepareInput{ProjectID: in.ProjectID, ScenarioID: res.ScenarioID, Experiment: in.Experiment, ExperimentName: in.ExperimentName}
	if err := workflow.ExecuteActivity(queueContext(ctx), a.PrepareRun, find).Get(ctx, &prep); err != nil {
		return res, err
	}
	res.RcID = prep.RcID
	run, err := runStep(ctx, in.Options, prep.Token)
	if err != nil {
		return res, err
	}
	res.RunID, res.ExperimentResultID = run.RunID, run.ExperimentResultID
	return res, outputSteps(ctx, in, &res)
}

// scenarioStep returns the item's scenario: imported, copied or existing.
func scenarioStep(ctx workflow.Context, in ItemInput) (ids.ScenarioID, error) {
	if in.Workbook == "" && in.CopyOf == 0 {
		return in.ScenarioID, nil
	}
	var known []ids.ScenarioID
	if err := workflow.ExecuteActivity(shortContext(ctx), a.ScenariosNamed, NamedInput{ProjectID: in.ProjectID, Name: in.ScenarioName}).Get(ctx, &known); err != nil {
		return 0, err
	}
	var id ids.ScenarioID
	long := longContext(ctx, in.Options)
	if in.Workbook != "" {
		imp := ImportInput{ProjectID: in.ProjectID, ScenarioName: in.ScenarioName, Workbook: in.Workbook, Tables: in.Tables,
			Formulas: in.Formulas, ImportExperiments: in.ImportExperiments, Known: known, Options: in.Options}
		return id, workflow.ExecuteActivity(long, a.ImportScenario, imp).Get(ctx, &id)
	}
	cp := CopyInput{ProjectID: in.ProjectID, ScenarioID: in.CopyOf, Type: in.CopyType, ScenarioName: in.ScenarioName, Known: known, Options: in.Options}
	return id, workflow.ExecuteActivity(long, a.CopyScenario, cp).Get(ctx, &id)
}

// runStep starts the run and waits for it. Both activities wait for their
// cancellation to be acknowledged, so a start under way when the workflow
// is cancelled has been sent, or not, before StopRun looks for it.
func runStep(ctx workflow.Context, opts Options, token string) (RunOutput, error) {
	var started Started
	long := longContext(ctx, opts)
	err := workflow.ExecuteActivity(long, a.StartRun, RunInput{Token: token, Options: opts}).Get(ctx, &started)
	var run RunOutput
	if err == nil {
		err = workflow.ExecuteActivity(long, a.WaitRun, RunInput{Token: started.Token, Options: opts}).Get(ctx, &run)
	}
	if err != nil && isCancelled(ctx, err) && opts.StopOnCancel {
		stopRun(ctx, opts, token)
	}
	return run, err
}

func isCancelled(ctx workflow.Context, err error) bool {
	var cancelled *temporal.CanceledError
	return ctx.Err() != nil || errors.As(err, &cancelled)
}

// stopRun stops the item's run, the one of the token, on a context that
// the workflow's cancellation does not end.
func stopRun(ctx workflow.Context, opts Options, token string) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	var stopped bool
	err := workflow.ExecuteActivity(longContext(dctx, opts), a.StopRun, RunInput{Token: token, Options: opts}).Get(dctx, &stopped)
	workflow.GetLogger(ctx).Info("cancelled: stopping the run", "stopped", stopped, "error", err)
}

// outputSteps exports the dashboard and writes the result data, when the
// item asks for them.
func outputSteps(ctx workflow.Context, in ItemInput, res *ItemResult) error {
	long := longContext(ctx, in.Options)
	if in.Dashboard != "" {
		var path string
		if err := workflow.ExecuteActivity(long, a.ExportDashboard, ExportInput{ExperimentResultID: res.ExperimentResultID, Path: in.Dashboard}).Get(ctx, &path); err != nil {
			return err
		}
		res.Outputs = append(res.Outputs, path)
	}
	if in.Data != "" {
		var out DataOutput
		data := DataInput{Item: in.Name, ScenarioID: res.ScenarioID, RcID: res.RcID, ExperimentResultID: res.ExperimentResultID, Path: in.Data}
		if err := workflow.ExecuteActivity(long, a.WriteResultData, data).Get(ctx, &out); err != nil {
			return err
		}
		res.Outputs, res.DataRows = append(res.Outputs, out.Path), out.Rows
	}
	return nil
}

// shortContext is for the activities that read what a step is told by:
// a minute each, retried ten times.
func shortContext(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second, MaximumAttempts: 10},
	})
}

// queueContext is for PrepareRun, which fails while the experiment has a
// run under way that is no workflow's: it is retried until that run ends.
func queueContext(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
}

// longContext is for the activities that wait for a job, a run or an
// export: as long as a run may take, kept alive by heartbeats sized to the
// poll policy, so that a dead worker's wait moves to another worker within
// the heartbeat timeout. They are retried without end, as a batch resumes:
// what cannot be mended fails non-retryable.
func longContext(ctx workflow.Context, opts Options) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 72 * time.Hour,
		HeartbeatTimeout:    opts.heartbeatTimeout(),
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
}
