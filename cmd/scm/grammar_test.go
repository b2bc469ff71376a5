package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules of docs/cli.md's "One grammar", each checked on every command
// that scm has, found by walking its commands: a command added or changed
// that breaks one fails this test. The rules that need a server run the
// first example of the command's help (with its exit code 0) against a
// fake of its own, with the flags the rule adds.

// grammarExempt are the commands that write no output of their own, and
// why: they take neither -o nor --format.
var grammarExempt = map[string]string{
	"scm help":       "cobra's help",
	"scm serve-fake": "a server: standard output shows where it serves until Ctrl-C",
	"scm demo":       "a narrated walk through the workflow; the workbook it writes obeys --no-follow",
}

// grammarCommands are the runnable commands of scm but the root.
func grammarCommands(root *cobra.Command) []*cobra.Command {
	root.InitDefaultHelpCmd()
	var out []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c != root {
			out = append(out, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

func TestOneGrammar(t *testing.T) {
	root := (&app{}).rootCommand()
	examples := helpExamples(t, root)
	commands := grammarCommands(root)
	require.GreaterOrEqual(t, len(commands), 18, "the walk finds the commands")
	for _, cmd := range commands {
		// cobra merges a command's parents' flags into it on first use,
		// writing the parents' shared *pflag.Flag values: done here, once,
		// before the parallel subtests read them.
		cmd.LocalFlags()
	}
	for _, cmd := range commands {
		path := cmd.CommandPath()
		t.Run(strings.TrimPrefix(path, "scm "), func(t *testing.T) {
			t.Parallel()
			g := &grammarCheck{cmd: cmd, path: path}
			g.static(t)
			if _, exempt := grammarExempt[path]; exempt {
				g.suggestions(t, nil)
				return
			}
			g.examples = examplesOf(examples, path)
			require.NotEmpty(t, g.examples, "%s shows no example that ends well: the rules cannot be run", path)
			g.flags = exampleServer(t)
			g.dir = t.TempDir()
			exampleFixtures(t, g.dir, g.flags)
			g.idArgument(t)
			g.output(t)
			g.formats(t)
			g.suggestions(t, g.flags)
		})
	}
}

// grammarCheck checks the rules on one command.
type grammarCheck struct {
	cmd      *cobra.Command
	path     string
	examples [][]string // the command lines of its help that end well, without "scm"
	flags    []string   // --base-url and --api-key of its fake
	dir      string     // where the examples' files are
}

// examplesOf are the examples of a command that end with exit code 0.
func examplesOf(all []example, path string) [][]string {
	var out [][]string
	for _, ex := range all {
		if ex.command == path && ex.code == 0 {
			out = append(out, ex.args)
		}
	}
	return out
}

// static checks what the flags show: the id a command acts on is its
// first argument (no required flag holds an id unless the first argument
// is one, which the usage line names first); -o and --no-follow; one
// vocabulary of formats, table going with json and jsonl.
func (g *grammarCheck) static(t *testing.T) {
	kind := g.cmd.Annotations[annotationIDArg]
	g.cmd.Flags().VisitAll(func(f *pflag.Flag) {
		required := len(f.Annotations[cobra.BashCompOneRequiredFlag]) > 0
		if required && strings.HasSuffix(f.Value.Type(), "Id") && kind == "" {
			t.Errorf("%s requires --%s, a %s, and takes no id as its first argument: the id a command acts on is its first argument", g.path, f.Name, f.Value.Type())
		}
		if f.Deprecated != "" && !f.Hidden {
			t.Errorf("%s: --%s is deprecated and shown", g.path, f.Name)
		}
	})
	if kind != "" {
		words := strings.Fields(g.cmd.Use)
		assert.True(t, len(words) > 1 && words[1] == strings.ToUpper(words[1]) && !strings.HasPrefix(words[1], "["),
			"%s acts on a %s: its usage line names it first: %q", g.path, kind, g.cmd.Use)
	}
	if _, exempt := grammarExempt[g.path]; !exempt {
		o := g.cmd.Flags().Lookup("output")
		if assert.NotNil(t, o, "%s writes output and takes no -o PATH", g.path) {
			assert.Equal(t, "o", o.Shorthand, "%s: --output is -o", g.path)
			assert.Equal(t, "-", o.DefValue, "%s: -o's default is standard output", g.path)
		}
	}
	if _, serves := map[string]bool{"scm help": true, "scm serve-fake": true}[g.path]; !serves {
		assert.NotNil(t, g.cmd.Flags().Lookup("no-follow"), "%s writes a file and takes no --no-follow", g.path)
	}
	formats := g.formatList()
	assert.Equal(t, len(formats) > 0, g.cmd.Flags().Lookup("format") != nil, "%s: --format and the formats it takes (%v) go together", g.path, formats)
	for _, f := range formats {
		assert.Contains(t, vocabulary, f, "%s: --format %s is no word of the vocabulary", g.path, f)
	}
	if slices.Contains(formats, formatTable) {
		assert.Subset(t, formats, []format{formatJSON, formatJSONL}, "%s writes a table, and every command that does writes json and jsonl too", g.path)
	}
}

func (g *grammarCheck) formatList() []format {
	var out []format
	for _, f := range strings.Split(g.cmd.Annotations[annotationFormats], ",") {
		if f != "" {
			out = append(out, format(f))
		}
	}
	return out
}

// run runs the command line against the command's fake.
func (g *grammarCheck) run(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), scmDeadline)
	defer cancel()
	r := scmContext(t, ctx, "", append(g.absolute(args), g.flags...)...)
	require.NoError(t, ctx.Err(), "scm %s did not end within %v", strings.Join(args, " "), scmDeadline)
	return r
}

// absolute makes the files an example names (network.xlsx, @rc.json,
// page.xlsx, charts/) paths in the command's directory: the examples run
// side by side, each in a directory of its own.
func (g *grammarCheck) absolute(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		at := strings.HasPrefix(a, "@")
		name := strings.TrimPrefix(a, "@")
		if name == "" || name == "-" || filepath.IsAbs(name) || !(strings.HasSuffix(name, "/") || extensionOfFile(name)) {
			continue
		}
		out[i] = filepath.Join(g.dir, name)
		if strings.HasSuffix(name, "/") {
			out[i] += "/"
		}
		if at {
			out[i] = "@" + out[i]
		}
	}
	return out
}

func extensionOfFile(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".yaml" || ext == ".txt" || extensions[ext] != ""
}

// idArgument: a command that acts on an id parses its first argument as
// one, and says which kind it wants.
func (g *grammarCheck) idArgument(t *testing.T) {
	kind := g.cmd.Annotations[annotationIDArg]
	if kind == "" {
		return
	}
	args := slices.Clone(g.examples[0])
	first := len(strings.Fields(g.path)) - 1
	require.Greater(t, len(args), first, "%s: its example gives the id", g.path)
	args[first] = "notanid"
	r := g.run(t, args...)
	assert.Equal(t, exitUsage, r.code, "%s notanid: %s", g.path, r.stderr)
	assert.Contains(t, r.stderr, kind+` "notanid" is not a whole number`, "%s parses its first argument as a %s", g.path, kind)
}

// output: -o PATH writes the output to PATH whole and nothing to
// standard output, and one line on standard error says what it wrote; -o
// json (a format's name) is refused; --no-follow refuses a symbolic link.
func (g *grammarCheck) output(t *testing.T) {
	formats := g.formatList()
	name := "grammar-out"
	written := formatOf(g.examples[0], formats)
	name += written.ext()
	path := filepath.Join(g.dir, name)
	r := g.run(t, append(slices.Clone(g.examples[0]), "-o", path)...)
	require.Equal(t, exitOK, r.code, "%s -o %s: %s", g.path, path, r.stderr)
	assert.Empty(t, r.stdout, "%s -o FILE: standard output holds nothing", g.path)
	info, err := os.Stat(path)
	if assert.NoError(t, err, "%s -o FILE writes the file", g.path) {
		assert.NotZero(t, info.Size(), "%s -o FILE: the file holds the output", g.path)
	}
	var wrote []string
	for line := range strings.Lines(r.stderr) {
		if strings.HasPrefix(line, "Wrote ") {
			wrote = append(wrote, line)
		}
	}
	if assert.Len(t, wrote, 1, "%s -o FILE says once on standard error what it wrote: %s", g.path, r.stderr) {
		assert.True(t, strings.HasPrefix(wrote[0], "Wrote "+path+": "), "%s: the line names the path: %q", g.path, wrote[0])
		if written != "" {
			assert.Contains(t, wrote[0], ": "+string(written)+", ", "%s: the line names the format", g.path)
		}
	}

	r = g.run(t, append(slices.Clone(g.examples[0]), "-o", "json")...)
	assert.Equal(t, exitUsage, r.code, "%s -o json: %s", g.path, r.stderr)
	assert.Contains(t, r.stderr, "for the format, give --format json", "%s -o json", g.path)
	if _, err := os.Stat("json"); err == nil { // written where the tests run: remove it
		t.Errorf("%s -o json wrote a file named json", g.path)
		_ = os.Remove("json")
	}

	target, link := filepath.Join(g.dir, "target"), filepath.Join(g.dir, "link"+filepath.Ext(name))
	require.NoError(t, os.Symlink(target, link))
	r = g.run(t, append(slices.Clone(g.examples[0]), "-o", link, "--no-follow")...)
	assert.NotEqual(t, exitOK, r.code, "%s --no-follow -o LINK", g.path)
	assert.Contains(t, r.stderr, "symbolic link", "%s --no-follow -o LINK", g.path)
	assert.NoFileExists(t, target, "%s --no-follow wrote through the link", g.path)
}

// formats: each format the command takes is written as the vocabulary
// says (json one document, jsonl an object per line, ...); a word of no
// format is refused naming the vocabulary; an extension that names
// another format than --format is refused naming both; a binary format
// is not written to a terminal.
func (g *grammarCheck) formats(t *testing.T) {
	formats := g.formatList()
	writes := map[format][]string{} // the example that writes each format
	for _, f := range formats {
		path := filepath.Join(g.dir, "as-"+string(f)+f.ext())
		for _, ex := range g.examples {
			if r := g.run(t, append(slices.Clone(ex), "--format", string(f), "-o", path)...); r.code == exitOK {
				writes[f] = ex
				break
			}
		}
		if assert.NotNil(t, writes[f], "%s --format %s: no example ends well", g.path, f) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NoError(t, isFormat(f, data), "%s --format %s wrote:\n%.400s", g.path, f, data)
		}
	}
	if len(formats) == 0 {
		return
	}
	r := g.run(t, append(slices.Clone(g.examples[0]), "--format", "yaml")...)
	assert.Equal(t, exitUsage, r.code, "%s --format yaml", g.path)
	assert.Contains(t, r.stderr, "the formats are "+formatList(vocabulary), "%s --format yaml names the vocabulary", g.path)

	other := formatCSV
	if formats[0] == formatCSV {
		other = formatJSON
	}
	r = g.run(t, append(slices.Clone(g.examples[0]), "--format", string(formats[0]), "-o", filepath.Join(g.dir, "x"+other.ext()))...)
	assert.Equal(t, exitUsage, r.code, "%s --format %s -o x%s", g.path, formats[0], other.ext())
	assert.Contains(t, r.stderr, "--format "+string(formats[0]), "%s: the refusal names the format", g.path)
	assert.Contains(t, r.stderr, other.ext(), "%s: the refusal names the extension", g.path)

	for _, f := range formats {
		if !f.binary() || writes[f] == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(t.Context(), scmDeadline)
		var term terminal
		var errOut bytes.Buffer
		code := run(ctx, append(g.absolute(append(slices.Clone(writes[f]), "--format", string(f), "-o", "-")), g.flags...), strings.NewReader(""), &term, &errOut)
		cancel()
		assert.Equal(t, exitUsage, code, "%s --format %s to a terminal: %s", g.path, f, errOut.String())
		assert.Contains(t, errOut.String(), "standard output is a terminal", "%s --format %s", g.path, f)
		assert.Zero(t, term.Len(), "%s wrote %s to a terminal", g.path, f)
	}
}

// formatOf is the format a command line writes: its --format, else the
// command's first.
func formatOf(args []string, formats []format) format {
	for i := len(args) - 2; i >= 0; i-- {
		if args[i] == "--format" {
			return format(args[i+1])
		}
	}
	if len(formats) == 0 {
		return ""
	}
	return formats[0]
}

// isFormat checks that data is what format f means.
func isFormat(f format, data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("empty")
	}
	switch f {
	case formatJSON:
		d := json.NewDecoder(bytes.NewReader(data))
		var doc any
		if err := d.Decode(&doc); err != nil {
			return err
		}
		if _, err := d.Token(); err != io.EOF {
			return errors.New("more than one JSON document")
		}
	case formatJSONL:
		for line := range strings.Lines(string(data)) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				return errors.New("a line that is no JSON object: " + line)
			}
		}
	case formatCSV:
		records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil || len(records) < 2 {
			return errors.New("no CSV of a header and rows")
		}
	case formatParquet:
		if !bytes.HasPrefix(data, []byte("PAR1")) {
			return errors.New("no Parquet file")
		}
	case formatXLSX:
		if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
			return errors.New("no workbook (a zip file)")
		}
	case formatTable:
		// A table may be one cell (scm run --wait's experimentResultId
		// alone), which is also a JSON number; an object or an array is
		// not a table.
		if t := bytes.TrimSpace(data); json.Valid(t) && (t[0] == '{' || t[0] == '[') {
			return errors.New("JSON where a table belongs")
		}
	}
	return nil
}

// suggestions: a long flag misspelt, or written with one dash, gets the
// flag it may be.
func (g *grammarCheck) suggestions(t *testing.T, flags []string) {
	var local *pflag.Flag
	g.cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if local == nil && !f.Hidden && len(f.Name) >= 4 && f.Name != "help" {
			local = f
		}
	})
	if local == nil {
		return
	}
	typo := transposed(local.Name) // --wiat for --wait
	args := strings.Fields(g.path)[1:]
	if len(g.examples) > 0 {
		args = slices.Clone(g.examples[0]) // scm call OPERATION parses what follows
	}
	args = g.absolute(append(args, "--"+typo, "1"))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r := scmContext(t, ctx, "", append(args, flags...)...)
	assert.Equal(t, exitUsage, r.code, "%s --%s: %s", g.path, typo, r.stderr)
	assert.Contains(t, r.stderr, "did you mean --"+local.Name+"?", "%s --%s", g.path, typo)
}

// transposed is name with two neighbouring letters that differ swapped,
// the second and the third when they do: wait is wiat.
func transposed(name string) string {
	b := []byte(name)
	for i := 1; i+1 < len(b); i++ {
		if b[i] != b[i+1] {
			b[i], b[i+1] = b[i+1], b[i]
			break
		}
	}
	return string(b)
}
