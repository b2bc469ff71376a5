package main

import (
	"context"

	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
	"github.com/scmodel/scmgo/scmtemporal"
)

// parquetData is the Parquet format of a plan's dataset, as scm batch
// writes it.
var parquetData = &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}

// worker serves the workflow and the activities on the task queue until
// interrupted.
func (a *app) worker(args []string) error {
	fs := a.flags("worker", "")
	var conn connection
	conn.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	conn.noted(fs)
	if fs.NArg() != 0 {
		return usagef("worker: takes no arguments, got %q", fs.Args())
	}
	scm, err := a.scm()
	if err != nil {
		return usagef("worker: the modelling server (SCM_BASE_URL, SCM_API_KEY): %v", err)
	}
	c, err := a.connect(&conn)
	if err != nil {
		return err
	}
	defer c.Close()
	acts := &scmtemporal.Activities{Client: scm, DataFormats: []*batch.DataFormat{parquetData}}
	w, err := scmtemporal.NewWorker(c, conn.taskQueue, acts, worker.Options{})
	if err != nil {
		return err
	}
	ctx, stop := a.interrupt()
	defer stop()
	interrupted := make(chan any)
	context.AfterFunc(ctx, func() { close(interrupted) })
	return w.Run(interrupted)
}
