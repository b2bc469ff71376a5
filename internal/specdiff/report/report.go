package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Exit codes of specdiff, which a report's summary states.
const (
	ExitClean = 0 // no drift
	ExitDrift = 1 // drift found
	ExitError = 2 // bad input or usage
)

// Report is the outcome of one specdiff command.
type Report struct {
	Command string // diff, probe, facade or validate
	Spec    string
	Unit    string // what a result is about: listing, facade package, spec
	Noun    string // what a drift finding is called; "drift finding" when empty
	Counted string // what Result.Operations counts; "operation" when empty
	Other   string // what a finding that is not drift is called; "known omission" when empty
	Date    string // the day (UTC, 2026-11-23) a probe ran; empty for the other commands
	Results []Result
}

// Result is the findings about one listing, facade package or spec.
type Result struct {
	Source     string
	Format     string
	Operations int // operations the source names
	Findings   []Finding
	Coverage   *Coverage // what a probe checked; nil for the other commands
}

// counts returns the number of drift findings and of other findings.
func (r Result) counts() (drift, known int) {
	for _, f := range r.Findings {
		if f.Drift {
			drift++
		} else {
			known++
		}
	}
	return drift, known
}

func (rep Report) totals() (drift, known, drifting int) {
	for _, r := range rep.Results {
		d, k := r.counts()
		drift, known = drift+d, known+k
		if d > 0 {
			drifting++
		}
	}
	return drift, known, drifting
}

// ExitCode is [ExitDrift] when any result has drift, else [ExitClean].
func (rep Report) ExitCode() int {
	if d, _, _ := rep.totals(); d > 0 {
		return ExitDrift
	}
	return ExitClean
}

// Summary is the one-line verdict.
func (rep Report) Summary() string {
	drift, known, drifting := rep.totals()
	var s string
	if drift == 0 {
		none := "drift"
		if rep.Noun != "" {
			none = rep.Noun + "s"
		}
		s = fmt.Sprintf("no %s in %s", none, Plural(len(rep.Results), rep.Unit))
	} else {
		s = fmt.Sprintf("%s in %d of %s", Plural(drift, rep.noun()), drifting, Plural(len(rep.Results), rep.Unit))
	}
	if known > 0 {
		s += ", " + Plural(known, rep.other())
	}
	for _, r := range rep.Results {
		if r.Coverage != nil {
			s += "; " + r.Coverage.Short()
		}
	}
	return "specdiff " + rep.Command + ": " + s
}

func (rep Report) other() string { return cmp.Or(rep.Other, "known omission") }

func (rep Report) noun() string {
	if rep.Noun == "" {
		return "drift finding"
	}
	return rep.Noun
}

// Plural is n and noun, with an s unless n is 1: "1 call", "3 calls".
func Plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// The output modes, as -o names them.
var outputs = map[string]func(io.Writer, Report) error{
	"text":     writeText,
	"json":     writeJSON,
	"markdown": writeMarkdown,
	"github":   writeGitHub,
}

// IsOutput reports whether -o names an output mode: text, json, markdown
// or github.
func IsOutput(name string) bool { return outputs[name] != nil }

// Write writes rep to w in the output mode named by -o.
func Write(w io.Writer, output string, rep Report) error {
	write := outputs[output]
	if write == nil {
		return fmt.Errorf("-o %q: want text, json, markdown or github", output)
	}
	return write(w, rep)
}

// groups splits findings (already sorted) into runs of one kind.
func groups(fs []Finding) [][]Finding {
	var out [][]Finding
	for i, f := range fs {
		if i == 0 || fs[i-1].Kind != f.Kind {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], f)
	}
	return out
}

// where is the file and line a finding points at, "" when none.
func where(f Finding) string {
	switch {
	case f.File == "":
		return ""
	case f.Line == 0:
		return f.File
	}
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

func (r Result) title(rep Report) string {
	return fmt.Sprintf("%s vs %s (%s, %s)", rep.Spec, r.Source, r.Format, Plural(r.Operations, cmp.Or(rep.Counted, "operation")))
}

func writeText(w io.Writer, rep Report) error {
	var b strings.Builder
	for _, r := range rep.Results {
		fmt.Fprintf(&b, "%s\n", r.title(rep))
		for _, g := range groups(r.Findings) {
			note := ""
			if !g[0].Drift {
				note = ", not drift"
			}
			fmt.Fprintf(&b, "  %s (%d%s)\n", g[0].Kind, len(g), note)
			for _, f := range g {
				fmt.Fprintf(&b, "    %s: %s", f.Operation, f.Detail)
				if where := where(f); where != "" {
					fmt.Fprintf(&b, " [%s]", where)
				}
				b.WriteString("\n")
			}
		}
		if r.Coverage != nil {
			b.WriteString(r.Coverage.String() + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(rep.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// JSONReport is the -o json schema. SchemaVersion changes only when a
// field is removed or changes meaning. specdiff overlay reads it back.
type JSONReport struct {
	SchemaVersion int          `json:"schemaVersion"`
	Command       string       `json:"command"`
	Spec          string       `json:"spec"`
	Date          string       `json:"date,omitempty"` // probe only
	Results       []JSONResult `json:"results"`
	Summary       JSONSummary  `json:"summary"`
}

// JSONResult is one result of a [JSONReport].
type JSONResult struct {
	Source         string    `json:"source"`
	Format         string    `json:"format"`
	Operations     int       `json:"operations"`
	Drift          int       `json:"drift"`
	KnownOmissions int       `json:"knownOmissions"`
	Findings       []Finding `json:"findings"`
	Coverage       *Coverage `json:"coverage,omitempty"` // probe only
}

// JSONSummary is the verdict of a [JSONReport].
type JSONSummary struct {
	Drift          int    `json:"drift"`
	KnownOmissions int    `json:"knownOmissions"`
	ExitCode       int    `json:"exitCode"`
	Text           string `json:"text"`
}

func writeJSON(w io.Writer, rep Report) error {
	out := JSONReport{SchemaVersion: 1, Command: rep.Command, Spec: rep.Spec, Date: rep.Date, Results: []JSONResult{}}
	for _, r := range rep.Results {
		d, k := r.counts()
		fs := r.Findings
		if fs == nil {
			fs = []Finding{}
		}
		out.Results = append(out.Results, JSONResult{r.Source, r.Format, r.Operations, d, k, fs, r.Coverage})
	}
	d, k, _ := rep.totals()
	out.Summary = JSONSummary{Drift: d, KnownOmissions: k, ExitCode: rep.ExitCode(), Text: rep.Summary()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeMarkdown(w io.Writer, rep Report) error {
	var b strings.Builder
	b.WriteString("## specdiff " + rep.Command + "\n\n")
	for _, r := range rep.Results {
		fmt.Fprintf(&b, "### `%s` vs `%s`\n\n", rep.Spec, r.Source)
		d, k := r.counts()
		fmt.Fprintf(&b, "%s, %s: **%s**", r.Format, Plural(r.Operations, cmp.Or(rep.Counted, "operation")), Plural(d, rep.noun()))
		if k > 0 {
			fmt.Fprintf(&b, ", %s", Plural(k, rep.other()))
		}
		b.WriteString(".\n\n")
		if r.Coverage != nil {
			b.WriteString(markdownCell(r.Coverage.String()) + ".\n\n")
		}
		markdownTable(&b, r.Findings, true)
		markdownKnown(&b, r.Findings, rep)
	}
	fmt.Fprintf(&b, "**%s**\n", rep.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownTable writes the findings whose Drift equals drift as a table.
func markdownTable(b *strings.Builder, fs []Finding, drift bool) {
	header := false
	for _, f := range fs {
		if f.Drift != drift {
			continue
		}
		if !header {
			b.WriteString("| Kind | Operation | Detail | Where |\n| --- | --- | --- | --- |\n")
			header = true
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s | %s |\n", f.Kind, f.Operation, markdownCell(f.Detail), markdownCell(where(f)))
	}
	if header {
		b.WriteString("\n")
	}
}

func markdownKnown(b *strings.Builder, fs []Finding, rep Report) {
	_, k := Result{Findings: fs}.counts()
	if k == 0 {
		return
	}
	note := "not drift"
	if rep.Other == "" {
		note = "reviewed, not drift"
	}
	fmt.Fprintf(b, "<details><summary>%s (%s)</summary>\n\n", Plural(k, rep.other()), note)
	markdownTable(b, fs, false)
	b.WriteString("</details>\n\n")
}

func markdownCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// writeGitHub writes workflow commands: an error annotation per drift
// finding, a notice per finding that is not drift, then the summary.
func writeGitHub(w io.Writer, rep Report) error {
	var b strings.Builder
	for _, r := range rep.Results {
		for _, f := range r.Findings {
			level := "error"
			if !f.Drift {
				level = "notice"
			}
			props := []string{}
			if f.File != "" {
				props = append(props, "file="+escapeProperty(f.File))
				if f.Line > 0 {
					props = append(props, fmt.Sprintf("line=%d", f.Line))
				}
			}
			props = append(props, "title="+escapeProperty("specdiff "+f.Kind))
			fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","),
				escapeData(fmt.Sprintf("%s: %s (%s)", f.Operation, f.Detail, r.Source)))
		}
	}
	b.WriteString(rep.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
