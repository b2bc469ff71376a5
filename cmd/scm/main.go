// Command scm drives the supply-chain modelling server from the shell: every
// operation by either name (scm call), workflow commands for the common jobs,
// and scm demo, which walks the whole workflow against an embedded fake
// server.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
