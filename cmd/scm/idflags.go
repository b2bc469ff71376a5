package main

import (
	"fmt"
	"io"
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

// idArg makes the id a command acts on its first argument, of kind T,
// stored in dst. flag, when not "", is the id's former form, a flag:
// hidden from the help and marked deprecated, it still works for one
// release and says on standard error that it goes, with the new form, so
// scripts have time to move; the argument and the flag together are
// refused.
func idArg[T ids.Int](cmd *cobra.Command, dst *T, flag string) {
	setAnnotation(cmd, annotationIDArg, ids.Name[T]())
	positional := oneID(dst)
	cmd.Args = positional
	if flag == "" {
		return
	}
	idVar(cmd, dst, flag, "the "+ids.Name[T]()+" (former form of the argument)")
	example, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n")
	_ = cmd.Flags().MarkDeprecated(flag, fmt.Sprintf("give the %s as the first argument (%s); it goes in the next release", ids.Name[T](), example))
	cmd.Args = func(c *cobra.Command, args []string) error {
		if !c.Flags().Changed(flag) {
			return positional(c, args)
		}
		if len(args) > 0 {
			return usagef("the %s is given twice: as the argument and with --%s; give it as the argument", ids.Name[T](), flag)
		}
		return nil
	}
}

// flagNotesTo sends what the flags of every command say while parsed (a
// deprecated flag's note) to w, standard error: cobra prints them on its
// output, standard output.
func flagNotesTo(cmd *cobra.Command, w io.Writer) {
	cmd.Flags().SetOutput(w)
	for _, sub := range cmd.Commands() {
		flagNotesTo(sub, w)
	}
}
