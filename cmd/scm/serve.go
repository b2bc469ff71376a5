package main

import (
	"fmt"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/fake"
)

func (a *app) serveFakeCommand() *cobra.Command {
	var (
		addr, key         string
		seed              int64
		runFor, importFor time.Duration
		licensed          bool
	)
	cmd := &cobra.Command{
		Use:   "serve-fake [--addr HOST:PORT]",
		Short: "Serve the in-memory fake server on real time (as cmd/scm-fake does)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := []fake.Option{fake.WithAPIKeys(key), fake.WithSeed(seed), fake.WithRunDuration(runFor), fake.WithImportDuration(importFor)}
			if licensed {
				opts = append(opts, fake.WithLicense())
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usagef("serve-fake: %v", err)
			}
			fmt.Fprintf(a.stdout, "base URL: http://%s%s\nAPI key:  %s\n", ln.Addr(), fake.BasePath, key)
			return fake.Serve(cmd.Context(), ln, fake.NewHandler(opts...))
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.StringVar(&key, "key", fake.DefaultAPIKey, "the API key clients must send")
	f.Int64Var(&seed, "seed", fake.DefaultSeed, "seed of the generated data")
	f.DurationVar(&runFor, "run-duration", fake.DefaultRunDuration, "how long a run takes")
	f.DurationVar(&importFor, "import-duration", fake.DefaultImportDuration, "how long an import or copy job takes")
	f.BoolVar(&licensed, "licensed", false, "start every user with a license")
	return cmd
}
