package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"

	"github.com/scmodel/scmgo/facade"
)

func main() {
	a := &app{stdout: os.Stdout, stderr: os.Stderr, env: envconfig.EnvLookupOS, dial: client.Dial, scm: facade.NewFromEnv,
		terminal: isTerminal(os.Stderr), interrupt: interruptContext}
	os.Exit(a.run(os.Args[1:]))
}

// app is the command with what it reaches outside: the tests replace them.
type app struct {
	stdout, stderr io.Writer
	env            envconfig.EnvLookup
	dial           func(client.Options) (client.Client, error)
	scm            func(...facade.Option) (*facade.Client, error)
	terminal       bool // stderr is a terminal: progress is shown
	interrupt      func() (context.Context, context.CancelFunc)
}

const usage = `usage: scm-temporal COMMAND [flags] [args]

Runs the items of a batch plan (scm batch's plans) as Temporal workflows,
one per item, on as many workers as you start.

  worker [flags]               serve the workflows until interrupted (on any
                               machine that sees the plan's files at the same
                               paths); the modelling server is SCM_BASE_URL
                               and SCM_API_KEY
  start [flags] PLAN.yaml      start a workflow per item (started again, it
                               attaches to those under way), show progress,
                               print the summary; Ctrl-C cancels them
  help                         this text

Run 'scm-temporal COMMAND -h' for the command's flags. Temporal is reached
as the Temporal CLI reaches it: its config file's profile, then
TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_* and
TEMPORAL_GRPC_META_*, then the flags.
`

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // the work failed: an item not done, a server not reached
	exitMistake = 2 // the command line or its input is wrong: nothing was done
)

// errUsage marks a mistake of the command line, answered with the usage.
var errUsage = errors.New("usage")

func (a *app) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(a.stderr, usage)
		return exitMistake
	}
	var err error
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(a.stdout, usage)
		return exitOK
	case "worker":
		err = a.worker(args[1:])
	case "start":
		err = a.start(args[1:])
	default:
		fmt.Fprintf(a.stderr, "scm-temporal: unknown command %q\n\n%s", args[0], usage)
		return exitMistake
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintln(a.stderr, "scm-temporal:", strings.TrimSuffix(err.Error(), ": "+errUsage.Error()))
		return exitMistake
	}
	fmt.Fprintln(a.stderr, "scm-temporal:", err)
	return exitFailed
}

// usagef is a mistake of the command line or of its input.
func usagef(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, errUsage)...)
}

// flags returns a flag set of the command, its usage on the app's output.
func (a *app) flags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet("scm-temporal "+name, flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	fs.Usage = func() {
		fmt.Fprintf(a.stderr, "usage: scm-temporal %s [flags]%s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses the flags: -h prints the usage (flag.ErrHelp), a flag
// mistake is a usage mistake.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return err
	}
	return usagef("%s: %v", fs.Name(), err)
}

// connect dials Temporal, once the command line and its input are known
// to be right.
func (a *app) connect(conn *connection) (client.Client, error) {
	opts, err := conn.clientOptions(a.env)
	if err != nil {
		return nil, usagef("%v", err)
	}
	opts.Logger = quietLogger{w: a.stderr}
	c, err := a.dial(opts)
	if err != nil {
		return nil, fmt.Errorf("reaching Temporal at %s (namespace %s): %w", opts.HostPort, opts.Namespace, err)
	}
	return c, nil
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
