// Command temporal runs the items of a batch plan as Temporal workflows:
//
//	go run . worker               # a worker; start as many as you like
//	go run . start PLAN.yaml      # a workflow per item, then the summary
//
// Both reach Temporal at -temporal (default localhost:7233, as `temporal
// server start-dev` serves); the worker reaches the modelling server with
// SCM_BASE_URL and SCM_API_KEY. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/examples/temporal/itemflow"
	"github.com/scmodel/scmgo/facade"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "temporal example:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("temporal", flag.ContinueOnError)
	hostPort := fs.String("temporal", client.DefaultHostPort, "Temporal frontend host:port")
	namespace := fs.String("namespace", client.DefaultNamespace, "Temporal namespace")
	if len(args) == 0 {
		return errors.New("usage: worker | start PLAN.yaml [-temporal host:port] [-namespace ns]")
	}
	cmd := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	c, err := client.Dial(client.Options{HostPort: *hostPort, Namespace: *namespace})
	if err != nil {
		return err
	}
	defer c.Close()
	switch cmd {
	case "worker":
		return runWorker(c)
	case "start":
		if fs.NArg() != 1 {
			return errors.New("start: want one plan file")
		}
		return start(c, fs.Arg(0))
	}
	return fmt.Errorf("unknown command %q: want worker or start", cmd)
}

// runWorker serves the workflow and the activities until Ctrl-C.
func runWorker(c client.Client) error {
	scm, err := facade.NewFromEnv()
	if err != nil {
		return err
	}
	w := worker.New(c, itemflow.TaskQueue, worker.Options{})
	w.RegisterWorkflow(itemflow.ItemWorkflow)
	w.RegisterActivity(&itemflow.Activities{Client: scm})
	return w.Run(worker.InterruptCh())
}

// start starts a workflow per item of the plan, with an id made of the
// plan's name and the item's: started again, it attaches to the workflows
// already running and starts a completed item again only if it failed.
// It waits for them all and prints a summary; Ctrl-C cancels them.
func start(c client.Client, path string) error {
	plan, err := batch.ReadPlan(path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prefix := "scm-" + strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-"
	runs := make([]client.WorkflowRun, len(plan.Items))
	for i, it := range plan.Items {
		in, err := itemflow.InputFromPlan(it)
		if err != nil {
			return err
		}
		opts := client.StartWorkflowOptions{ID: prefix + it.Name, TaskQueue: itemflow.TaskQueue,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}
		if runs[i], err = c.ExecuteWorkflow(ctx, opts, itemflow.ItemWorkflow, in); err != nil {
			return fmt.Errorf("%s: %w", it.Name, err)
		}
		fmt.Printf("started %s (run %s)\n", runs[i].GetID(), runs[i].GetRunID())
	}
	context.AfterFunc(ctx, func() {
		for _, r := range runs {
			_ = c.CancelWorkflow(context.Background(), r.GetID(), "")
		}
	})
	return summarize(runs)
}

func summarize(runs []client.WorkflowRun) error {
	tw := tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSCENARIO\tRESULT\tOUTPUTS\tERROR")
	failed := 0
	for _, r := range runs {
		var res itemflow.ItemResult
		err := r.Get(context.Background(), &res)
		msg := ""
		if err != nil {
			failed++
			msg = err.Error()
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", r.GetID(), res.ScenarioID, res.ExperimentResultID, strings.Join(res.Outputs, ", "), msg)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d items did not finish", failed, len(runs))
	}
	return nil
}
