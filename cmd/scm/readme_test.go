package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// The documents whose scm transcripts the tests replay, from this
// package's directory.
const repoRoot = "../.."

// transcriptDir is the directory the transcripts were run in (the README's
// set-up block ends with cd to it): the files they write are named there.
const transcriptDir = "/tmp"

// docFiles are the documents that may hold transcripts: the README,
// CONTRIBUTING.md and the guides under docs/.
// Their paths are absolute: the replays change the working directory.
func docFiles(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	return append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md")}, files...)
}

// scmTranscript is a code block of a document whose first line is a
// command "$ scm ...": the commands and what each printed.
type scmTranscript struct {
	file       string
	start, end int // the block's lines, fences excluded, counted from 0
	steps      []scmStep
}

type scmStep struct {
	line    int // counted from 1
	command string
	output  string
}

// scmTranscripts finds the scm transcripts among a document's code blocks.
func scmTranscripts(file string, lines []string) []scmTranscript {
	var out []scmTranscript
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
			j++
		}
		if j > i+1 && strings.HasPrefix(lines[i+1], "$ scm ") {
			tr := scmTranscript{file: file, start: i + 1, end: j}
			for k := i + 1; k < j; k++ {
				if cmd, ok := strings.CutPrefix(lines[k], "$ "); ok {
					tr.steps = append(tr.steps, scmStep{line: k + 1, command: cmd})
				} else {
					tr.steps[len(tr.steps)-1].output += lines[k] + "\n"
				}
			}
			out = append(out, tr)
		}
		i = j
	}
	return out
}

// lockedBuffer is standard output and error together, in the order a
// terminal shows them.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// replayScm runs a transcript's commands in a new directory against a new
// fake as go run ./cmd/scm-fake serves it (its key, every user licensed,
// runs and imports shortened), and returns what each printed, standard
// output and error together, with the directory named transcriptDir.
func replayScm(t *testing.T, tr scmTranscript) []string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	dev := fake.DefaultDevServer()
	dev.RunDuration, dev.ImportDuration = 300*time.Millisecond, 200*time.Millisecond
	srv := httptest.NewServer(dev.Handler())
	t.Cleanup(srv.Close)
	t.Setenv("SCM_BASE_URL", srv.URL+fake.BasePath)
	t.Setenv("SCM_API_KEY", dev.Key)
	var outputs []string
	for _, s := range tr.steps {
		words, _, err := shellWords(s.command)
		require.NoError(t, err, "%s:%d", tr.file, s.line)
		require.Equal(t, "scm", words[0], "%s:%d: a transcript that starts with scm runs only scm", tr.file, s.line)
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		var out lockedBuffer
		run(ctx, words[1:], strings.NewReader(""), &out, &out)
		cancel()
		outputs = append(outputs, strings.ReplaceAll(out.b.String(), dir, transcriptDir))
	}
	return outputs
}

// elapsed is how long a wait had taken when a progress line was written:
// the only part of a transcript that differs from run to run.
var elapsed = regexp.MustCompile(`\(\d+(\.\d+)?m?s\)`)

// sameOutput compares what a command printed with what a document shows,
// elapsed times aside.
func sameOutput(got, shown string) bool {
	return elapsed.ReplaceAllString(got, "(…)") == elapsed.ReplaceAllString(shown, "(…)")
}

// keepShownTimes is got with each line that differs from the shown one
// only in its elapsed times replaced by the shown line, so that a rewrite
// changes only what changed.
func keepShownTimes(got, shown string) string {
	g, w := strings.Split(got, "\n"), strings.Split(shown, "\n")
	for i := range min(len(g), len(w)) {
		if sameOutput(g[i], w[i]) {
			g[i] = w[i]
		}
	}
	return strings.Join(g, "\n")
}

// TestDocTranscriptsAreWhatScmPrints replays every scm transcript of the
// README and the guides (a code block whose first line is "$ scm ...")
// against a fresh fake and compares what each command prints, standard
// output and error together, with what the document shows. -update
// rewrites the transcripts from what scm prints now, keeping the elapsed
// times shown where nothing else changed.
func TestDocTranscriptsAreWhatScmPrints(t *testing.T) {
	const refresh = "go test ./cmd/scm -run '^TestDocTranscriptsAreWhatScmPrints$' -update"
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	found := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		name, _ := filepath.Rel(root, file)
		trs := scmTranscripts(name, lines)
		found += len(trs)
		for i := len(trs) - 1; i >= 0; i-- { // from the end, so that earlier line numbers hold
			tr := trs[i]
			var b strings.Builder
			for j, out := range replayScm(t, tr) {
				s := tr.steps[j]
				if sameOutput(out, s.output) {
					out = s.output
				} else if out = keepShownTimes(out, s.output); !*update {
					t.Errorf("%s:%d: $ %s prints:\n%s\nwhere the document shows:\n%s(%s rewrites it)", name, s.line, s.command, out, s.output, refresh)
				}
				b.WriteString("$ " + s.command + "\n" + out)
			}
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			lines = append(lines[:tr.start], append(got, lines[tr.end:]...)...)
		}
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644))
		}
	}
	require.NotZero(t, found, "no scm transcript found in README.md, CONTRIBUTING.md or docs/*.md: the extraction is broken")
}

// readmeSetUp returns the lines of the last sh block of the README before
// its first scm transcript: how the reader starts the fake the transcript
// ran against.
func readmeSetUp(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	lines := strings.Split(string(readme), "\n")
	trs := scmTranscripts("README.md", lines)
	require.NotEmpty(t, trs, "README.md has no scm transcript")
	var block []string
	for i := 0; i < trs[0].start; i++ {
		if lines[i] != "```sh" {
			continue
		}
		block = nil
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			block = append(block, lines[i])
		}
	}
	require.NotEmpty(t, block, "README.md has no sh block of set-up before its first scm transcript")
	return block
}

// The README's set-up block starts the fake the transcript ran against and
// points scm at it: each line is one the test knows, the exported URL and
// key are what go run ./cmd/scm-fake serves, and the directory is the one
// the transcript names. A line the test does not know fails it.
func TestREADMESetUpIsTheTranscripts(t *testing.T) {
	lines := readmeSetUp(t)
	dev := fake.DefaultDevServer()
	devURL := "http://" + dev.Addr + fake.BasePath
	var seen []string
	for _, line := range lines {
		words, _, err := shellWords(strings.TrimSuffix(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "&"))
		require.NoError(t, err, line)
		switch {
		case strings.Join(words, " ") == "go run ./cmd/scm-fake":
			seen = append(seen, "fake")
		case strings.Join(words, " ") == "go install ./cmd/scm":
			seen = append(seen, "install")
		case words[0] == "export":
			require.Contains(t, seen, "fake", "the export comes after the fake starts")
			for _, a := range words[1:] {
				name, value, _ := strings.Cut(a, "=")
				switch name {
				case "SCM_BASE_URL":
					assert.Equal(t, devURL, value, "the URL go run ./cmd/scm-fake serves")
				case "SCM_API_KEY":
					assert.Equal(t, fake.DefaultAPIKey, value, "the key go run ./cmd/scm-fake takes")
				default:
					t.Fatalf("README exports %s, which the test does not know", name)
				}
				seen = append(seen, name)
			}
		case len(words) == 2 && words[0] == "cd":
			assert.Equal(t, transcriptDir, words[1], "the directory the transcript ran in")
			seen = append(seen, "cd")
		default:
			t.Fatalf("README line %q is none the test knows how to run", line)
		}
	}
	assert.Equal(t, []string{"fake", "install", "SCM_BASE_URL", "SCM_API_KEY", "cd"}, seen, "the README's set-up, in order")
}

// fakeDocs are the documents that may start the fake: those with
// transcripts, TESTING.md and the examples' READMEs.
func fakeDocs(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	files := append(docFiles(t), filepath.Join(root, "TESTING.md"))
	for _, pattern := range []string{"examples/*/README.md", "scmtemporal/cmd/*/README.md"} {
		found, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		require.NoError(t, err)
		files = append(files, found...)
	}
	return files
}

var (
	// a flag written with one dash in a command that starts the fake
	fakeOneDash = regexp.MustCompile(`(cmd/scm-fake|scm serve-fake)((?: [^ |#` + "`" + `]+)*?) (-[a-z][a-z-]*)\b`)
	// the key given to the fake, or exported for a server on this machine
	fakeKey = regexp.MustCompile(`(?:--key |SCM_API_KEY=)([^ ` + "`" + `"']+)`)
)

// The documents start the fake one way: its flags written --name, as scm
// serve-fake and scm-fake's help write them, and no key but the one both
// take by default (a key given to one way and another exported to scm
// gave a 401).
func TestDocsStartTheFakeOneWay(t *testing.T) {
	found := 0
	for _, file := range fakeDocs(t) {
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "scm-fake") || strings.Contains(line, "serve-fake") {
				found++
				if m := fakeOneDash.FindStringSubmatch(line); m != nil {
					t.Errorf("%s:%d: %s (one dash): the fake's flags are written --name", file, i+1, m[3])
				}
			}
			local := strings.Contains(line, "127.0.0.1") || strings.Contains(line, "localhost") || strings.Contains(line, "--key ")
			for _, m := range fakeKey.FindAllStringSubmatch(line, -1) {
				// a key, not a word of prose or a placeholder (KEY, string, ...)
				key := strings.ContainsAny(m[1], "-0123456789") && m[1] != strings.ToUpper(m[1])
				if local && key {
					assert.Equal(t, fake.DefaultAPIKey, m[1], "%s:%d: the fake's key", file, i+1)
				}
			}
		}
	}
	require.NotZero(t, found, "no document starts the fake: the search is broken")
}
