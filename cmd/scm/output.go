package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/internal/atomicfile"
)

// format is a word of --format's one vocabulary: each means one thing on
// every command that takes it.
type format string

const (
	formatTable   format = "table"   // aligned columns for a person
	formatJSON    format = "json"    // one JSON document (a list is an array)
	formatJSONL   format = "jsonl"   // JSON Lines: one object per line
	formatCSV     format = "csv"     // a header, then a record per row
	formatParquet format = "parquet" // Apache Parquet, binary
	formatXLSX    format = "xlsx"    // an Excel workbook, binary
)

// vocabulary is every word --format takes, on any command.
var vocabulary = []format{formatTable, formatJSON, formatJSONL, formatCSV, formatParquet, formatXLSX}

// extensions name a file's format by its extension.
var extensions = map[string]format{
	".json": formatJSON, ".jsonl": formatJSONL, ".csv": formatCSV, ".parquet": formatParquet, ".xlsx": formatXLSX,
}

// listFormats are the formats of the commands that list rows: listings,
// status, doctor's report, batch's summary and a chart's table.
var listFormats = []format{formatTable, formatJSON, formatJSONL, formatCSV}

// ext is the extension of a file of format f.
func (f format) ext() string {
	for ext, g := range extensions {
		if g == f {
			return ext
		}
	}
	return ""
}

// binary reports a format whose bytes are no text: it is never redacted,
// and never written to a terminal.
func (f format) binary() bool { return f == formatParquet || f == formatXLSX }

// formatList names formats as a sentence: "table, json, jsonl or csv".
func formatList(formats []format) string {
	words := make([]string, len(formats))
	for i, f := range formats {
		words[i] = string(f)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Annotations of a command that the grammar's test reads.
const (
	annotationFormats = "scm:formats" // the formats --format takes, comma separated
	annotationLayouts = "scm:layouts" // "dir": -o DIR/ asks for a file per chart
	annotationIDArg   = "scm:id"      // the kind of id the first argument is
)

// output is a command's -o, --format and --no-follow: where it writes,
// in which format, and whether a symbolic link at the path is refused.
type output struct {
	a       *app
	formats []format // the formats the command writes; the first is the default
	layouts bool     // -o DIR/ asks for a file per chart
	aliases map[string]format

	path  string // -o
	given string // --format

	format format // resolved: what the command writes
	dir    bool   // -o ends in a slash: a file per chart in that directory

	written int64         // bytes written to -o's file
	summary func() string // what the write says after the format; nil: the size
}

// withOutput gives cmd -o PATH (default -, standard output), --format
// when it writes formats, and --no-follow, and runs its RunE with
// standard output going to -o's file when one is named: the file is
// written whole when the command succeeds (or fails with a whole
// output, see wholeOutput), and left as it was otherwise. The format is
// resolved, and every mistake of -o and --format refused, before the
// command sends anything.
func (a *app) withOutput(cmd *cobra.Command, formats ...format) *output {
	o := &output{a: a, formats: formats}
	f := cmd.Flags()
	f.StringVarP(&o.path, "output", "o", "-", "write to `PATH`; - is standard output")
	if len(formats) > 0 {
		help := fmt.Sprintf("%s (default: by -o's extension, else %s)", formatList(formats), formats[0])
		if len(formats) == 1 {
			help = fmt.Sprintf("%s, the one format it writes: given, it is checked against -o's extension", formats[0])
		}
		f.StringVar(&o.given, "format", "", help)
		setAnnotation(cmd, annotationFormats, strings.Join(formatStrings(formats), ","))
	}
	a.noFollowFlag(cmd)
	inner := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := o.resolve(); err != nil {
			return err
		}
		return o.run(func() error { return inner(cmd, args) })
	}
	return o
}

// noFollowFlag gives cmd --no-follow, which every file scm writes obeys.
func (a *app) noFollowFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&a.noFollow, "no-follow", false, "refuse to write through a symbolic link at a path it writes")
}

// withLayouts lets -o DIR/ ask for a file per chart.
func (o *output) withLayouts(cmd *cobra.Command) *output {
	o.layouts = true
	setAnnotation(cmd, annotationLayouts, "dir")
	return o
}

// withAlias accepts word as a former name of f: --format word still
// works, and says it goes.
func (o *output) withAlias(word string, f format) *output {
	if o.aliases == nil {
		o.aliases = map[string]format{}
	}
	o.aliases[word] = f
	return o
}

func setAnnotation(cmd *cobra.Command, key, value string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[key] = value
}

func formatStrings(formats []format) []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = string(f)
	}
	return out
}

// resolve checks -o and --format and settles the format: --format's,
// else the one -o's extension names, else the command's default. An
// extension that names another format than --format, or one the command
// does not write, is refused, naming both; so is a binary format bound
// for a terminal.
func (o *output) resolve() error {
	if err := o.checkPath(); err != nil {
		return err
	}
	byExt, ext := o.extensionFormat()
	switch {
	case o.given != "":
		f, err := o.givenFormat()
		if err != nil {
			return err
		}
		if byExt != "" && byExt != f {
			return usagef("--format %s and -o %s disagree: %s is the extension of %s; drop one, or make them agree", f, o.path, ext, byExt)
		}
		o.format = f
	case byExt != "" && len(o.formats) > 0:
		if !slices.Contains(o.formats, byExt) {
			return usagef("-o %s: %s is the extension of %s, and this command writes %s", o.path, ext, byExt, formatList(o.formats))
		}
		o.format = byExt
	case len(o.formats) > 0:
		o.format = o.formats[0]
	}
	if o.a.noFollow && !o.dir {
		if info, err := os.Lstat(o.path); err == nil && info.Mode().Type() == fs.ModeSymlink {
			return usagef("-o %s is a symbolic link, and --no-follow refuses to write through one: write to the file itself, or remove the link", o.path)
		}
	}
	if o.path == "-" && o.format.binary() && isTerminal(o.a.stdout) {
		return usagef("%s is binary, and standard output is a terminal: give -o FILE%s, or redirect standard output", o.format, o.format.ext())
	}
	return nil
}

// checkPath refuses an -o that is a format's name (-o json writes a file
// named json), a directory for a command that writes one file, and a
// directory not asked for with a trailing slash.
func (o *output) checkPath() error {
	word := strings.ToLower(o.path)
	if _, alias := o.aliases[word]; alias || slices.Contains(vocabulary, format(word)) || word == "text" {
		return usagef("-o %s would write a file named %s: for the format, give --format %s; for a file of that name, -o ./%s", o.path, o.path, word, o.path)
	}
	if o.path == "-" {
		return nil
	}
	if strings.HasSuffix(o.path, "/") || strings.HasSuffix(o.path, string(filepath.Separator)) {
		if !o.layouts {
			return usagef("-o %s ends in a slash, a directory: this command writes one file; name it", o.path)
		}
		o.dir = true
		return nil
	}
	if info, err := os.Stat(o.path); err == nil && info.IsDir() {
		if o.layouts {
			return usagef("-o %s is a directory: name a file in it for one file, or write -o %s/ for a file per chart", o.path, o.path)
		}
		return usagef("-o %s is a directory: name a file in it", o.path)
	}
	return nil
}

// extensionFormat is the format -o's extension names, with the
// extension; "" for standard output, a directory or an extension that
// names none.
func (o *output) extensionFormat() (format, string) {
	if o.path == "-" || o.dir {
		return "", ""
	}
	ext := strings.ToLower(filepath.Ext(o.path))
	return extensions[ext], ext
}

// givenFormat is --format's word, checked: a word of the vocabulary (or a
// former name, which says it goes) that the command writes.
func (o *output) givenFormat() (format, error) {
	f := format(o.given)
	if alias, ok := o.aliases[o.given]; ok {
		fmt.Fprintf(o.a.stderr, "note: --format %s is the former name of --format %s, and goes in the next release\n", o.given, alias)
		f = alias
	}
	switch {
	case !slices.Contains(vocabulary, f):
		return "", usagef("--format %q is no format: the formats are %s, and this command writes %s", o.given, formatList(vocabulary), formatList(o.formats))
	case !slices.Contains(o.formats, f):
		return "", usagef("--format %s: this command writes %s", f, formatList(o.formats))
	}
	return f, nil
}

// wholeOutput is the error of a command whose output is whole although
// it failed (doctor's report with a failed check, batch's summary of an
// item that failed): -o's file is written all the same.
type wholeOutput struct{ err error }

func (e wholeOutput) Error() string { return e.err.Error() }
func (e wholeOutput) Unwrap() error { return e.err }

// unwrapWhole is err without its wholeOutput mark.
func unwrapWhole(err error) error {
	var whole wholeOutput
	if errors.As(err, &whole) {
		return whole.err
	}
	return err
}

// run runs body with standard output going to -o: standard output
// itself, or a file replaced whole when body ends well, and then says
// on standard error what it wrote. A directory (-o DIR/) is the
// command's to write.
func (o *output) run(body func() error) error {
	if o.path == "-" || o.dir {
		return unwrapWhole(body())
	}
	var bodyErr error
	err := o.a.writeFile(o.path, func(w io.Writer) error {
		counted := &countingWriter{w: w}
		restore := o.a.redirectStdout(counted)
		bodyErr = body()
		flushErr := restore()
		o.written = counted.n
		var whole wholeOutput
		if bodyErr != nil && !errors.As(bodyErr, &whole) {
			return bodyErr
		}
		return flushErr
	})
	if err != nil {
		return unwrapWhole(err)
	}
	if err := o.report(); err != nil {
		return err
	}
	return unwrapWhole(bodyErr)
}

// report says on standard error what was written: one line with the
// path, the format and the size (or what the command counted).
func (o *output) report() error {
	what := fmt.Sprintf("%d bytes", o.written)
	if o.summary != nil {
		what = o.summary()
	}
	return o.a.reportWrite(o.path, o.format, what)
}

// reportWrite says on standard error that path was written: "Wrote
// /abs/path: json, 1234 bytes." (path - is standard output).
func (a *app) reportWrite(path string, f format, what string) error {
	where := "standard output"
	if path != "-" {
		where, _ = filepath.Abs(path)
		if strings.HasSuffix(path, "/") {
			where += string(filepath.Separator)
		}
	}
	if f != "" {
		what = string(f) + ", " + what
	}
	_, err := fmt.Fprintf(a.stderr, "Wrote %s: %s.\n", where, what)
	return err
}

// redirectStdout makes standard output w until restore, which flushes
// what waits and puts standard output back. w gets the client's
// Redactor, as standard output has.
func (a *app) redirectStdout(w io.Writer) (restore func() error) {
	saved := a.stdout
	stream := &redactedStream{raw: w}
	if a.redactor != nil {
		stream.redactWith(a.redactor)
	}
	a.stdout = stream
	return func() error {
		a.stdout = saved
		if s, ok := saved.(*redactedStream); ok && a.redactor != nil {
			s.redactWithOnce(a.redactor)
		}
		return stream.Flush()
	}
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// writeFile lets write fill a temporary file beside path, then syncs it
// and renames it over path: a failed write (an error answer, a connection
// dropped mid-body) leaves the file that was at path as it was. A new file
// has mode 0644 before the umask. With --no-follow a symbolic link at path
// is refused, and nothing is written.
func (a *app) writeFile(path string, write func(io.Writer) error) error {
	opts := atomicfile.Output()
	opts.NoFollow = a.noFollow
	return atomicfile.Write(path, write, opts)
}
