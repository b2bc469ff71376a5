package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/runshow"
	"github.com/scmodel/scmgo/internal/textcut"
)

// errInterrupted ends a command that Ctrl-C stopped while it waited.
var errInterrupted = errors.New("interrupted")

// runFlags are the options of scm run.
type runFlags struct {
	wait, sync, stopOnCancel bool
	format                   format // table, json or jsonl
	bounds                   runBounds
}

func (a *app) runCommand() *cobra.Command {
	var (
		f    runFlags
		rcID ids.RcID
		out  *output
	)
	cmd := &cobra.Command{
		Use:   "run RCID [--wait | --sync] [--stop-on-cancel] [--format table|json|jsonl] [-o PATH]",
		Short: "Start a run of a running configuration, and optionally wait for its result",
		Long: `run starts a run of the running configuration RCID (scm experiments lists
them). With --wait it shows the run's progress until it ends and prints the
experimentResultId of its result, the id that scm results pages and scm export
dashboard take; a run that fails or is stopped exits with 1. With --sync it
runs the experiment synchronously (runExperimentSynchronously, as real clients
do): the call answers when the run is done, with the experimentResultId; a
scenario with validation errors answers HAS_ERRORS, and run prints every
distinct validation message with its source and how often it occurs (with
--format json, every one as the server sent it) and exits with 1.

With --wait or --sync the experimentResultId alone goes to standard output,
and what scm says of the run (its state, how long it took) to standard error.
A start refused because the configuration has a run under way that this
command did not start exits 1, saying so: scm status RCID tells when it has
ended. When the answer to the start is lost, scm asks the server whether it
took effect, and never starts it again: --stale-window (how long the server's
status may lag behind a start; 10s unless given) and --max-run-length (the
longest a run takes; without it a lost start is never ruled out) are the
bounds that answer needs. --wait takes a run's end as this start's once it has
held for the stale window.

Ctrl-C stops waiting; with --stop-on-cancel it also stops the run.
--format json prints the rcId, the run's state, the server's execution state
and the experimentResultId as one JSON object (jsonl: on one line).

An experimentResultId given as RCID is named as one when the server finds
no running configuration of that id, with the rcId of its run when the runs
the scenarios list show it.`,
		Example: `  scm run 10303 --wait
  scm run 10303 --wait --stale-window 5s --max-run-length 10m   # a server whose status lags under 5s, runs under 10m
  scm run 10303 --wait --format json
  scm run 10303 --sync
  scm run 10403 --sync   # scenario 104 has validation errors: exits 1 and lists them`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if err := f.bounds.check("run"); err != nil {
				return err
			}
			f.format = out.format
			var err error
			if f.sync {
				err = a.runSync(cmd.Context(), rcID, f)
			} else {
				err = a.runAsync(cmd.Context(), rcID, f)
			}
			return a.rcIDHintOf(cmd.Context(), rcID, err)
		},
	}
	idArg(cmd, &rcID, "")
	fl := cmd.Flags()
	fl.BoolVar(&f.wait, "wait", false, "wait until the run ends, showing its progress, and print its experimentResultId")
	fl.BoolVar(&f.sync, "sync", false, "run synchronously (runExperimentSynchronously): answers when the run is done")
	fl.BoolVar(&f.stopOnCancel, "stop-on-cancel", false, "with --wait or --sync: Ctrl-C also stops the run")
	out = a.withOutput(cmd, formatTable, formatJSON, formatJSONL).withAlias("text", formatTable)
	f.bounds.flags(cmd)
	return a.withTimeLimits(cmd)
}

func (f runFlags) check() error {
	switch {
	case f.wait && f.sync:
		return usagef("run: --wait and --sync are two ways to wait: give one")
	case f.stopOnCancel && !f.wait && !f.sync:
		return usagef("run: --stop-on-cancel needs --wait or --sync")
	}
	return nil
}

// runOutcome is what scm run --format json prints.
type runOutcome struct {
	RcID               ids.RcID                 `json:"rcId"`
	State              string                   `json:"state,omitempty"`
	ExecutionState     *gen.ExecutionState      `json:"executionState,omitempty"`
	ExperimentResultID ids.ExperimentResultID   `json:"experimentResultId,omitempty"`
	Started            *gen.ApiRunExperiment    `json:"started,omitempty"`
	Sync               *gen.ApiExperimentResult `json:"runExperimentSynchronously,omitempty"`
	// ValidationErrors is every validation error of a run that could not
	// start, as the server sent them.
	ValidationErrors []gen.ApiValidationError `json:"validationErrors,omitempty"`
}

func (a *app) runAsync(ctx context.Context, rcID ids.RcID, f runFlags) error {
	c, err := a.client(runOptions()...)
	if err != nil {
		return err
	}
	opts, err := startOptions(ctx, c, rcID)
	if err != nil {
		return err
	}
	run, err := c.Experiments.Start(ctx, rcID, opts)
	switch {
	case errors.Is(err, facade.ErrRunUnderWay):
		return runUnderWay{rcID: rcID, err: err}
	case errors.Is(err, facade.ErrMayHaveBeenApplied) && run != nil:
		err = a.settleStart(ctx, c, run, err, f.bounds)
	}
	if err != nil {
		return err
	}
	started := a.said()
	if f.format == formatTable && !f.wait {
		started = a.stdout
	}
	fmt.Fprintf(started, "Started rcId %d.\n", rcID)
	if !f.wait {
		return a.printRun(f.format, runOutcome{RcID: rcID, Started: facade.EvidenceOf(run).StartAnswer})
	}
	return a.waitRun(ctx, run, f)
}

// runUnderWay is a start refused because the configuration has a run under
// way that this command did not start: by the server, or before anything
// was sent (the status showed it).
type runUnderWay struct {
	rcID ids.RcID
	err  error // matches facade.ErrRunUnderWay
}

func (e runUnderWay) Error() string {
	why := "the status shows it"
	var api *facade.APIError
	if errors.As(e.err, &api) {
		why = fmt.Sprintf("the server refused the start: %q", textcut.Cut(api.Message, maxShownText))
	}
	return fmt.Sprintf("rcId %d has a run under way that this command did not start; wait for it (scm status %d) and run again (%s)", e.rcID, e.rcID, why)
}

func (e runUnderWay) Unwrap() error { return e.err }

// settleStart asks the server whether a start whose answer was lost took
// effect (facade.ExperimentsService.Began, within the bounds of
// --max-run-length and --stale-window): nil when it did. It never starts again: a start the
// server shows did not take effect (only where --max-run-length lets it
// rule the start out), or whose effect cannot be told, is an error saying
// so, and what to check.
func (a *app) settleStart(ctx context.Context, c *facade.Client, run *facade.Run, lost error, b runBounds) error {
	fmt.Fprintf(a.stderr, "The answer to the start of rcId %d was lost: asking the server whether it took effect (%s).\n", run.RcID(), b.window())
	began, err := c.Experiments.Began(ctx, run, b.waitOptions())
	switch {
	case errors.Is(err, facade.ErrStartUnknown):
		return fmt.Errorf("%w; nothing was sent again (--stale-window, how long the server's status lags, and --max-run-length, the longest a run takes, let scm tell more)", err)
	case err != nil:
		return err
	case !began:
		return fmt.Errorf("%w; the server shows that it did not take effect: no run was listed, under way or ended within --max-run-length %v and --stale-window %v after it; start it again", lost, b.maxRunLength, b.staleWindow())
	}
	return nil
}

func (a *app) waitRun(ctx context.Context, run *facade.Run, f runFlags) error {
	opts := f.bounds.waitOptions()
	opts.Policy, opts.StopOnCancel = followPoll, f.stopOnCancel
	defer a.announceStop(ctx, f.stopOnCancel, "Stopping run %s...", run.RcID())()
	if err := a.showRun(ctx, run, opts); err != nil {
		if final := run.State(); final != nil && f.format != formatTable && ctx.Err() == nil {
			_ = a.printRun(f.format, runOutcome{RcID: run.RcID(), State: string(facade.RunStateValue(final)), ExecutionState: final})
		}
		return a.waitError(ctx, "run", run.RcID(), f.stopOnCancel, err)
	}
	final, err := run.Result()
	if err != nil {
		return err
	}
	resultID, err := run.ResultID()
	if err != nil {
		return fmt.Errorf("run %d finished, but its experimentResultId is unknown: %w", run.RcID(), err)
	}
	return a.printRun(f.format, runOutcome{RcID: run.RcID(), State: string(facade.RunStateValue(final)), ExecutionState: final, ExperimentResultID: resultID})
}

// printRun prints a run's outcome: the experimentResultId alone on
// standard output and a sentence on standard error, or a JSON object (on
// one line for jsonl).
func (a *app) printRun(f format, out runOutcome) error {
	if f != formatTable {
		enc := json.NewEncoder(a.stdout)
		if f == formatJSON {
			enc.SetIndent("", "  ")
		}
		return enc.Encode(out)
	}
	if out.ExperimentResultID == 0 {
		return nil // started, not waited for: "Started" said it
	}
	fmt.Fprintf(a.said(), "rcId %d: %s, experimentResultId %d\n", out.RcID, out.State, out.ExperimentResultID)
	_, err := fmt.Fprintf(a.stdout, "%d\n", out.ExperimentResultID)
	return err
}

// runSync runs synchronously: one call that answers when the run is done.
// Its attempt may wait as long as the run takes; the notice says what scm
// waits for meanwhile.
func (a *app) runSync(ctx context.Context, rcID ids.RcID, f runFlags) error {
	a.heldOpenShown = true // the live line below says what scm waits for
	c, err := a.runClient(runOptions()...)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.said(), "Running rcId %d synchronously: the call answers when the run is done.\n", rcID)
	defer a.announceStop(ctx, f.stopOnCancel, "Stopping run %s...", rcID)()
	l := a.newLiveLine("run")
	if l.terminal {
		l.show("waiting for the synchronous run", nil)
	}
	start := clockOf().Now()
	out, err := c.Experiments.RunSync(ctx, rcID)
	l.close()
	if err != nil {
		return a.syncError(ctx, c, rcID, f, err)
	}
	fmt.Fprintf(a.said(), "Run of rcId %d done after %v.\n", rcID, clockOf().Now().Sub(start).Round(100*time.Millisecond))
	return a.printRun(f.format, runOutcome{RcID: rcID, State: string(out.ValidationStatus), ExperimentResultID: out.ExperimentResultId, Sync: out})
}

// syncError reports why a synchronous run gave no result: every
// validation message of a run that could not start, or an interrupt (the
// run then goes on, unless --stop-on-cancel stops it). The run is stopped
// as --wait stops one: a wait with StopOnCancel on the ended context stops
// it at once, with the facade's time limit and errors.
func (a *app) syncError(ctx context.Context, c *facade.Client, rcID ids.RcID, f runFlags, err error) error {
	var se *facade.StateError
	if errors.As(err, &se) && len(se.Details) > 0 {
		if f.format != formatTable {
			_ = a.printRun(f.format, runOutcome{RcID: rcID, State: se.State, ValidationErrors: se.Validation})
		}
		return validationFailure{rcID: rcID, state: se.State, groups: se.Groups(), total: len(se.Details)}
	}
	if ctx.Err() != nil && f.stopOnCancel {
		_, err = c.Run(rcID).Wait(ctx, &facade.WaitOptions{StopOnCancel: true})
	}
	return a.waitError(ctx, "run", rcID, f.stopOnCancel, err)
}

// validationFailure is a synchronous run that could not start: its
// message lists each distinct validation error with its source and how
// often it occurs, a line each (--format json prints every one).
type validationFailure struct {
	rcID   ids.RcID
	state  string
	groups []facade.DetailGroup
	total  int
}

func (e validationFailure) Error() string {
	lines := make([]string, len(e.groups))
	for i, g := range e.groups {
		lines[i] = fmt.Sprintf("%5d × %s", g.Count, g.Detail)
	}
	return fmt.Sprintf("runExperimentSynchronously: rcId %d did not run (%s), %d validation errors, %d distinct (count × message (source)):\n  %s",
		e.rcID, e.state, e.total, len(e.groups), strings.Join(lines, "\n  "))
}

// announceStop says, once Ctrl-C has ended a wait that stops the work on
// cancel, that the stop is under way: it may take a while, and a second
// Ctrl-C ends scm without it. It returns the function that withdraws it.
func (a *app) announceStop(ctx context.Context, stopOnCancel bool, format string, id fmt.Stringer) func() {
	if !stopOnCancel {
		return func() {}
	}
	said := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(said)
		fmt.Fprintf(a.stderr, format+" (Ctrl-C again to quit; the work may go on)\n", id)
	})
	return func() {
		if !stop() {
			<-said // it is being said: let it finish before scm goes on
		}
	}
}

// waitError explains why waiting ended: Ctrl-C or --timeout (and whether
// the work was stopped) or an error. --timeout is a failure (exit 1), not
// an interrupt.
func (a *app) waitError(ctx context.Context, what string, id fmt.Stringer, stopped bool, err error) error {
	if ctx.Err() == nil || runshow.StopFailed(err) {
		return err // a failed stop exits 1: the work may go on
	}
	outcome := fmt.Sprintf("stopped waiting; %s %s goes on", what, id)
	if stopped {
		outcome = fmt.Sprintf("stopped %s %s", what, id)
	}
	if maxTimePassed(ctx) {
		return fmt.Errorf("%w: %s", context.Cause(ctx), outcome)
	}
	fmt.Fprintf(a.stderr, "Interrupted: %s.\n", outcome)
	return errInterrupted
}

// said is where scm says what it does beside the command's output:
// standard error, nothing with --quiet.
func (a *app) said() io.Writer {
	if a.quiet {
		return io.Discard
	}
	return a.stderr
}

// runBounds are the bounds the user declares of the server and its runs
// (--max-run-length, --stale-window), which settle a lost start and take a
// run's end (facade.WaitOptions); zero: not declared.
type runBounds struct {
	maxRunLength, stale time.Duration
}

// The largest bounds the flags take: those of a batch's plan.
const (
	maxRunLengthBound = batch.MaxRunLengthBound
	staleWindowBound  = batch.StaleWindowBound
)

// flags adds --max-run-length and --stale-window to cmd.
func (b *runBounds) flags(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&b.maxRunLength, "max-run-length", 0,
		"the longest a run takes (e.g. 2h): lets scm rule out a start whose answer was lost, and start it again; 0, not declared")
	cmd.Flags().DurationVar(&b.stale, "stale-window", 0,
		"how long the server's status may lag behind a start (e.g. 30s); 0 means 10s")
}

// check refuses bounds a flag cannot take, naming the flag, before
// anything is sent.
func (b runBounds) check(command string) error {
	for _, f := range []struct {
		name     string
		d, limit time.Duration
	}{{"--max-run-length", b.maxRunLength, maxRunLengthBound}, {"--stale-window", b.stale, staleWindowBound}} {
		switch {
		case f.d < 0:
			return usagef("%s: %s %v: want a duration of 0 or more, such as 30s or 2h", command, f.name, f.d)
		case f.d > f.limit:
			return usagef("%s: %s %v: more than the %v it may be", command, f.name, f.d, f.limit)
		}
	}
	return nil
}

// followStaleWindow is the stale window of scm run and scm batch when
// --stale-window is not given: 0, the facade's default. The tests, whose
// fakes show a start at once, shorten it.
var followStaleWindow time.Duration

// waitOptions are the facade's options of the bounds.
func (b runBounds) waitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{MaxRunLength: b.maxRunLength, StaleWindow: b.staleWindow()}
}

// staleWindow is the stale window in force: the flag's, else the facade's
// default.
func (b runBounds) staleWindow() time.Duration {
	switch {
	case b.stale > 0:
		return b.stale
	case followStaleWindow > 0:
		return followStaleWindow
	}
	return facade.DefaultStaleWindow
}

// window says how long settling a lost start may take.
func (b runBounds) window() string {
	if b.maxRunLength == 0 {
		return fmt.Sprintf("for up to --stale-window %v", b.staleWindow())
	}
	return fmt.Sprintf("for up to --max-run-length %v and --stale-window %v", b.maxRunLength, b.staleWindow())
}
