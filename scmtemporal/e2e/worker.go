package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/facade"
)

// workerMain is the worker subcommand: a Temporal worker of package
// temporal's workflow and activities, on the modelling server of
// SCM_BASE_URL and SCM_API_KEY, until SIGTERM or SIGINT. It prints "worker
// ready" once it polls, and journals every activity attempt to -journal.
func workerMain(args []string) error {
	fs := flag.NewFlagSet("e2e worker", flag.ContinueOnError)
	hostPort := fs.String("temporal", client.DefaultHostPort, "Temporal frontend host:port")
	identity := fs.String("identity", "", "the worker's identity in Temporal's history")
	journalPath := fs.String("journal", "", "file to append a line to when each activity attempt begins and ends")
	queue := fs.String("queue", taskQueue, "the task queue")
	if err := fs.Parse(args); err != nil {
		return err
	}
	scm, err := facade.NewFromEnv()
	if err != nil {
		return err
	}
	c, err := client.Dial(client.Options{HostPort: *hostPort, Identity: *identity, Logger: quietLogger{}})
	if err != nil {
		return err
	}
	defer c.Close()
	var opts worker.Options
	if *journalPath != "" {
		j, err := openJournal(*journalPath, *identity)
		if err != nil {
			return err
		}
		opts.Interceptors = []interceptor.WorkerInterceptor{&journalInterceptor{j: j}}
	}
	w, err := newWorker(c, *queue, scm, opts)
	if err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	fmt.Println("worker ready")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	<-ctx.Done()
	w.Stop()
	return nil
}
