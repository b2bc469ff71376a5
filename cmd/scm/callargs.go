package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/scmodel/scmgo/gen"
)

// callArgs is a parsed and checked `scm call` command line.
type callArgs struct {
	op     gen.Operation
	values map[string][]string // query parameters and form fields by name
	order  []string            // names in the order given, for stable requests
	body   string              // "" none, "-" stdin, "@path" a file, else inline JSON
	output string              // -o PATH; "" is standard output
	format string              // --format
}

// callBools are call's own flags that take no value.
var callBools = map[string]bool{"no-follow": true}

// input is one named input of an operation: a query parameter or a form field.
type input struct {
	name, typ, format string
	array, required   bool
	enum              []string
	file              bool
}

func inputsOf(op gen.Operation) []input {
	var in []input
	for _, p := range op.Params {
		in = append(in, input{name: p.Name, typ: p.Type, format: p.Format, array: p.Array, required: p.Required, enum: p.Enum})
	}
	if op.Body != nil {
		for _, f := range op.Body.Fields {
			in = append(in, input{name: f.Name, typ: f.Type, format: f.Format, array: f.Array, required: f.Required, file: f.Format == "binary"})
		}
	}
	return in
}

// globalFlag is a flag of the root command that may appear among call's
// arguments; value reports whether it takes one.
var globalFlags = map[string]bool{"base-url": true, "api-key": true, "api-key-prefix": true, "verbose": false, "v": false,
	"quiet": false, "q": false, "insecure-http": false, "ca-cert": true, "insecure-skip-verify": false,
	"timeout": true, "request-timeout": true, "max-time": true, "drift-report": true}

// parseCall checks a call command line against the operation table: the
// operation exists under either name, every parameter is known, required
// ones are present, and values have the right type and enumeration.
func (a *app) parseCall(args []string) (callArgs, error) {
	args, err := a.leadingGlobalFlags(args)
	if err != nil {
		return callArgs{}, err
	}
	if len(args) == 0 {
		return callArgs{}, usagef("name an operation (see scm ops)")
	}
	op, ok := gen.LookupOperation(args[0])
	if !ok {
		return callArgs{}, usagef("unknown operation %q (see scm ops)", args[0])
	}
	c := callArgs{op: op, values: map[string][]string{}}
	inputs := inputsOf(op)
	rest := args[1:]
	for len(rest) > 0 {
		name, value, n, err := nextFlag(op, rest)
		if err != nil {
			return c, err
		}
		rest = rest[n:]
		if err := a.takeFlag(&c, inputs, name, value); err != nil {
			return c, err
		}
	}
	return c, c.check(inputs)
}

// leadingGlobalFlags takes the root command's flags given before the
// operation name (scm -v call ...): call parses its own command line.
func (a *app) leadingGlobalFlags(args []string) ([]string, error) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		name := strings.TrimLeft(args[0], "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		if _, global := globalFlags[name]; !global {
			return nil, usagef("unknown flag %s before the operation name", args[0])
		}
		n, value, used, err := nextFlag(gen.Operation{ID: "call"}, args)
		if err != nil {
			return nil, err
		}
		if err := a.takeFlag(&callArgs{}, nil, n, value); err != nil {
			return nil, err
		}
		args = args[used:]
	}
	return args, nil
}

// nextFlag reads one --name value (or --name=value, or a bare boolean flag)
// from args and says how many arguments it used.
func nextFlag(op gen.Operation, args []string) (name, value string, used int, err error) {
	arg := args[0]
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return "", "", 0, usagef("%s: unexpected argument %q (parameters are given as --name value)", op.ID, arg)
	}
	name = strings.TrimLeft(arg, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		return name[:i], name[i+1:], 1, nil
	}
	if takes, global := globalFlags[name]; global && !takes || callBools[name] {
		return name, "true", 1, nil
	}
	if len(args) < 2 {
		return "", "", 0, usagef("%s: --%s needs a value", op.ID, name)
	}
	return name, args[1], 2, nil
}

func (a *app) takeFlag(c *callArgs, inputs []input, name, value string) error {
	switch name {
	case "body":
		c.body = value
		return nil
	case "o", "output", "format", "no-follow":
		a.takeOutputFlag(c, name, value)
		return nil
	case "base-url":
		a.baseURL = value
		return nil
	case "api-key":
		a.apiKey = value
		return nil
	case "api-key-prefix":
		a.keyPrefix = value
		return nil
	case "verbose", "v":
		a.verbose = value != "false"
		return nil
	case "quiet", "q":
		a.quiet = value != "false"
		return nil
	case "insecure-http":
		a.insecure = value != "false"
		return nil
	case "ca-cert":
		a.caCert = value
		return nil
	case "insecure-skip-verify":
		a.skipVerify = value != "false"
		return nil
	case "timeout", "request-timeout", "max-time":
		return a.takeDuration(name, value)
	case "drift-report":
		return usagef("--drift-report: scm call hands the answer on as the server sent it, without comparing it with the spec; " +
			"the command of its area (scm projects, scenarios, experiments, results, ...) or specdiff probe reports where answers differ")
	}
	in, ok := findInput(inputs, name)
	if !ok {
		return unknownParameter(c.op.ID, name, inputs)
	}
	if len(c.values[name]) > 0 && !in.array {
		return usagef("%s: --%s given twice", c.op.ID, name)
	}
	if len(c.values[name]) == 0 {
		c.order = append(c.order, name)
	}
	c.values[name] = append(c.values[name], value)
	return nil
}

// takeOutputFlag takes -o, --format or --no-follow: where and how call
// writes the answer.
func (a *app) takeOutputFlag(c *callArgs, name, value string) {
	switch name {
	case "format":
		c.format = value
	case "no-follow":
		a.noFollow = value != "false"
	default:
		c.output = value
	}
}

// takeDuration sets --request-timeout, or --timeout (--max-time, its
// former name).
func (a *app) takeDuration(name, value string) error {
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return usagef("--%s: %q is not a duration such as 30s or 2m", name, value)
	}
	if name == "request-timeout" {
		a.attemptTimeout, a.timeoutSet = d, true
	} else {
		a.maxTime = d
	}
	return nil
}

// check runs the checks that need the whole command line. A required
// parameter the spec gives a default takes it; every other missing one is
// named, all in one error.
func (c callArgs) check(inputs []input) error {
	var missing []string
	for _, in := range inputs {
		values := c.values[in.name]
		if in.required && len(values) == 0 {
			if def, ok := c.defaultOf(in); ok {
				c.values[in.name] = []string{def}
				continue
			}
			missing = append(missing, "--"+in.name)
		}
		for _, v := range values {
			if err := checkValue(c.op.ID, in, v); err != nil {
				return err
			}
		}
	}
	if c.needsBody() {
		missing = append(missing, fmt.Sprintf("--body (a JSON %s: @file.json, - for standard input, or inline JSON)", c.op.Body.Schema))
	}
	switch len(missing) {
	case 0:
		return c.checkBodyAndOutput()
	case 1:
		return usagef("%s: missing required parameter %s", c.op.ID, missing[0])
	}
	return usagef("%s: missing required parameters %s", c.op.ID, strings.Join(missing, ", "))
}

// defaultOf is the default the spec gives a parameter, as a flag value.
func (c callArgs) defaultOf(in input) (string, bool) {
	p, ok := c.op.Param(in.name)
	if !ok || p.Default == "" {
		return "", false
	}
	if s, err := strconv.Unquote(p.Default); err == nil {
		return s, true
	}
	return p.Default, true // a number or boolean: its JSON text is the flag value
}

func (c callArgs) needsBody() bool {
	op := c.op
	return c.body == "" && op.Body != nil && op.Body.MediaType == "application/json" && op.Body.Required
}

func (c callArgs) checkBodyAndOutput() error {
	op := c.op
	jsonBody := op.Body != nil && op.Body.MediaType == "application/json"
	switch {
	case c.body != "" && !jsonBody:
		return usagef("%s: --body given, but the operation takes no JSON body", op.ID)
	}
	return nil
}

// unknownParameter is the error of a parameter the operation does not
// take: the parameters it takes, and the one it may mean.
func unknownParameter(opID, name string, inputs []input) error {
	flags := pflag.NewFlagSet(opID, pflag.ContinueOnError)
	for _, in := range inputs {
		flags.String(in.name, "", "")
	}
	for _, own := range []string{"body", "format", "output"} {
		flags.String(own, "", "")
	}
	flags.Bool("no-follow", false, "")
	if s := closestFlags(flags, name); s != "" {
		return usagef("%s: unknown parameter --%s; did you mean %s? (parameters: %s)", opID, name, s, inputNames(inputs))
	}
	return usagef("%s: unknown parameter --%s (parameters: %s)", opID, name, inputNames(inputs))
}

func checkValue(opID string, in input, v string) error {
	bad := func(want string) error {
		return usagef("%s: --%s: %q is not %s", opID, in.name, v, want)
	}
	switch {
	case in.file:
		if !strings.HasPrefix(v, "@") || len(v) == 1 {
			return bad("a file (give it as @path)")
		}
	case len(in.enum) > 0:
		if !slices.Contains(in.enum, v) {
			return bad("one of " + strings.Join(in.enum, ", "))
		}
	case in.typ == "integer":
		bits := 64
		if in.format == "int32" {
			bits = 32
		}
		if _, err := strconv.ParseInt(v, 10, bits); err != nil {
			return bad(fmt.Sprintf("a %d-bit integer", bits))
		}
	case in.typ == "boolean":
		if v != "true" && v != "false" {
			return bad("true or false")
		}
	case in.typ == "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return bad("a number")
		}
	}
	return nil
}

func findInput(inputs []input, name string) (input, bool) {
	for _, in := range inputs {
		if in.name == name {
			return in, true
		}
	}
	return input{}, false
}

func inputNames(inputs []input) string {
	if len(inputs) == 0 {
		return "none"
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = "--" + in.name
	}
	return strings.Join(names, " ")
}

// callHelp prints the help of call, or of the operation it names.
func (a *app) callHelp(cmd *cobra.Command, args []string) error {
	for _, arg := range args {
		if op, ok := gen.LookupOperation(arg); ok {
			return a.describeOperation(op)
		}
	}
	return cmd.Help()
}

// describeOperation prints an operation's names, route and inputs.
func (a *app) describeOperation(op gen.Operation) error {
	w := a.stdout
	fmt.Fprintf(w, "%s (%s): %s\n  %s %s", op.ID, op.SnakeName, op.Summary, op.Method, op.Path)
	if op.ChangesState {
		fmt.Fprint(w, "  (changes state: sent once, never retried)")
	}
	fmt.Fprintln(w, "\n\nParameters:")
	inputs := inputsOf(op)
	if len(inputs) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, in := range inputs {
		fmt.Fprintf(w, "  --%s %s\n", in.name, inputDetail(op, in))
	}
	if op.Body != nil && op.Body.MediaType == "application/json" {
		fmt.Fprintf(w, "  --body @FILE.json|-|JSON  a %s (%s)\n", op.Body.Schema, requiredWord(op.Body.Required))
	}
	if op.Response.Binary {
		fmt.Fprintln(w, "  -o FILE.xlsx  where to write the workbook (- for standard output, when it is no terminal)")
	} else {
		fmt.Fprintln(w, "  -o FILE.json  where to write the answer (default: standard output)")
	}
	return nil
}

func inputDetail(op gen.Operation, in input) string {
	typ := in.typ
	if in.format != "" {
		typ += "/" + in.format
	}
	if in.array {
		typ = "list of " + typ + " (repeat the flag)"
	}
	if in.file {
		typ = "file (@path)"
	}
	parts := []string{typ, requiredWord(in.required)}
	if p, ok := op.Param(in.name); ok && p.Default != "" {
		parts = append(parts, "default "+p.Default)
		if in.required {
			parts[1] = "always sent"
		}
	}
	if len(in.enum) > 0 {
		parts = append(parts, "one of "+strings.Join(in.enum, ", "))
	}
	return strings.Join(parts, ", ")
}

func requiredWord(required bool) string {
	if required {
		return "required"
	}
	return "optional"
}
