package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// example is a command line of a command's help (its Example or Long
// text) and the exit code it is expected to end with: 0 unless its
// comment says "exits N".
type example struct {
	command string // the command whose help shows it
	line    string
	args    []string
	code    int
}

// helpExamples collects the command lines from the help of every command:
// the indented lines of Example and Long that start with "scm " (or
// "$ scm "); prose is not indented.
func helpExamples(t *testing.T, root *cobra.Command) []example {
	t.Helper()
	var out []example
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, text := range []string{cmd.Example, cmd.Long} {
			for _, line := range strings.Split(text, "\n") {
				indented := strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
				line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
				if !indented || !strings.HasPrefix(line, "scm ") {
					continue
				}
				words, comment, err := shellWords(line)
				require.NoError(t, err, "%s: %s", cmd.CommandPath(), line)
				out = append(out, example{command: cmd.CommandPath(), line: line, args: words[1:], code: exitCodeOf(comment)})
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

var exitsN = regexp.MustCompile(`\bexits (\d+)\b`)

func exitCodeOf(comment string) int {
	if m := exitsN.FindStringSubmatch(comment); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// shellWords splits a command line as a shell does for the lines of our
// docs: words separated by blanks, "..." and '...' quoting, and a comment
// from a # that starts a word. Anything else a shell would interpret
// (redirects, pipes, variables) is refused, as the tests cannot run it.
func shellWords(line string) (words []string, comment string, err error) {
	var word strings.Builder
	inWord, quote := false, rune(0)
	for i, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		case r == '#' && !inWord:
			return words, line[i:], nil
		case strings.ContainsRune("|&;<>$`\\", r):
			return nil, "", fmt.Errorf("%q: %q is shell syntax the tests cannot run", line, r)
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, "", fmt.Errorf("%q: unterminated quote", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, "", nil
}

func TestShellWords(t *testing.T) {
	words, comment, err := shellWords(`scm call x --projectName "Retail Network" --n 'a b'   # exits 1`)
	require.NoError(t, err)
	assert.Equal(t, []string{"scm", "call", "x", "--projectName", "Retail Network", "--n", "a b"}, words)
	assert.Equal(t, "# exits 1", comment)
	_, _, err = shellWords("scm projects > out.txt")
	assert.Error(t, err)
}

// exampleFixtures writes the files the help examples name into dir.
func exampleFixtures(t *testing.T, dir string, flags []string) {
	t.Helper()
	wb, err := writeDemoWorkbook(dir)
	require.NoError(t, err)
	require.NoError(t, os.Rename(wb, filepath.Join(dir, "network.xlsx")))
	r := scm(t, "", append([]string{"call", "getExperimentRunConfiguration", "--rcId", "10303"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rc.json"), []byte(r.stdout), 0o644))
	plan := "project: 1\noutput: out\nitems:\n  - {name: simulation, scenario: 103, experiment: SIMULATION, export: {dashboard: simulation.xlsx}}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plan.yaml"), []byte(plan), 0o644))
}

// exampleServer is a fresh fake, licensed, with quick runs and imports on
// real time, whose SIMULATION 10303 has run: its result is 5002.
func exampleServer(t *testing.T) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	srv, flags := newServer(t, fake.WithRunDuration(200*time.Millisecond), fake.WithImportDuration(100*time.Millisecond))
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	out, err := c.Experiments.RunSync(ctx, 10303)
	require.NoError(t, err, "running 10303 for the examples' result")
	require.Equal(t, ids.ExperimentResultID(5002), out.ExperimentResultId)
	return flags
}

// Every example in every command's help runs, through scm's entry point,
// against a fake, and ends as it says: a help that shows a command line
// that fails is caught here. The server is given by the environment, as a
// user's shell would; scm demo ignores it and starts its own.
func TestHelpExamplesRun(t *testing.T) {
	examples := helpExamples(t, (&app{}).rootCommand())
	require.GreaterOrEqual(t, len(examples), 20, "the extraction finds the examples")
	for _, ex := range examples {
		t.Run(ex.line, func(t *testing.T) {
			flags := exampleServer(t)
			dir := t.TempDir()
			exampleFixtures(t, dir, flags)
			t.Chdir(dir)
			t.Setenv("SCM_BASE_URL", flags[1])
			t.Setenv("SCM_API_KEY", flags[3])
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			r := scmContext(t, ctx, "", ex.args...)
			require.NoError(t, ctx.Err(), "%q did not end within 20s", ex.line)
			assert.Equal(t, ex.code, r.code, "%s shows %q\nstdout:\n%s\nstderr:\n%s", ex.command, ex.line, r.stdout, r.stderr)
		})
	}
}

// Every command that does something shows an example of it, so the test
// above covers it; serve-fake serves until interrupted.
func TestEveryCommandHasAnExample(t *testing.T) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.Runnable() && cmd.Name() != "help" && cmd.Name() != "serve-fake" && cmd != cmd.Root() {
			assert.Contains(t, cmd.Example, "scm ", "%s has no example", cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk((&app{}).rootCommand())
}

// scm call uploads a workbook given as --file @path, streamed in a
// multipart form: the import makes a scenario with the workbook's sheets.
func TestCallUploadsAWorkbook(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, flags := newServer(t, fake.WithClock(clock))
	dir := t.TempDir()
	wb, err := writeDemoWorkbook(dir)
	require.NoError(t, err)
	workbook := filepath.Join(dir, "workbook.xlsx")
	require.NoError(t, os.Rename(wb, workbook))

	r := scm(t, "", append([]string{"call", "import_excel", "--projectId", "1", "--newScenarioName", "Uploaded",
		"--needToImportExperiments", "true", "--file", "@" + workbook}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.JSONEq(t, `{"error": null, "jobId": 4001}`, r.stdout)
	assert.Equal(t, 1, srv.Applied("importExcel"))

	clock.Advance(time.Hour)
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	st, err := c.Imports.Status(ctx, 4001)
	require.NoError(t, err)
	require.NotNil(t, st.ScenarioId, "the job made a scenario")
	tables, ok := srv.ScenarioTables(*st.ScenarioId)
	require.True(t, ok)
	for _, sheet := range demoSheets {
		assert.Equal(t, int64(sheet.rows), tables[sheet.name], "sheet %s arrived whole", sheet.name)
	}
}

// A parameter the spec marks required with a default takes the default
// when not given: fullMatch=true, as real clients send it.
func TestCallRequiredDefaults(t *testing.T) {
	srv, flags := newServer(t)
	r := scm(t, "", append([]string{"call", "find_and_open_project_by_name", "--projectName", "Spare Parts"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"name":"Spare Parts"`)
	r = scm(t, "", append([]string{"call", "find_and_open_project_by_name", "--projectName", "Spare", "--fullMatch", "false"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"name":"Spare Parts"`, "a given value wins")
	assert.Equal(t, 2, srv.Calls("findAndOpenProjectByName"))
}

// Every command that talks to a server takes --timeout (the whole
// command), --request-timeout (one request) and --max-time (the former
// name of --timeout); call parses its own command line and takes them
// there. The help says which bounds what.
func TestEveryServerCommandHasTimeLimits(t *testing.T) {
	local := map[string]bool{"scm": true, "scm help": true, "scm ops": true, "scm completion": true, "scm serve-fake": true, "scm call": true}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.Runnable() && !local[cmd.CommandPath()] {
			for _, flag := range []string{"timeout", "request-timeout", "max-time"} {
				assert.NotNil(t, cmd.Flags().Lookup(flag), "%s has no --%s", cmd.CommandPath(), flag)
			}
			assert.Equal(t, timeoutHelp, cmd.Flags().Lookup("timeout").Usage, cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk((&app{}).rootCommand())
	assert.True(t, globalFlags["timeout"] && globalFlags["request-timeout"] && globalFlags["max-time"], "scm call takes them, with a value")
}
