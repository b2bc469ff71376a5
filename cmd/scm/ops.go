package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/gen"
)

func (a *app) opsCommand() *cobra.Command {
	var area string
	cmd := &cobra.Command{
		Use:   "ops",
		Short: "List the operations with both names, method, path and whether they change state",
		Example: `  scm ops
  scm ops --area Results`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			ops, err := operationsInArea(area)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "AREA\tOPERATION\tSNAKE_CASE\tMETHOD\tPATH\tCHANGES STATE")
			for _, op := range ops {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", op.Tag, op.ID, op.SnakeName, op.Method, op.Path, yesNo(op.ChangesState))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&area, "area", "", "only this area: "+strings.Join(areas(), ", "))
	return cmd
}

// operationsInArea returns the operations of an area (its tag, matched
// without regard to case), or all of them for "".
func operationsInArea(area string) ([]gen.Operation, error) {
	var out []gen.Operation
	for _, op := range gen.Operations() {
		if area == "" || strings.EqualFold(op.Tag, area) {
			out = append(out, op)
		}
	}
	if len(out) == 0 {
		return nil, usagef("ops: unknown --area %q (want one of: %s)", area, strings.Join(areas(), ", "))
	}
	return out, nil
}

// areas lists the areas in the order of the operation table.
func areas() []string {
	var out []string
	for _, op := range gen.Operations() {
		if len(out) == 0 || out[len(out)-1] != op.Tag {
			out = append(out, op.Tag)
		}
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s: unexpected argument %q", cmd.Name(), args[0])
	}
	return nil
}
