package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
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
			return runOverlay(e, args[1:])
		}
	}
	return runDiff(ctx, e, args)
}

// common are the flags every command takes.
type common struct {
	spec, output string
}

func newFlagSet(e env, name string, c *common) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { writeUsage(e.stdout) }
	fs.StringVar(&c.spec, "spec", "", "the spec `FILE` to compare with (default: the api/openapi.yaml built into specdiff)")
	fs.StringVar(&c.output, "o", "text", "output: text, json, markdown or github")
	return fs
}

// parseFlags parses args, flags before, between and after the other
// arguments (specdiff URL -header "..."), which it returns; "--" ends the
// flags. ok is false when the command is done, with code.
func parseFlags(e env, fs *flag.FlagSet, c *common, args []string) (rest []string, code int, ok bool) {
	rest, code, ok = parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	if !report.IsOutput(c.output) {
		fmt.Fprintf(e.stderr, "specdiff: -o %q: want text, json, markdown or github\n", c.output)
		return nil, exitError, false
	}
	return rest, 0, true
}

// parseArgs parses flags before, between and after the other arguments,
// which it returns; "--" ends the flags. ok is false when the command is
// done (-h, or a bad flag that fs reported), with code.
func parseArgs(fs *flag.FlagSet, args []string) (rest []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitClean, false
			}
			return nil, exitError, false
		}
		left := fs.Args() // Parse stops at the first argument that is not a flag
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			rest = append(rest, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		rest, args = append(rest, left[0]), left[1:]
	}
	return rest, 0, true
}

func runDiff(ctx context.Context, e env, args []string) int {
	var c common
	var conn connection
	fs := newFlagSet(e, "specdiff", &c)
	format := fs.String("format", listing.FormatAuto, "listing format: auto, openapi, markdown or plain")
	omissions := fs.String("omissions", "", "the known-omissions `FILE` (default: the embedded one with the embedded spec, else known-omissions.yaml beside -spec)")
	conn.register(fs)
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	client, err := conn.client(e)
	if err != nil {
		return fail(e, err)
	}
	if len(rest) == 0 {
		fmt.Fprintln(e.stderr, "specdiff: no listing given; see specdiff -h")
		return exitError
	}
	s, err := specdoc.Load(c.spec)
	if err == nil {
		err = s.LoadOmissions(*omissions)
	}
	if err != nil {
		return fail(e, err)
	}
	rep := report.Report{Command: "diff", Spec: s.Name, Unit: "listing"}
	f := fetch.Fetcher{Stdin: e.stdin, Headers: conn.headers.h, Client: client}
	for _, arg := range rest {
		r, err := diffSource(ctx, e, s, f, arg, *format)
		if err != nil {
			return fail(e, err)
		}
		rep.Results = append(rep.Results, r)
	}
	return write(e, c.output, rep)
}

func diffSource(ctx context.Context, e env, s *specdoc.Spec, f fetch.Fetcher, arg, format string) (report.Result, error) {
	src, data, err := f.Read(ctx, arg)
	if err != nil {
		return report.Result{}, err
	}
	if src.Note != "" {
		fmt.Fprintf(e.stderr, "specdiff: %s\n", src.Note)
	}
	if src.Format != "" && format == listing.FormatAuto {
		format = src.Format
	}
	l, err := listing.Parse(src.Name, src.File, data, format)
	if err != nil {
		return report.Result{}, err
	}
	findings, err := diffListing(s, l)
	if err != nil {
		return report.Result{}, err
	}
	return report.Result{Source: l.Source, Format: l.Format, Operations: len(l.Entries), Findings: findings}, nil
}

func fail(e env, err error) int {
	fmt.Fprintf(e.stderr, "specdiff: %v\n", err)
	return exitError
}

func write(e env, output string, rep report.Report) int {
	if err := report.Write(e.stdout, output, rep); err != nil {
		return fail(e, err)
	}
	return rep.ExitCode()
}

func writeUsage(w io.Writer) {
	var b strings.Builder
	b.WriteString(usageText)
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, k := range report.Kinds() {
		note := ""
		if !k.Drift {
			note = " (reported, not drift)"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", k.Name, k.Doc, note)
	}
	tw.Flush()
	b.WriteString(usageTail)
	io.WriteString(w, b.String())
}
