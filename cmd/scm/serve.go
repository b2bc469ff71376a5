package main

import (
	"flag"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/fake"
)

func (a *app) serveFakeCommand() *cobra.Command {
	srv := fake.DefaultDevServer()
	cmd := &cobra.Command{
		Use:   "serve-fake [--addr HOST:PORT] [--key KEY]",
		Short: "Serve the in-memory fake server on real time (as cmd/scm-fake does)",
		Long: `serve-fake serves the in-memory fake server on real time until Ctrl-C,
with the flags and defaults of go run ./cmd/scm-fake: it listens on
127.0.0.1:8080 and takes the key scm-demo-key (--addr and --key change
them). It prints the base URL, the key and the URL of its OpenAPI
document.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return srv.ListenAndServe(cmd.Context(), a.stdout)
		},
	}
	fs := flag.NewFlagSet("serve-fake", flag.ContinueOnError)
	srv.RegisterFlags(fs)
	cmd.Flags().AddGoFlagSet(fs)
	return cmd
}
