package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmtemporal"
)

// This file is all the harness knows of package temporal: the task
// queue, the worker's registration, and the start of a plan's workflows
// with its summary.

const taskQueue = scmtemporal.DefaultTaskQueue

// newWorker is a worker of the item workflow and its activities on scm,
// whose marks are confirmed through c, the client it runs on.
func newWorker(c client.Client, queue string, scm *facade.Client, opts worker.Options) (worker.Worker, error) {
	return scmtemporal.NewWorker(c, queue, &scmtemporal.Activities{Client: scm}, opts)
}

// runPlan starts the plan's workflows and waits for them all within ctx.
// Their ids (e2e-<start time, base 36>-<item>) are new on every run, so a
// run against a Temporal server that outlives it never attaches to an
// earlier run's workflows.
func runPlan(ctx context.Context, c client.Client, plan *batch.Plan, cfg config) ([]outcome, error) {
	opts := scmtemporal.PlanOptions{TaskQueue: taskQueue, IDPrefix: "e2e-" + strconv.FormatInt(time.Now().Unix(), 36) + "-", Item: scmtemporal.Options{HeartbeatTimeout: cfg.heartbeat,
		StaleWindow: cfg.staleWindow, MaxRunLength: cfg.maxRunLength, MaxJobLength: cfg.maxJobLength, RunTimeout: cfg.deadline}}
	run, err := scmtemporal.StartPlan(ctx, c, plan, opts)
	if err != nil {
		return nil, err
	}
	sum, err := run.Wait(ctx)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	out := make([]outcome, len(run.Items))
	for i, it := range sum.Items { // in the plan's order
		if it.Status == scmtemporal.ItemNotEnded { // not seen to end in time: ask Temporal
			out[i] = lateOutcome(c, run.Items[i])
			continue
		}
		out[i] = outcome{name: it.Name, workflowID: it.WorkflowID, status: string(it.Status), resultID: it.Result.ExperimentResultID, err: it.Err}
	}
	return out, nil
}

// lateOutcome is how an item's workflow ended, asked for after the
// deadline: a workflow still open is "not ended"; a closed one is read
// like PlanRun.Wait reads it.
func lateOutcome(c client.Client, it scmtemporal.StartedItem) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := outcome{name: it.Name, workflowID: it.WorkflowID, status: "not ended"}
	desc, err := describe(ctx, c, it.WorkflowID, it.RunID)
	if err != nil {
		o.err = fmt.Errorf("not done within the deadline, and its state could not be read: %w", err)
		return o
	}
	state := desc.GetWorkflowExecutionInfo().GetStatus()
	if state == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		o.err = errors.New("not done within the deadline")
		return o
	}
	var res scmtemporal.ItemResult
	o.err = c.GetWorkflow(ctx, it.WorkflowID, it.RunID).Get(ctx, &res)
	o.status, o.resultID = lateStatus(state, o.err), res.ExperimentResultID
	return o
}

// lateStatus names a closed workflow's end as the summary does.
func lateStatus(state enumspb.WorkflowExecutionStatus, err error) string {
	var appErr *temporal.ApplicationError
	switch {
	case state == enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED && err == nil:
		return string(scmtemporal.ItemDone)
	case state == enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return string(scmtemporal.ItemCancelled)
	case errors.As(err, &appErr) && appErr.Type() == scmtemporal.ErrTypeStartUnknown:
		return string(scmtemporal.ItemUnknown)
	}
	return string(scmtemporal.ItemFailed) + " (" + strings.ToLower(strings.TrimPrefix(state.String(), "WORKFLOW_EXECUTION_STATUS_")) + ")"
}

// describe is the server's description of a workflow run.
func describe(ctx context.Context, c client.Client, id, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	d, err := c.DescribeWorkflow(ctx, id, runID)
	if err != nil {
		return nil, err
	}
	return d.RawResponse, nil
}
