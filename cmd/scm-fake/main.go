package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"

	"github.com/scmodel/scmgo/fake"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := serve(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// serve runs the server until ctx ends and returns the exit code: 0, 2 for
// a bad command line (0 for -h, which prints the usage), 1 when serving
// fails. -log writes its lines to stderr.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	srv := fake.DefaultDevServer()
	srv.RegisterFlags(fs)
	fs.Usage = func() { usage(fs, stderr) }
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		return 2 // flag printed the error and the usage
	}
	if err := srv.Validate(); err != nil {
		fmt.Fprintln(stderr, "scm-fake:", err)
		return 2
	}
	srv.LogOutput = stderr
	if err := srv.ListenAndServe(ctx, stdout); err != nil {
		fmt.Fprintln(stderr, "scm-fake:", err)
		return 1
	}
	return 0
}

// usage prints the flags as scm serve-fake's help writes them, --name (Go's
// flag package takes -name too): one way of writing them in every doc.
func usage(fs *flag.FlagSet, w io.Writer) {
	var defaults bytes.Buffer
	fs.SetOutput(&defaults)
	fs.PrintDefaults()
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: scm-fake [flags] (the flags of scm serve-fake; the default key is %s)\n", fake.DefaultAPIKey)
	fmt.Fprint(w, flagName.ReplaceAllString(defaults.String(), "$1--$2"))
}

// flagName is a flag's name as PrintDefaults writes it: "  -addr".
var flagName = regexp.MustCompile(`(?m)^(  )-(\w)`)
