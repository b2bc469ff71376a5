package main

import (
	"flag"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/fake"
)

func (a *app) serveFakeCommand() *cobra.Command {
	srv := fake.DefaultDevServer()
	cmd := &cobra.Command{
		Use:   "serve-fake [--addr HOST:PORT]",
		Short: "Serve the in-memory fake server on real time (as cmd/scm-fake does)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return srv.ListenAndServe(cmd.Context(), a.stdout)
		},
	}
	fs := flag.NewFlagSet("serve-fake", flag.ContinueOnError)
	srv.RegisterFlags(fs)
	cmd.Flags().AddGoFlagSet(fs)
	return cmd
}
