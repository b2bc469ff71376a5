package main

import (
	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/ids"
)

// idFlag is the value of a flag that takes an id of kind T. It parses with
// ids.Parse, so a value that is no id fails naming the flag and the kind
// (--rc: rcId "abc" is not a whole number), and the help shows the kind
// (--rc rcId).
type idFlag[T ids.Int] struct{ p *T }

func (f idFlag[T]) String() string {
	if f.p == nil {
		return "0"
	}
	return (*f.p).String()
}

func (f idFlag[T]) Set(s string) error {
	id, err := ids.Parse[T](s)
	if err == nil {
		*f.p = id
	}
	return err
}

func (f idFlag[T]) Type() string { return ids.Name[T]() }

// idVar defines the flag name of cmd, an id of kind T stored in p.
func idVar[T ids.Int](cmd *cobra.Command, p *T, name, usage string) {
	cmd.Flags().Var(idFlag[T]{p}, name, usage)
}

// oneID accepts exactly one argument, an id of kind T, and stores it in
// dst; the error names the kind (the command's path goes before it).
func oneID[T ids.Int](dst *T) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usagef("want one %s, have %d arguments", ids.Name[T](), len(args))
		}
		id, err := ids.Parse[T](args[0])
		if err != nil {
			return usageError{err}
		}
		*dst = id
		return nil
	}
}
