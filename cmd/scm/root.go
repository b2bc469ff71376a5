package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/internal/runshow"
	"github.com/scmodel/scmgo/limits"
)

// Exit codes.
const (
	exitOK    = 0
	exitAPI   = 1 // the server or the network failed
	exitUsage = 2 // the command line is wrong

	exitInterrupted = 130 // Ctrl-C ended a wait, as shells report SIGINT
)

// usageError marks an error as the user's: it exits with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// app is one invocation: its streams and the settings from flags and the
// environment.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	baseURL    string
	apiKey     string
	keyPrefix  string
	caCert     string
	skipVerify bool
	verbose    bool
	quiet      bool
	insecure   bool

	attemptTimeout time.Duration   // --request-timeout
	timeoutSet     bool            // --request-timeout was given
	maxTime        time.Duration   // --timeout (--max-time, its former name)
	limited        context.Context // the command's context under --timeout, to explain its end
	readOnly       bool            // send no operation that changes state (scm demo --read-only)
	heldOpenShown  bool            // a held-open call's wait is shown by its command: no notice for it
	noFollow       bool            // --no-follow: refuse to write through a symbolic link

	driftReport string   // --drift-report
	drift       driftLog // the clients made, for the differences from the spec they saw

	// telemetry is what the clients export over OTLP; nil: nothing.
	telemetry *telemetry

	// redactor removes the client's secrets from what scm prints and
	// from the text files it writes; nil until a client is made.
	redactor *facade.Redactor
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// Both streams go through the client's Redactor once one is made, and
	// serialise writes: progress and stop notices write from other
	// goroutines.
	stdout, stderr = &redactedStream{raw: stdout}, &redactedStream{raw: stderr}
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, attemptTimeout: defaultAttemptTimeout}
	defer a.flushStreams() // after the error and the telemetry's last words
	a.telemetry = startTelemetry(ctx, os.Getenv, stderr)
	root := a.rootCommand()
	flagNotesTo(root, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(a.telemetry.startCommand(ctx))
	defer func() { a.telemetry.end(ctx, cmd, err, code, stderr) }()
	a.reportDrift()
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errInterrupted) {
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), unstutter(cmd.CommandPath(), a.errorText(err)))
	return exitCode(ctx, err)
}

// exitCode classifies a failed command: the user's input (caught here or by
// the SDK before sending: a *facade.ValidationError, not a 400 the server
// answered), an interrupt, or the server and network. An answer the SDK
// refused is the server's, whatever else the error holds.
func exitCode(ctx context.Context, err error) int {
	var usage usageError
	switch {
	case !fromAnswer(err) && (errors.As(err, &usage) || isCobraUsage(err) || errors.As(err, new(*facade.ValidationError))):
		return exitUsage
	case ctx.Err() != nil && !runshow.StopFailed(err):
		return exitInterrupted
	}
	return exitAPI
}

// fromAnswer reports an error about what the server answered: a value it
// lacks or that cannot be used (an id that is not one), or more than a
// limit allows. It is never the command line's fault.
func fromAnswer(err error) bool {
	return errors.Is(err, facade.ErrMalformed) || errors.Is(err, limits.ErrLimit)
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "scm",
		Short: "Drive the supply-chain modelling server from the shell",
		Long: `scm drives the remote interface of the supply-chain modelling server.

Start with 'scm demo': it runs the whole workflow against an embedded fake
server, no licensed server needed. 'scm call' reaches every operation by its
camelCase or snake_case name; 'scm ops' lists them.

Settings come from flags, then the environment: SCM_BASE_URL, SCM_API_KEY,
SCM_API_KEY_PREFIX and SCM_CA_CERT. The API key is never printed.

With OTEL_EXPORTER_OTLP_ENDPOINT set, scm exports the traces and metrics of
what it does over OTLP/HTTP (http/protobuf); OTEL_SERVICE_NAME names the
service (default scm). Without it scm exports nothing.

Exit codes: 0 success, 1 API or network error, 2 usage error, 130 interrupted
(Ctrl-C).`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.fillFromEnv()
			return nil
		},
	}
	root.SetFlagErrorFunc(flagError)
	f := root.PersistentFlags()
	f.StringVar(&a.baseURL, "base-url", "", "server base URL ending in /api/v1 (env SCM_BASE_URL)")
	f.StringVar(&a.apiKey, "api-key", "", "API key (env SCM_API_KEY); never printed")
	f.StringVar(&a.keyPrefix, "api-key-prefix", "", "word sent before the key, e.g. Bearer (env SCM_API_KEY_PREFIX)")
	f.BoolVarP(&a.verbose, "verbose", "v", false, "log each request (the key is redacted)")
	f.BoolVarP(&a.quiet, "quiet", "q", false, "print no progress")
	f.BoolVar(&a.insecure, "insecure-http", false, "allow sending the key over plain http to a host that is not loopback")
	f.StringVar(&a.caCert, "ca-cert", "", "PEM file of the CA that signed the server's certificate (env SCM_CA_CERT)")
	f.BoolVar(&a.skipVerify, "insecure-skip-verify", false, "do not verify the server's certificate (the key can then be read on the path)")
	f.StringVar(&a.driftReport, "drift-report", "", "write where the server's answers differed from the spec to FILE, as JSON (specdiff overlay reads it)")
	root.AddCommand(a.demoCommand(), a.opsCommand(), a.callCommand(), a.completionCommand(), a.doctorCommand())
	a.addWorkflowCommands(root)
	return root
}

// fillFromEnv fills the settings that no flag gave from the environment.
func (a *app) fillFromEnv() {
	for _, s := range []struct {
		dst *string
		env string
	}{{&a.baseURL, "SCM_BASE_URL"}, {&a.apiKey, "SCM_API_KEY"}, {&a.keyPrefix, "SCM_API_KEY_PREFIX"}, {&a.caCert, "SCM_CA_CERT"}} {
		if *s.dst == "" {
			*s.dst = os.Getenv(s.env)
		}
	}
}

// isTerminal reports whether w is a terminal, for indentation and progress
// bars, and to refuse a binary format there. A writer that says whether
// it is one (the tests' terminals) is believed.
func isTerminal(w io.Writer) bool {
	switch s := w.(type) {
	case *syncWriter:
		w = s.w
	case *redactedStream:
		w = s.raw
	}
	if t, ok := w.(interface{ Terminal() bool }); ok {
		return t.Terminal()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func version() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// shortVersion is the version as one token, for the User-Agent and the
// telemetry's service.version: the module version, else devel+REVISION,
// else devel.
func shortVersion() string {
	info, _ := debug.ReadBuildInfo()
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && s.Value != "" {
			return "devel+" + s.Value[:min(len(s.Value), 12)]
		}
	}
	return "devel"
}

// versionOf is the module version a binary was built from, when built from
// a tag (or as a dependency of a tagged module); else the VCS revision it
// was built from, with its time and whether the tree was modified; else
// "devel" with why there is neither.
func versionOf(info *debug.BuildInfo) string {
	if info == nil {
		return "devel (no build information)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "devel (no version or VCS revision was stamped: built with go run, or outside a checkout)"
	}
	v := "devel, revision " + rev[:min(len(rev), 12)]
	if t := settings["vcs.time"]; t != "" {
		v += " of " + t
	}
	if settings["vcs.modified"] == "true" {
		v += ", modified"
	}
	return v
}

func (a *app) completionCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:       "completion bash|zsh|fish [-o PATH]",
		Short:     "Print a shell completion script",
		Example:   "  scm completion bash   # write it where your shell loads completions from",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(a.stdout, true)
			case "zsh":
				return root.GenZshCompletion(a.stdout)
			case "fish":
				return root.GenFishCompletion(a.stdout, true)
			}
			return usagef("completion: unknown shell %q (want bash, zsh or fish)", args[0])
		},
	}
	a.withOutput(cmd)
	return cmd
}
