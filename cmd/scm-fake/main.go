package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/scmodel/scmgo/fake"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scm-fake:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	key := fs.String("key", fake.DefaultAPIKey, "the API key clients must send")
	seed := fs.Int64("seed", fake.DefaultSeed, "seed of the generated data")
	runFor := fs.Duration("run-duration", fake.DefaultRunDuration, "how long a run takes")
	importFor := fs.Duration("import-duration", fake.DefaultImportDuration, "how long an import or copy job takes")
	licensed := fs.Bool("licensed", false, "start every user with a license")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := []fake.Option{fake.WithAPIKeys(*key), fake.WithSeed(*seed), fake.WithRunDuration(*runFor), fake.WithImportDuration(*importFor)}
	if *licensed {
		opts = append(opts, fake.WithLicense())
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return serve(ctx, ln, fake.NewHandler(opts...), *key, out)
}

// serve prints the base URL and key, then serves until ctx is done.
func serve(ctx context.Context, ln net.Listener, h http.Handler, key string, out io.Writer) error {
	fmt.Fprintf(out, "base URL: http://%s%s\nAPI key:  %s\n", ln.Addr(), fake.BasePath, key)
	return fake.Serve(ctx, ln, h)
}
