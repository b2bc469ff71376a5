// Command temporal runs the items of a batch plan as Temporal workflows,
// with the module github.com/scmodel/scmgo/scmtemporal:
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
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmtemporal"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "temporal example:", err)
		os.Exit(1)
	}
}

const usage = "usage: worker | start [-stop-on-cancel] [-data DIR] [-heartbeat DURATION] PLAN.yaml, with [-temporal host:port] [-namespace ns] [-queue name]"

func run(args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("temporal", flag.ContinueOnError)
	hostPort := fs.String("temporal", client.DefaultHostPort, "Temporal frontend host:port")
	namespace := fs.String("namespace", client.DefaultNamespace, "Temporal namespace")
	queue := fs.String("queue", scmtemporal.DefaultTaskQueue, "task queue")
	stopOnCancel := fs.Bool("stop-on-cancel", false, "start: Ctrl-C also stops the runs on the server")
	data := fs.String("data", "", "start: write the plan's dataset of every item's rows to PATH (.csv or .jsonl)")
	heartbeat := fs.Duration("heartbeat", 0, "start: the heartbeat timeout of the waiting activities, after which a dead worker's work moves to another (0: sized to the poll policy)")
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
		return runWorker(c, *queue)
	case "start":
		if fs.NArg() != 1 {
			return errors.New("start: want one plan file")
		}
		opts := scmtemporal.PlanOptions{TaskQueue: *queue, Data: *data, Item: scmtemporal.Options{StopOnCancel: *stopOnCancel, HeartbeatTimeout: *heartbeat}}
		return start(c, fs.Arg(0), opts)
	}
	return fmt.Errorf("unknown command %q: %s", cmd, usage)
}

// runWorker serves the workflow and the activities until Ctrl-C.
func runWorker(c client.Client, queue string) error {
	scm, err := facade.NewFromEnv()
	if err != nil {
		return err
	}
	w, err := scmtemporal.NewWorker(c, queue, &scmtemporal.Activities{Client: scm}, worker.Options{})
	if err != nil {
		return err
	}
	return w.Run(worker.InterruptCh())
}

// start starts the plan's workflows (started again, it attaches to those
// under way), waits for them all and prints the summary; Ctrl-C cancels
// them.
func start(c client.Client, path string, opts scmtemporal.PlanOptions) error {
	plan, err := batch.ReadPlan(path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	pr, err := scmtemporal.StartPlan(ctx, c, plan, opts)
	if err != nil {
		return err
	}
	for _, it := range pr.Items {
		fmt.Printf("started %s (run %s)\n", it.WorkflowID, it.RunID)
	}
	context.AfterFunc(ctx, func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := pr.Cancel(cctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	})
	sum, err := pr.Wait(context.WithoutCancel(ctx))
	if err != nil {
		return err
	}
	if err := sum.WriteTable(os.Stdout); err != nil {
		return err
	}
	return sum.Err()
}
