package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/scmtemporal"
)

// startFlags are the flags of start besides the connection's.
type startFlags struct {
	stopOnCancel                                     bool
	data, dataFormat, idPrefix                       string
	heartbeat, staleWindow, maxRunLength, runTimeout time.Duration
	maxJobLength                                     time.Duration
}

func (f *startFlags) register(fs interface {
	BoolVar(*bool, string, bool, string)
	StringVar(*string, string, string, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}) {
	fs.BoolVar(&f.stopOnCancel, "stop-on-cancel", false, "Ctrl-C (or a cancelled workflow) also stops the item's run on the server, where it can be told from another client's")
	fs.StringVar(&f.data, "data", "", "write every item's result rows to one dataset at `PATH`, as scm batch --data: its format by extension (.csv, .jsonl, .ndjson, .parquet); each worker writes its items' parts to PATH.parts/, which must be shared storage")
	fs.StringVar(&f.dataFormat, "data-format", "", "the dataset's format, csv, jsonl or parquet (default: by -data's extension)")
	fs.StringVar(&f.idPrefix, "id-prefix", "", "workflow ids begin with this (default scm-<plan name>-)")
	fs.DurationVar(&f.heartbeat, "heartbeat", 0, "heartbeat timeout of the steps that wait: a dead worker's step moves on after it (0: sized to the poll policy, at least 10s)")
	fs.DurationVar(&f.staleWindow, "stale-window", 0, "how long after a start the server's status may still show the last run's end (0: the facade's 10s)")
	fs.DurationVar(&f.maxRunLength, "max-run-length", 0, "the longest a run takes: declared, a start whose answer was lost and that nothing shows after it is sent again instead of stopping the item as unknown (0: not declared)")
	fs.DurationVar(&f.maxJobLength, "max-job-length", 0, "the longest an import takes from its send until its scenario is listed: declared, an import whose answer was lost and whose scenario is not listed after it is sent again instead of stopping the item as unknown (0: not declared)")
	fs.DurationVar(&f.runTimeout, "run-timeout", 0, "the longest the wait for a run may take, all its attempts (0: 72h)")
}

// dataFormats are the formats -data-format names.
var dataFormats = map[string]*batch.DataFormat{"csv": batch.CSV, "jsonl": batch.JSONL, "parquet": parquetData}

// planOptions are the options of the plan's workflows.
func (f *startFlags) planOptions(queue string) (scmtemporal.PlanOptions, error) {
	opts := scmtemporal.PlanOptions{TaskQueue: queue, IDPrefix: f.idPrefix, Data: f.data,
		Item: scmtemporal.Options{StopOnCancel: f.stopOnCancel, HeartbeatTimeout: f.heartbeat, StaleWindow: f.staleWindow,
			MaxRunLength: f.maxRunLength, MaxJobLength: f.maxJobLength, RunTimeout: f.runTimeout}}
	format := f.dataFormat
	if format == "" {
		format = strings.TrimPrefix(strings.ToLower(filepath.Ext(f.data)), ".")
	}
	switch {
	case f.data == "" && f.dataFormat != "":
		return opts, usagef("start: -data-format %s without -data: name the dataset's file", f.dataFormat)
	case f.data == "":
		return opts, nil
	case dataFormats[format] == nil && batch.FormatOf(f.data) == nil:
		return opts, usagef("start: -data %s: want a .csv, .jsonl, .ndjson or .parquet file, or -data-format", f.data)
	}
	opts.DataFormat = dataFormats[format]
	return opts, nil
}

// start starts the plan's workflows, waits for them, showing progress on
// a terminal, and prints the summary; Ctrl-C cancels them.
func (a *app) start(args []string) error {
	fs := a.flags("start", " PLAN.yaml")
	var conn connection
	var sf startFlags
	conn.register(fs)
	sf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	conn.noted(fs)
	if fs.NArg() != 1 {
		return usagef("start: want one plan file, got %d arguments", fs.NArg())
	}
	plan, opts, err := a.readPlan(fs.Arg(0), &sf, conn.taskQueue)
	if err != nil {
		return err
	}
	c, err := a.connect(&conn)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, stop := a.interrupt()
	defer stop()
	pr, err := scmtemporal.StartPlan(ctx, c, plan, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "started %d workflows on task queue %s (%s...)\n", len(pr.Items), opts.TaskQueue, firstID(pr))
	unwatch := context.AfterFunc(ctx, func() { a.cancel(pr) })
	sum, err := pr.Wait(context.WithoutCancel(ctx))
	unwatch() // done: nothing to cancel
	if a.terminal {
		fmt.Fprintln(a.stderr)
	}
	if err != nil {
		return err
	}
	return a.report(sum)
}

// readPlan reads and checks the plan, before anything is dialled.
func (a *app) readPlan(path string, sf *startFlags, queue string) (*batch.Plan, scmtemporal.PlanOptions, error) {
	opts, err := sf.planOptions(queue)
	if err != nil {
		return nil, opts, err
	}
	plan, err := batch.ReadPlan(path)
	if err != nil {
		return nil, opts, usagef("start: %v", err)
	}
	if _, err := scmtemporal.ItemsFromPlan(plan, opts); err != nil {
		return nil, opts, usagef("start: %v", err)
	}
	opts.Progress = progress(a.stderr, a.terminal)
	return plan, opts, nil
}

func firstID(pr *scmtemporal.PlanRun) string {
	if len(pr.Items) == 0 {
		return "no items"
	}
	return pr.Items[0].WorkflowID
}

// cancel asks every workflow of the plan to cancel.
func (a *app) cancel(pr *scmtemporal.PlanRun) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fmt.Fprintln(a.stderr, "\ncancelling the plan's workflows")
	if err := pr.Cancel(ctx); err != nil {
		fmt.Fprintln(a.stderr, "scm-temporal:", err)
	}
}

// report prints the summary and the dataset, and fails unless every item
// is done and the dataset written.
func (a *app) report(sum *scmtemporal.Summary) error {
	if err := sum.WriteTable(a.stdout); err != nil {
		return err
	}
	if d := sum.Data; d != nil && d.Err == nil {
		fmt.Fprintf(a.stderr, "dataset %s: %d items, %d rows, %d records\n", d.Path, d.Items, d.Rows, d.Records)
	}
	return sum.Err()
}

// progress shows, on a terminal, how many items are done, failed and
// running, on one line rewritten as items end.
func progress(w io.Writer, terminal bool) func(*scmtemporal.Summary) {
	if !terminal {
		return nil
	}
	return func(s *scmtemporal.Summary) {
		fmt.Fprintf(w, "\r%d of %d done, %d failed, %d unknown, %d cancelled, %d running  ", s.Count(scmtemporal.ItemDone), len(s.Items),
			s.Count(scmtemporal.ItemFailed), s.Count(scmtemporal.ItemUnknown), s.Count(scmtemporal.ItemCancelled), s.Count(scmtemporal.ItemNotEnded))
	}
}

// interruptContext ends on Ctrl-C or SIGTERM.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, sigterm)
}
