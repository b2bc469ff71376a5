package main

import (
	"fmt"
	"strings"

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

// idArg makes the id a command acts on its first argument, stored in dst.
// flag is the id's former form, a flag: hidden from the help, it still
// works for one release and says on standard error that it will go, so
// scripts have time to move; the argument and the flag together are
// refused.
func idArg[T ids.Int](cmd *cobra.Command, dst *T, flag string) {
	idVar(cmd, dst, flag, "the "+ids.Name[T]()+" (former form of the argument)")
	_ = cmd.Flags().MarkHidden(flag)
	example, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n")
	positional := oneID(dst)
	cmd.Args = func(c *cobra.Command, args []string) error {
		if !c.Flags().Changed(flag) {
			return positional(c, args)
		}
		if len(args) > 0 {
			return usagef("the %s is given twice: as the argument and with --%s; give it as the argument", ids.Name[T](), flag)
		}
		fmt.Fprintf(c.ErrOrStderr(), "%s: --%s is deprecated and goes in the next release: give the %s as the first argument (%s)\n",
			c.CommandPath(), flag, ids.Name[T](), example)
		return nil
	}
}
