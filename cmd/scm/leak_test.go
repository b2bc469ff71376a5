package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

// asSCM, set in the environment, makes the test binary run as scm with its
// arguments: a test can then run scm as a process of its own and kill it.
const asSCM = "SCM_TEST_RUN_AS_SCM"

// TestMain fails the package when a test leaves a goroutine behind: the
// demo's embedded server, an interrupted wait or a streamed upload must all
// stop what they started.
func TestMain(m *testing.M) {
	if os.Getenv(asSCM) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	goleak.VerifyTestMain(m)
}
