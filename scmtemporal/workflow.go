package scmtemporal

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// DefaultTaskQueue is the task queue of [StartPlan] and [NewWorker] when
// none is given.
const DefaultTaskQueue = "scm-batch"

// ItemWorkflow takes one plan item through its steps, as `scm batch` does:
// the scenario (imported, copied or existing), the run's evidence, the
// start, the wait, the dashboard export and the result data. What tells
// the item's scenario and run from older ones (the scenarios that had the
// name, the run's resume token) is read by short activities first, so it
// is in the workflow's history before anything is imported, copied or
// started, and every retry has it on any worker. While the experiment has
// a run under way that no item started, the item waits behind it
// (Options.QueueTimeout at most) and never adopts it.
//
// Cancelled, the workflow stops waiting; it stops the run on the server
// only when in.Options.StopOnCancel says so, and ends cancelled.
func ItemWorkflow(ctx workflow.Context, in ItemInput) (ItemResult, error) {
	return itemWorkflow(ctx, in, nil)
}

// itemWorkflow is ItemWorkflow with a step after the run's evidence, for
// the replay tests' edits (nil in ItemWorkflow).
func itemWorkflow(ctx workflow.Context, in ItemInput, edit func(workflow.Context) error) (ItemResult, error) {
	res := ItemResult{Name: in.Name, ScenarioID: in.ScenarioID}
	if err := in.validate(); err != nil {
		return res, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRefused, nil)
	}
	var err error
	if res.ScenarioID, err = scenarioStep(ctx, in); err != nil {
		return res, err
	}
	if err := runStep(ctx, in, &res, edit); err != nil {
		return res, err
	}
	return res, outputSteps(ctx, in, &res)
}

// scenarioStep returns the item's scenario: imported, copied or existing.
func scenarioStep(ctx workflow.Context, in ItemInput) (ids.ScenarioID, error) {
	if in.Workbook == "" && in.CopyOf == 0 {
		return in.ScenarioID, nil
	}
	var known []ids.ScenarioID
	if err := workflow.ExecuteActivity(shortContext(ctx), wire.ScenariosNamed, wire.NamedInput{ProjectID: in.ProjectID, Name: in.ScenarioName}).Get(ctx, &known); err != nil {
		return 0, err
	}
	var id ids.ScenarioID
	long := longContext(ctx, in.Options, in.Options.scenarioTimeout())
	if in.Workbook != "" {
		imp := wire.ImportInput{ProjectID: in.ProjectID, ScenarioName: in.ScenarioName, Workbook: in.Workbook, Tables: in.Tables,
			Formulas: in.Formulas, ImportExperiments: in.ImportExperiments, Known: known, Options: in.Options.wire()}
		return id, workflow.ExecuteActivity(long, wire.ImportScenario, imp).Get(ctx, &id)
	}
	cp := wire.CopyInput{ProjectID: in.ProjectID, ScenarioID: in.CopyOf, Type: in.CopyType, ScenarioName: in.ScenarioName, Known: known, Options: in.Options.wire()}
	return id, workflow.ExecuteActivity(long, wire.CopyScenario, cp).Get(ctx, &id)
}

// runStep starts the run and waits for it. Both activities wait for their
// cancellation to be acknowledged, so a start under way when the workflow
// is cancelled has been sent, or not, before StopRun looks for it.
func runStep(ctx workflow.Context, in ItemInput, res *ItemResult, edit func(workflow.Context) error) error {
	prep, started, err := startStep(ctx, in, res, edit)
	var run wire.RunOutput
	if err == nil {
		wait := longContext(ctx, in.Options, or(in.Options.RunTimeout, DefaultRunTimeout))
		err = workflow.ExecuteActivity(wait, wire.WaitRun, runInput(in, res, started.Token)).Get(ctx, &run)
	}
	if err != nil && isCancelled(ctx, err) && in.Options.StopOnCancel && started.Token != "" {
		stopRun(ctx, in.Options, wire.StopInput{Run: runInput(in, res, started.Token), Started: true, EndBefore: prep.EndBefore})
	}
	res.RunID, res.ExperimentResultID = run.RunID, run.ExperimentResultID
	return err
}

func runInput(in ItemInput, res *ItemResult, token string) wire.RunInput {
	return wire.RunInput{Token: token, Options: in.Options.wire(),
		Subject: wire.Subject{RcID: res.RcID, ScenarioID: res.ScenarioID, Experiment: in.Experiment}}
}

// The pauses between two tries of a start the experiment's run under way
// kept back: doubling from the first to the last.
const (
	queueFirstPause = 5 * time.Second
	queueMaxPause   = time.Minute
)

// startStep reads the run's evidence (PrepareRun) and starts the run
// (StartRun). While the experiment has a run under way that no item
// started (either refuses with ErrTypeRunUnderWay: nothing was sent), it
// waits and tries again with fresh evidence, up to Options.QueueTimeout.
func startStep(ctx workflow.Context, in ItemInput, res *ItemResult, edit func(workflow.Context) error) (wire.Prepared, wire.Started, error) {
	var since time.Time
	for pause := queueFirstPause; ; pause = min(2*pause, queueMaxPause) {
		prep, started, err := prepareAndStart(ctx, in, res, edit)
		if !isRunUnderWay(err) {
			return prep, started, err
		}
		if since.IsZero() {
			since = workflow.Now(ctx)
		}
		if waited := workflow.Now(ctx).Sub(since); waited >= or(in.Options.QueueTimeout, DefaultQueueTimeout) {
			msg := fmt.Sprintf("scmtemporal: item %q: the experiment still has a run under way that no item started, after %v (Options.QueueTimeout): %v", in.Name, waited, err)
			return prep, started, temporal.NewNonRetryableApplicationError(msg, ErrTypeRunUnderWay, err)
		}
		if err := workflow.Sleep(ctx, pause); err != nil {
			return prep, started, err
		}
	}
}

func prepareAndStart(ctx workflow.Context, in ItemInput, res *ItemResult, edit func(workflow.Context) error) (wire.Prepared, wire.Started, error) {
	var prep wire.Prepared
	var started wire.Started
	find := wire.PrepareInput{ProjectID: in.ProjectID, ScenarioID: res.ScenarioID, Experiment: in.Experiment, ExperimentName: in.ExperimentName}
	if err := workflow.ExecuteActivity(shortContext(ctx), wire.PrepareRun, find).Get(ctx, &prep); err != nil {
		return prep, started, err
	}
	res.RcID = prep.RcID
	if edit != nil {
		if err := edit(ctx); err != nil {
			return prep, started, err
		}
	}
	start := longContext(ctx, in.Options, in.Options.startTimeout())
	err := workflow.ExecuteActivity(start, wire.StartRun, runInput(in, res, prep.Token)).Get(ctx, &started)
	return prep, started, err
}

func isRunUnderWay(err error) bool {
	var appErr *temporal.ApplicationError
	return errors.As(err, &appErr) && appErr.Type() == ErrTypeRunUnderWay
}

func isCancelled(ctx workflow.Context, err error) bool {
	var cancelled *temporal.CanceledError
	return ctx.Err() != nil || errors.As(err, &cancelled)
}

// stopRun stops the item's run, on a context that the workflow's
// cancellation does not end.
func stopRun(ctx workflow.Context, opts Options, in wire.StopInput) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	var stopped bool
	err := workflow.ExecuteActivity(longContext(dctx, opts, opts.startTimeout()), wire.StopRun, in).Get(dctx, &stopped)
	workflow.GetLogger(ctx).Info("cancelled: stopping the run", "stopped", stopped, "error", err)
}

// outputSteps exports the dashboard and writes the result data, when the
// item asks for them.
func outputSteps(ctx workflow.Context, in ItemInput, res *ItemResult) error {
	long := longContext(ctx, in.Options, or(in.Options.OutputTimeout, DefaultOutputTimeout))
	if in.Dashboard != "" {
		var path string
		if err := workflow.ExecuteActivity(long, wire.ExportDashboard, wire.ExportInput{ExperimentResultID: res.ExperimentResultID, Path: in.Dashboard}).Get(ctx, &path); err != nil {
			return err
		}
		res.Outputs = append(res.Outputs, path)
	}
	if in.Data != "" {
		var out wire.DataOutput
		data := wire.DataInput{Item: in.Name, ScenarioID: res.ScenarioID, RcID: res.RcID, ExperimentResultID: res.ExperimentResultID, Path: in.Data}
		if err := workflow.ExecuteActivity(long, wire.WriteResultData, data).Get(ctx, &out); err != nil {
			return err
		}
		res.Outputs, res.DataRows, res.DataRecords = append(res.Outputs, out.Path), out.Rows, out.Records
	}
	return nil
}

// shortContext is for the activities that read what a step is told by:
// a minute each, ten attempts.
func shortContext(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second, MaximumAttempts: 10},
	})
}

// longContext is for the activities that wait for a job, a run or an
// export, within bound across their attempts, kept alive by heartbeats
// sized to the poll policy, so that a dead worker's wait moves to another
// worker within the heartbeat timeout. What cannot be mended fails
// non-retryable; the rest is retried until the bound has passed, at least
// every 15 s: a retry after a dead worker asks the server and waits again,
// and the pause is time the item loses.
func longContext(ctx workflow.Context, opts Options, bound time.Duration) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		ScheduleToCloseTimeout: bound,
		HeartbeatTimeout:       opts.heartbeatTimeout(),
		WaitForCancellation:    true,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 15 * time.Second},
	})
}
