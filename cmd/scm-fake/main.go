package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/scmodel/scmgo/fake"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scm-fake:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	srv := fake.DefaultDevServer()
	srv.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, out)
}
