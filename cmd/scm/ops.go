package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/gen"
)

// operationRow is an operation as scm ops writes it in json, jsonl and
// csv.
type operationRow struct {
	Area         string `json:"area"`
	Operation    string `json:"operation"`
	SnakeCase    string `json:"snakeCase"`
	Method       string `json:"method"`
	Path         string `json:"path"`
	ChangesState bool   `json:"changesState"`
}

func (a *app) opsCommand() *cobra.Command {
	var (
		area string
		out  *listOutput
	)
	cmd := &cobra.Command{
		Use:   "ops [--area AREA] [--format table|json|jsonl|csv] [-o PATH]",
		Short: "List the operations with both names, method, path and whether they change state",
		Example: `  scm ops
  scm ops --area Results`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			ops, err := operationsInArea(area)
			if err != nil {
				return err
			}
			l := listTable{header: []string{"AREA", "OPERATION", "SNAKE_CASE", "METHOD", "PATH", "CHANGES STATE"}}
			rows := make([]operationRow, len(ops))
			for i, op := range ops {
				rows[i] = operationRow{op.Tag, op.ID, op.SnakeName, op.Method, op.Path, op.ChangesState}
				l.add(textCell(op.Tag), textCell(op.ID), textCell(op.SnakeName), textCell(op.Method), textCell(op.Path), textCell(yesNo(op.ChangesState)))
			}
			l.items = rows
			return out.write(l)
		},
	}
	cmd.Flags().StringVar(&area, "area", "", "only this area: "+strings.Join(areas(), ", "))
	out = a.withListOutput(cmd)
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
