package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// cliDocPath is the CLI reference, from this package's directory.
const cliDocPath = "../../docs/cli.md"

// cliDocMarker ends the hand-written part of docs/cli.md: the generator
// keeps everything up to it and writes the rest from the commands.
const cliDocMarker = "<!-- Generated from the commands below this line: go test ./cmd/scm -run '^TestCLIReferenceIsCurrent$' -update -->\n"

// cliReference is the reference of every command, as cobra's Markdown
// generator writes it, in one file: a section per command, linked by
// anchors, depth first from scm.
func cliReference(t *testing.T) string {
	t.Helper()
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, attemptTimeout: defaultAttemptTimeout}
	root := a.rootCommand()
	root.DisableAutoGenTag = true // no date: the file changes only when a command does
	var b bytes.Buffer
	b.WriteString("# Command reference\n\n")
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if err := doc.GenMarkdownCustom(c, &b, cliDocAnchor); err != nil {
			t.Fatal(err)
		}
		for _, child := range c.Commands() {
			if child.IsAvailableCommand() && !child.IsAdditionalHelpTopicCommand() {
				walk(child)
			}
		}
	}
	walk(root)
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// cliDocAnchor turns the file cobra would link to, scm_results_export.md,
// into the anchor of that command's section in one file.
func cliDocAnchor(file string) string {
	return "#" + strings.ReplaceAll(strings.TrimSuffix(file, ".md"), "_", "-")
}

// TestCLIReferenceIsCurrent keeps docs/cli.md what the commands say of
// themselves: the part after its marker is cobra's reference of every
// command. A command, flag or help text changed without the file fails
// here; -update rewrites the generated part and keeps the hand-written one.
func TestCLIReferenceIsCurrent(t *testing.T) {
	const refresh = "go test ./cmd/scm -run '^TestCLIReferenceIsCurrent$' -update"
	data, err := os.ReadFile(cliDocPath)
	if err != nil {
		t.Fatalf("docs/cli.md: %v", err)
	}
	intro, generated, ok := strings.Cut(string(data), cliDocMarker)
	if !ok {
		t.Fatalf("docs/cli.md has no line %q ending its hand-written part", strings.TrimSpace(cliDocMarker))
	}
	want := cliReference(t)
	if *update {
		if err := os.WriteFile(cliDocPath, []byte(intro+cliDocMarker+"\n"+want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := strings.TrimPrefix(generated, "\n"); got != want {
		k, g, w := firstDifferentLine(got, want)
		line := strings.Count(intro+cliDocMarker, "\n") + 2 + k // the marker, a blank line, then the reference
		t.Errorf("docs/cli.md is stale: its line %d is %q, the commands now make %q; run %s", line, g, w, refresh)
	}
}

// firstDifferentLine is the index of the first line where two texts
// differ, and that line of each ("" past the end).
func firstDifferentLine(a, b string) (int, string, string) {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return i, x, y
		}
	}
	return 0, "", ""
}

func TestCLIDocAnchor(t *testing.T) {
	for in, want := range map[string]string{"scm.md": "#scm", "scm_results_export.md": "#scm-results-export", "scm_serve-fake.md": "#scm-serve-fake"} {
		if got := cliDocAnchor(in); got != want {
			t.Errorf("cliDocAnchor(%q) = %q, want %q", in, got, want)
		}
	}
}
