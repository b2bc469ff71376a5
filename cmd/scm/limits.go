package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// defaultAttemptTimeout is how long an attempt may wait on a silent
// server when --timeout is not given: the facade's default.
const defaultAttemptTimeout = 60 * time.Second

// maxTimeExceeded is the cause of a command's context that --max-time
// ended: the command fails with exit code 1, as it was not interrupted.
type maxTimeExceeded struct{ limit time.Duration }

func (e maxTimeExceeded) Error() string { return fmt.Sprintf("--max-time %v passed", e.limit) }

// withTimeLimits gives a command that talks to a server --timeout (per
// attempt) and --max-time (for the whole command, a deadline on its
// context).
func (a *app) withTimeLimits(cmd *cobra.Command) *cobra.Command {
	f := cmd.Flags()
	f.DurationVar(&a.attemptTimeout, "timeout", defaultAttemptTimeout, "how long one attempt may wait on a silent server (0: no limit; a synchronous run waits for the run unless this is given)")
	f.DurationVar(&a.maxTime, "max-time", 0, "how long the whole command may take, waits included (0: no limit)")
	runE := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		a.timeoutSet = cmd.Flags().Changed("timeout")
		if err := a.checkTimeLimits(); err != nil {
			return err
		}
		ctx, cancel := a.limitTime(cmd.Context())
		defer cancel()
		cmd.SetContext(ctx)
		return runE(cmd, args)
	}
	return cmd
}

// limitTime puts the --max-time deadline on ctx, and keeps ctx to explain
// a failure it causes.
func (a *app) limitTime(ctx context.Context) (context.Context, context.CancelFunc) {
	cancel := context.CancelFunc(func() {})
	if a.maxTime > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, a.maxTime, maxTimeExceeded{a.maxTime})
	}
	a.limited = ctx
	return ctx, cancel
}

// checkTimeLimits refuses negative limits.
func (a *app) checkTimeLimits() error {
	switch {
	case a.attemptTimeout < 0:
		return usagef("--timeout %v is negative", a.attemptTimeout)
	case a.maxTime < 0:
		return usagef("--max-time %v is negative", a.maxTime)
	}
	return nil
}

// maxTimePassed reports whether --max-time ended ctx.
func maxTimePassed(ctx context.Context) bool {
	return ctx != nil && errors.As(context.Cause(ctx), new(maxTimeExceeded))
}
