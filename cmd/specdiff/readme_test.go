package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// docFiles are the documents whose transcripts the test replays: the
// README, CONTRIBUTING.md and the guides under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "CONTRIBUTING.md")}, guides...)
}

// transcript is a code block of a document that shows specdiff's commands
// and what they print: its first line starts with "$ go run ./cmd/specdiff".
// (Those starting "$ scm " are cmd/scm's to replay.)
type transcript struct {
	file       string
	start, end int // the block's lines, fences excluded, in the document's lines
	steps      []step
}

// step is one command of a transcript and the lines shown after it.
type step struct {
	line    int // the document's line of the command, counted from 1
	command string
	output  string
}

// transcriptStart is how the first line of a specdiff transcript begins.
const transcriptStart = "$ go run ./cmd/specdiff"

// docTranscripts finds specdiff's transcripts among a document's code
// blocks.
func docTranscripts(lines []string) []transcript {
	var out []transcript
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
			j++
		}
		if j > i+1 && strings.HasPrefix(lines[i+1], transcriptStart) {
			out = append(out, transcript{start: i + 1, end: j, steps: steps(i+2, lines[i+1:j])})
		}
		i = j
	}
	return out
}

// steps splits a transcript whose first line is the document's line first.
func steps(first int, lines []string) []step {
	var out []step
	for i, l := range lines {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, step{line: first + i, command: cmd})
			continue
		}
		out[len(out)-1].output += l + "\n"
	}
	return out
}

// replay runs a transcript's commands from the repository root, in
// process: "go run ./cmd/specdiff ARGS" runs specdiff, "echo $?" prints
// the exit status of the command before. It returns each command's output,
// standard output and error together, as a terminal shows them.
func replay(t *testing.T, tr transcript) []string {
	t.Helper()
	var outputs []string
	code := 0
	for _, s := range tr.steps {
		if s.command == "echo $?" {
			outputs = append(outputs, strconv.Itoa(code)+"\n")
			continue
		}
		rest, ok := strings.CutPrefix(s.command, "go run ./cmd/specdiff")
		args, err := shellWords(rest)
		if !ok || err != nil {
			t.Fatalf("%s:%d: %q: a transcript of specdiff may only run go run ./cmd/specdiff ARGS and echo $? (%v); write other examples in a sh block without $",
				tr.file, s.line, s.command, err)
		}
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		code = run(ctx, args, strings.NewReader(""), &out, &out)
		cancel()
		outputs = append(outputs, out.String())
	}
	return outputs
}

// shellWords splits a command line as sh does for plain words and quoted
// strings; it refuses what it would have to expand.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '"' && strings.ContainsRune("$`\\", r):
			return nil, fmt.Errorf("%q needs a shell", r)
		case quote != 0:
			w.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case strings.ContainsRune("$`\\|&;<>*?(){}~", r):
			return nil, fmt.Errorf("%q needs a shell", r)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c", quote)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// TestDocTranscriptsAreWhatSpecdiffPrints replays every transcript of
// specdiff in the README, CONTRIBUTING.md and docs/*.md (a code block
// starting with "$ go run ./cmd/specdiff") and compares what specdiff
// prints, line numbers included, with what the document shows. Run it with
// -update to rewrite the transcripts.
func TestDocTranscriptsAreWhatSpecdiffPrints(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, file := range docFiles(t) {
		file, err := filepath.Abs(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		lines := strings.Split(string(data), "\n")
		trs := docTranscripts(lines)
		found += len(trs)
		for i := len(trs) - 1; i >= 0; i-- { // from the end, so that earlier line numbers hold
			trs[i].file = name
			lines = replaceTranscript(t, root, lines, trs[i])
		}
		if *update {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no transcript of specdiff in README.md, CONTRIBUTING.md or docs/*.md: the extraction is broken")
	}
}

// replaceTranscript replays a transcript from the repository root, reports
// each command whose output differs from the document's (unless -update),
// and returns the document's lines with the transcript as specdiff prints
// it now.
func replaceTranscript(t *testing.T, root string, lines []string, tr transcript) []string {
	t.Helper()
	t.Chdir(root)
	var b strings.Builder
	for j, out := range replay(t, tr) {
		fmt.Fprintf(&b, "$ %s\n%s", tr.steps[j].command, out)
		if s := tr.steps[j]; out != s.output && !*update {
			k, got, want := firstDifference(out, s.output)
			t.Errorf("%s:%d: $ %s prints %q where the document shows %q; in all it prints:\n%s(go test ./cmd/specdiff -run TestDocTranscripts -update rewrites it)",
				tr.file, s.line+1+k, s.command, got, want, out)
		}
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	return append(lines[:tr.start:tr.start], append(got, lines[tr.end:]...)...)
}

// firstDifference is the index of the first line where two texts differ,
// and that line of each ("" past the end).
func firstDifference(a, b string) (int, string, string) {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(la), len(lb)) {
		x, y := at(la, i), at(lb, i)
		if x != y {
			return i, x, y
		}
	}
	return 0, "", ""
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

func TestShellWords(t *testing.T) {
	for in, want := range map[string][]string{
		` a  b`:                        {"a", "b"},
		`-header "Authorization: k" u`: {"-header", "Authorization: k", "u"},
		`'x y'z ""`:                    {"x yz", ""},
	} {
		got, err := shellWords(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{`"$KEY"`, "a | b", `"open`} {
		if _, err := shellWords(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
