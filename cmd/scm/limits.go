package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// defaultAttemptTimeout is how long a request may wait on a silent
// server when --request-timeout is not given: the facade's default.
const defaultAttemptTimeout = 60 * time.Second

// maxTimeExceeded is the cause of a command's context that --timeout
// ended: the command fails with exit code 1, as it was not interrupted.
type maxTimeExceeded struct{ limit time.Duration }

func (e maxTimeExceeded) Error() string { return fmt.Sprintf("--timeout %v passed", e.limit) }

// Help texts of the time limits. The names follow kubectl: --timeout
// bounds the whole command (kubectl wait --timeout), --request-timeout one
// request (kubectl --request-timeout).
const (
	timeoutHelp        = "how long the whole command may take, every request, retry and wait included (0: no limit)"
	requestTimeoutHelp = "how long one request may wait on a silent server (0: no limit; a synchronous run waits for the run unless this is given)"
)

// withTimeLimits gives a command that talks to a server --timeout (for the
// whole command, a deadline on its context) and --request-timeout (per
// request). --max-time is the former name of --timeout.
func (a *app) withTimeLimits(cmd *cobra.Command) *cobra.Command {
	f := cmd.Flags()
	f.DurationVar(&a.maxTime, "timeout", 0, timeoutHelp)
	f.DurationVar(&a.attemptTimeout, "request-timeout", defaultAttemptTimeout, requestTimeoutHelp)
	f.DurationVar(&a.maxTime, "max-time", 0, "the former name of --timeout")
	_ = f.MarkHidden("max-time")
	runE := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		a.timeoutSet = cmd.Flags().Changed("request-timeout")
		if cmd.Flags().Changed("max-time") {
			fmt.Fprintln(a.stderr, "scm: --max-time is the former name of --timeout, which bounds the whole command")
		}
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

// limitTime puts the --timeout deadline on ctx, and keeps ctx to explain
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
		return usagef("--request-timeout %v is negative", a.attemptTimeout)
	case a.maxTime < 0:
		return usagef("--timeout %v is negative", a.maxTime)
	}
	return nil
}

// maxTimePassed reports whether --timeout ended ctx.
func maxTimePassed(ctx context.Context) bool {
	return ctx != nil && errors.As(context.Cause(ctx), new(maxTimeExceeded))
}
