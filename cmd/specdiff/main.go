package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// Exit codes (see report.ExitCode).
const (
	exitClean = report.ExitClean // no drift
	exitDrift = report.ExitDrift // drift found
	exitError = report.ExitError // bad input or usage
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	client         *http.Client
}

// run dispatches to the command args name; without one, it diffs
// listings.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr, client: &http.Client{Timeout: time.Minute}}
	if len(args) > 0 {
		switch args[0] {
		case "validate":
			return runValidate(e, args[1:])
		case "facade":
			return runFacade(e, args[1:])
		case "probe":
			return runProbe(ctx, e, args[1:])
		case "overlay":
			if len(args) > 1 && args[1] == "apply" {
				return runOverlayApply(e, args[2:])
			}
			return runOverlay(e, args[1:])
		}
	}
	return runDiff(ctx, e, args)
}

// fail says err on stderr and returns the exit code of bad input.
func fail(e env, err error) int {
	fmt.Fprintf(e.stderr, "specdiff: %v\n", err)
	return exitError
}

// write writes rep in the output mode -o names and returns the exit code
// it states.
func write(e env, output string, rep report.Report) int {
	if err := report.Write(e.stdout, output, rep); err != nil {
		return fail(e, err)
	}
	return rep.ExitCode()
}
