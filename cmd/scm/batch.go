package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/csvsafe"
)

func (a *app) batchCommand() *cobra.Command {
	var (
		opts               batch.Options
		bounds             runBounds
		dataPath, dataType string
		keepFormulas       bool
		out                *output
	)
	cmd := &cobra.Command{
		Use:   "batch PLAN.yaml [--parallel N] [--stop-on-cancel] [--retry-failed] [--format table|json|jsonl|csv] [-o PATH] [--data PATH]",
		Short: "Run a plan of experiments, resuming where a killed batch stopped",
		Long: `batch runs the items of a plan: each imports a workbook as a new scenario (or
takes an existing scenario), runs an experiment of a type on it and exports
every dashboard page of the result into one workbook. It shows a progress line
per item and an overall one, and ends with a summary (item, scenario, state,
duration in seconds, output files) on standard output, or in the file -o
names: a table, or csv, json (one document: the items, how many queued, the
dataset) or jsonl (an object per item). The summary is written when an item
failed too.

Every id (jobId, scenarioId, rcId, runId, experimentResultId) and output is
written to a state file beside the plan (plan.yaml has plan.state.json) as soon
as it is known. Started again after it was killed, batch goes on from there:
it polls the recorded jobs and runs and never imports or starts a run twice for
an item. Items done are skipped; failed ones too, unless --retry-failed.
Items that run the same experiment of one scenario share its run
configuration, which runs once at a time: they queue for it, and the plan's
check notes them.

--data PATH also writes the rows of every item's result into one dataset,
in the long layout of scm results export (a record per value: page, sheet,
chart, row, column, kind, and the value in number, time, text or bool), each
record beginning with the item's name, scenario_id and rc_id (result_id is
its experimentResultId). The format is CSV, JSON Lines or Parquet, by PATH's
extension (.csv, .jsonl, .parquet) or --data-format; an extension that
names another format than --data-format is refused. Each item's rows go to
a part of its own as it ends (PATH.parts/ITEM.csv), written whole and
recorded in the state file before the item is done; the dataset is written
from the parts of every item done when the batch ends, replaced whole. A
batch killed while rows are written writes them again when it resumes:
each item's rows are in the dataset exactly once. Items done by an earlier
batch without --data get their rows written, and nothing else is run.

In CSV (--format csv's summary, a CSV dataset), a text that begins with =,
+, -, @, a tab or a carriage return is written with a single quote before
it, so that a spreadsheet opening the file shows it rather than runs it as
a formula; numbers are written as they are. --keep-formulas writes every
text as sent.

An item whose run configuration has a run under way that the batch did not
start (another process's) waits for it to end, saying so, then starts its
own: it never takes that run for its own. When the answer to a start is lost,
the batch asks the server whether it took effect and never sends it again on
a guess: an item the server cannot settle is unknown, saying what to check,
until --retry-failed. The plan's maxRunLength and staleWindow (or an item's
own, or else --max-run-length and --stale-window) are the bounds that answer
needs: how long a run takes at most (without it a lost start is never ruled
out and sent again) and how long the server's status may lag behind a start
(10s unless given; a run's end is taken as the item's once it has held that
long). A state file whose items' run tokens are not theirs (swapped between
items, edited, or made for another server) is refused before anything is
sent (exit 2).

Ctrl-C leaves the runs and imports under way going, recorded for the next
batch to wait for; with --stop-on-cancel it stops them, and the next batch
starts them anew. The exit code is 0 when every item is done, 1 when one is
not, 2 for a mistake in the plan (each reported with its line and field before
anything is sent) and 130 when interrupted.

A plan:

  project: 1
  output: out
  staleWindow: 30s        # how long the server's status lags behind a start
  maxRunLength: 2h        # the longest a run takes
  items:
    - name: high-demand
      workbook: variants/high-demand.xlsx
      experiment: SIMULATION
      export:
        dashboard: high-demand.xlsx
    - name: baseline
      scenario: 101
      experiment: GFA`,
		Example: "  scm batch plan.yaml --parallel 2\n  scm batch plan.yaml --data out/results.parquet",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("batch: want one plan file, have %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bounds.check("batch"); err != nil {
				return err
			}
			opts.MaxRunLength, opts.StaleWindow = bounds.maxRunLength, cmp.Or(bounds.stale, followStaleWindow)
			data, err := batchDataset(dataPath, dataType, keepFormulas)
			if err != nil {
				return err
			}
			opts.Data = data
			return a.runBatch(cmd.Context(), args[0], opts, summaryFormat{name: out.format, keepFormulas: keepFormulas})
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Parallel, "parallel", batch.DefaultParallel, "items worked on at once")
	f.BoolVar(&opts.StopOnCancel, "stop-on-cancel", false, "Ctrl-C also stops the runs and cancels the imports under way")
	f.BoolVar(&opts.RetryFailed, "retry-failed", false, "work again on the items that failed in an earlier batch")
	f.StringVar(&opts.StatePath, "state", "", "state file (default: beside the plan, named after it, .state.json)")
	f.StringVar(&dataPath, "data", "", "also write every item's rows into this dataset file (.csv, .jsonl or .parquet)")
	f.StringVar(&dataType, "data-format", "", "the dataset's format: csv, jsonl or parquet (default: by the extension of --data)")
	f.BoolVar(&keepFormulas, "keep-formulas", false, keepFormulasHelp)
	out = a.withOutput(cmd, listFormats...)
	bounds.flags(cmd)
	return a.withTimeLimits(cmd)
}

// summaryFormat is how scm batch writes its summary: --format and
// --keep-formulas.
type summaryFormat struct {
	name         format
	keepFormulas bool
}

func (a *app) runBatch(ctx context.Context, planPath string, opts batch.Options, format summaryFormat) error {
	if opts.Parallel < 1 {
		return usagef("batch: --parallel %d: want at least 1", opts.Parallel)
	}
	plan, err := batch.ReadPlan(planPath)
	if err != nil {
		return usageError{planErrors(err)}
	}
	if err := a.refuseLinks(plan, opts.Data); err != nil {
		return err
	}
	c, err := a.client(runOptions()...)
	if err != nil {
		return err
	}
	display := a.newBatchDisplay(plan)
	display.notes(plan.Notes)
	display.boundNotes(plan, opts)
	opts.Progress = display.event
	if opts.Data != nil {
		opts.Data.Notes = display.note
		opts.Data.Format = a.redactedFormat(opts.Data.Format)
	}
	opts.Poll, opts.Clock = followPoll, clockOf()
	r, err := batch.NewRunner(c, plan, &opts)
	if err != nil {
		return usageError{err}
	}
	display.start(r)
	defer a.announceBatchStop(ctx, opts.StopOnCancel)()
	sum, err := r.Run(ctx)
	display.finish()
	if err != nil {
		return err
	}
	if err := a.writeSummary(sum, format); err != nil {
		return err
	}
	if err := a.batchOutcome(ctx, sum, r.StatePath(), opts.StopOnCancel); err != nil {
		return wholeOutput{err} // the summary is whole: -o's file is written
	}
	return nil
}

// refuseLinks refuses, with --no-follow, a plan whose exports or dataset
// would be written through a symbolic link, before anything is sent.
func (a *app) refuseLinks(plan *batch.Plan, data *batch.Dataset) error {
	if !a.noFollow {
		return nil
	}
	paths := []string{}
	for _, it := range plan.Items {
		paths = append(paths, it.DashboardPath)
	}
	if data != nil {
		paths = append(paths, data.Path)
	}
	for _, p := range paths {
		if info, err := os.Lstat(p); p != "" && err == nil && info.Mode().Type() == fs.ModeSymlink {
			return usagef("--no-follow: %s is a symbolic link, and the batch would write through it: write to the file itself, or remove the link", p)
		}
	}
	return nil
}

// planErrors puts each mistake of a plan on its own line.
func planErrors(err error) error {
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) < 2 {
		return err
	}
	lines := []string{fmt.Sprintf("batch: the plan has %d mistakes:", len(joined.Unwrap()))}
	for _, e := range joined.Unwrap() {
		lines = append(lines, "  "+e.Error())
	}
	return errors.New(strings.Join(lines, "\n"))
}

// announceBatchStop says, once Ctrl-C has ended the batch with
// --stop-on-cancel, that the work under way is being stopped.
func (a *app) announceBatchStop(ctx context.Context, stopOnCancel bool) func() {
	if !stopOnCancel {
		return func() {}
	}
	said := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(said)
		fmt.Fprintln(a.stderr, "Stopping the runs and imports under way... (Ctrl-C again to quit; the work may go on)")
	})
	return func() {
		if !stop() {
			<-said
		}
	}
}

// batchOutcome is the exit of a batch: nil when every item is done.
func (a *app) batchOutcome(ctx context.Context, sum *batch.Summary, statePath string, stopped bool) error {
	if ctx.Err() != nil {
		what := "their runs and imports go on"
		if stopped {
			what = "their runs and imports were stopped"
		}
		outcome := fmt.Sprintf("%d under way, recorded in %s (%s); run the batch again to resume", sum.Count(batch.Interrupted), statePath, what)
		if maxTimePassed(ctx) {
			return fmt.Errorf("%w: %s", context.Cause(ctx), outcome)
		}
		fmt.Fprintf(a.stderr, "Interrupted: %s.\n", outcome)
		return errInterrupted
	}
	if sum.Data != nil && sum.Data.Err != nil {
		return fmt.Errorf("%w; the parts are kept, and the next batch writes it", sum.Data.Err)
	}
	if sum.OK() {
		return nil
	}
	n := map[batch.Status]int{}
	for _, it := range sum.Items {
		n[it.Status]++
	}
	return fmt.Errorf("batch: %s; the state is in %s", countLine(n, len(sum.Items)), statePath)
}

// writeSummary writes a line per item: a table with the errors below it,
// CSV with an error column, JSON or JSON Lines. A line after them (on
// standard error for all but the table) says how many items waited for a
// run configuration.
func (a *app) writeSummary(sum *batch.Summary, format summaryFormat) error {
	var err error
	out := a.stderr
	switch format.name {
	case formatCSV:
		err = a.writeSummaryCSV(sum, format.keepFormulas)
	case formatJSON, formatJSONL:
		err = a.writeSummaryJSON(sum, format.name)
	default:
		err, out = a.writeSummaryTable(sum), a.stdout
	}
	if err == nil && sum.Queued > 0 {
		_, err = fmt.Fprintf(out, "%d of %d items waited for a run configuration that another item was running.\n", sum.Queued, len(sum.Items))
	}
	if err == nil {
		err = writeDataSummary(out, sum.Data, len(sum.Items))
	}
	return err
}

// summaryItem is an item of the summary as json and jsonl write it.
type summaryItem struct {
	Name     string   `json:"item"`
	Scenario int64    `json:"scenario,omitempty"`
	State    string   `json:"state"`
	Duration float64  `json:"durationSeconds"`
	Outputs  []string `json:"outputs"`
	Error    string   `json:"error,omitempty"`
	Queued   bool     `json:"queued,omitempty"`
}

// summaryData is the dataset of a batch as the json summary writes it.
type summaryData struct {
	Path    string `json:"path"`
	Written bool   `json:"written"`
	Records int64  `json:"records"`
	Rows    int64  `json:"rows"`
	Items   int    `json:"items"`
	Error   string `json:"error,omitempty"`
}

func dataOf(d *batch.DataSummary) *summaryData {
	if d == nil {
		return nil
	}
	out := &summaryData{Path: d.Path, Written: d.Written, Records: d.Records, Rows: d.Rows, Items: d.Items}
	if d.Err != nil {
		out.Error = d.Err.Error()
	}
	return out
}

// writeSummaryJSON writes the summary as one document (the items, how
// many waited, the dataset) or an object per item.
func (a *app) writeSummaryJSON(sum *batch.Summary, f format) error {
	items := make([]summaryItem, len(sum.Items))
	for i, it := range sum.Items {
		items[i] = summaryItem{Name: it.Name, Scenario: int64(it.ScenarioID), State: string(it.Status), Duration: it.Duration.Seconds(),
			Outputs: append([]string{}, it.Outputs...), Error: it.Error, Queued: it.Queued}
	}
	if f == formatJSONL {
		return writeJSONLines(a, items)
	}
	doc := struct {
		Items  []summaryItem `json:"items"`
		Queued int           `json:"queued"`
		Data   *summaryData  `json:"data,omitempty"`
	}{items, sum.Queued, dataOf(sum.Data)}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// writeSummaryCSV writes the summary through csvsafe: the names, states,
// outputs and errors as text fields, neutralised unless keepFormulas, the
// scenario and the duration as numbers.
func (a *app) writeSummaryCSV(sum *batch.Summary, keepFormulas bool) error {
	w := csvsafe.NewWriter(a.stdout, csvsafe.Options{KeepFormulas: keepFormulas})
	_ = w.WriteText("item", "scenario", "state", "duration", "outputs", "error")
	for _, it := range sum.Items {
		w.Text(it.Name)
		w.Number(idOrEmpty(it.ScenarioID))
		w.Text(string(it.Status))
		w.Number(strconv.FormatFloat(it.Duration.Seconds(), 'f', 1, 64))
		w.Text(strings.Join(it.Outputs, ";"))
		w.Text(it.Error)
		_ = w.EndRecord()
	}
	return w.Flush()
}

func (a *app) writeSummaryTable(sum *batch.Summary) error {
	tw := a.table("ITEM", "SCENARIO", "STATE", "DURATION", "OUTPUTS")
	for _, it := range sum.Items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", it.Name, orDash(idOrEmpty(it.ScenarioID)), it.Status,
			orDash(roundDuration(it.Duration)), orDash(strings.Join(it.Outputs, ", ")))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, it := range sum.Items {
		if it.Status != batch.Done && it.Error != "" {
			fmt.Fprintf(a.stdout, "%s: %s\n", it.Name, it.Error)
		}
	}
	return nil
}

func idOrEmpty(id ids.ScenarioID) string {
	if id == 0 {
		return ""
	}
	return id.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func roundDuration(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return d.Round(time.Second).String()
}
