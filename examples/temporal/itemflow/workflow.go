package itemflow

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/ids"
)

// TaskQueue is the task queue of the example's workers.
const TaskQueue = "scm-batch"

// a names the activities for ExecuteActivity; its methods are never called
// on it.
var a *Activities

// ItemWorkflow takes one plan item through its steps: import (or the
// existing scenario), find the experiment, run it, export the dashboard.
// What tells the item's scenario and run from older ones (the scenarios
// that had the name, the run's origin) is taken by short activities first,
// so it is in the workflow's history before anything is imported or
// started, and every retry of the long activities has it. Cancelled while the run
// is under way, the workflow stops it before it ends.
func ItemWorkflow(ctx workflow.Context, in ItemInput) (ItemResult, error) {
	short := workflow.WithActivityOptions(ctx, shortOptions())
	long := workflow.WithActivityOptions(ctx, longOptions(in.HeartbeatTimeout))
	res := ItemResult{Name: in.Name, ScenarioID: in.ScenarioID}
	if in.Workbook != "" {
		var known []ids.ScenarioID
		if err := workflow.ExecuteActivity(short, a.ScenariosNamed, in.ProjectID, in.ScenarioName).Get(ctx, &known); err != nil {
			return res, err
		}
		imp := ImportInput{ProjectID: in.ProjectID, ScenarioName: in.ScenarioName, Workbook: in.Workbook, Tables: in.Tables,
			Formulas: in.Formulas, ImportExperiments: in.ImportExperiments, Known: known}
		if err := workflow.ExecuteActivity(long, a.ImportScenario, imp).Get(ctx, &res.ScenarioID); err != nil {
			return res, err
		}
	}
	var exp Experiment
	find := FindInput{ProjectID: in.ProjectID, ScenarioID: res.ScenarioID, Experiment: in.Experiment, ExperimentName: in.ExperimentName}
	if err := workflow.ExecuteActivity(short, a.FindExperiment, find).Get(ctx, &exp); err != nil {
		return res, err
	}
	res.RcID = exp.RcID
	var run RunOutput
	err := workflow.ExecuteActivity(long, a.RunExperiment, RunInput{Token: exp.Token}).Get(ctx, &run)
	if err != nil {
		if ctx.Err() != nil {
			stopRun(ctx, exp)
		}
		return res, err
	}
	res.RunID, res.ExperimentResultID = run.RunID, run.ExperimentResultID
	if in.Dashboard == "" {
		return res, nil
	}
	var path string
	if err := workflow.ExecuteActivity(long, a.ExportDashboard, ExportInput{ExperimentResultID: run.ExperimentResultID, Path: in.Dashboard}).Get(ctx, &path); err != nil {
		return res, err
	}
	res.Outputs = append(res.Outputs, path)
	return res, nil
}

// stopRun stops the item's run, the one started from exp's token, on a
// context that the workflow's cancellation does not end.
func stopRun(ctx workflow.Context, exp Experiment) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	dctx = workflow.WithActivityOptions(dctx, shortOptions())
	var stopped bool
	err := workflow.ExecuteActivity(dctx, a.StopExperiment, StopInput{Token: exp.Token}).Get(dctx, &stopped)
	workflow.GetLogger(ctx).Info("cancelled: stopping the run", "rcId", exp.RcID, "stopped", stopped, "error", err)
}

func shortOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second, MaximumAttempts: 10},
	}
}

// longOptions are those of the activities that wait for a job, a run or an
// export: as long as a run may take, kept alive by heartbeats.
func longOptions(heartbeat time.Duration) workflow.ActivityOptions {
	if heartbeat <= 0 {
		heartbeat = DefaultHeartbeatTimeout
	}
	return workflow.ActivityOptions{
		StartToCloseTimeout: 72 * time.Hour,
		HeartbeatTimeout:    heartbeat,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	}
}
