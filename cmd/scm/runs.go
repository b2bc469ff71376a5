package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
)

// errInterrupted ends a command that Ctrl-C stopped while it waited.
var errInterrupted = errors.New("interrupted")

func (a *app) runCommand() *cobra.Command {
	var wait, stopOnCancel bool
	cmd := &cobra.Command{
		Use:   "run RCID [--wait] [--stop-on-cancel]",
		Short: "Start a run of a running configuration, and optionally wait for it",
		Long: `run starts a run of the running configuration RCID. With --wait it shows the
run's progress until it ends; a run that fails or is stopped exits with 1.
Ctrl-C stops waiting; with --stop-on-cancel it also stops the run.`,
		Args: oneID("run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			rcID, _ := strconv.ParseInt(args[0], 10, 64)
			run, err := c.Experiments.Start(cmd.Context(), rcID, nil)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Started rcId %d.\n", rcID)
			if !wait {
				return nil
			}
			return a.waitRun(cmd.Context(), run, stopOnCancel)
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait until the run ends, showing its progress")
	cmd.Flags().BoolVar(&stopOnCancel, "stop-on-cancel", false, "with --wait: Ctrl-C also stops the run")
	return cmd
}

func (a *app) waitRun(ctx context.Context, run *facade.Run, stopOnCancel bool) error {
	opts := interactivePoll()
	opts.StopOnCancel = stopOnCancel
	defer a.announceStop(ctx, stopOnCancel, "Stopping run %d...", run.RcID)()
	if err := a.showRun(ctx, run, opts); err != nil {
		return a.waitError(ctx, "run", run.RcID, stopOnCancel, err)
	}
	final, err := run.Result()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "rcId %d: %s\n", run.RcID, facade.RunStateValue(final))
	return nil
}

// announceStop says, once Ctrl-C has ended a wait that stops the work on
// cancel, that the stop is under way: it may take a while, and a second
// Ctrl-C ends scm without it. It returns the function that withdraws it.
func (a *app) announceStop(ctx context.Context, stopOnCancel bool, format string, id int64) func() {
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

// waitError explains why waiting ended: Ctrl-C (and whether the work was
// stopped) or an error.
func (a *app) waitError(ctx context.Context, what string, id int64, stopped bool, err error) error {
	if ctx.Err() == nil || errors.Is(err, facade.ErrStopFailed) {
		return err // a failed stop exits 1: the work may go on
	}
	if stopped {
		fmt.Fprintf(a.stderr, "Interrupted: stopped %s %d.\n", what, id)
	} else {
		fmt.Fprintf(a.stderr, "Interrupted: stopped waiting; %s %d goes on.\n", what, id)
	}
	return errInterrupted
}
