package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// result is what one scm invocation did.
type result struct {
	code           int
	stdout, stderr string
}

// scmDeadline bounds every command a test runs: a command that waits for
// what never comes fails the test in seconds, naming itself.
const scmDeadline = 30 * time.Second

// scm runs the command in-process with the given arguments and standard
// input, within scmDeadline.
func scm(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), scmDeadline)
	defer cancel()
	r := scmContext(t, ctx, stdin, args...)
	if ctx.Err() != nil {
		t.Errorf("scm %s did not end within %v:\n%s", strings.Join(args, " "), scmDeadline, r.stderr)
	}
	return r
}

func scmContext(t *testing.T, ctx context.Context, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(ctx, args, strings.NewReader(stdin), &out, &errOut)
	checkMessages(t, errOut.String())
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// terminal is standard output as a terminal, for the tests: it says it is
// one.
type terminal struct{ bytes.Buffer }

func (*terminal) Terminal() bool { return true }

// scmOnTerminal runs the command with standard output on a terminal.
func scmOnTerminal(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), scmDeadline)
	defer cancel()
	var out terminal
	var errOut bytes.Buffer
	code := run(ctx, args, strings.NewReader(""), &out, &errOut)
	checkMessages(t, errOut.String())
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	rewrite := updateCommand(t)
	want, err := os.ReadFile(path)
	require.NoError(t, err, "%s creates %s", rewrite, path)
	assert.Equal(t, string(want), got, "output differs from %s; if the change is meant, %s rewrites it", path, rewrite)
}

// updateCommand is the command that rewrites the golden files of the
// running test.
func updateCommand(t *testing.T) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	return "go test ./cmd/scm -run '^" + top + "$' -update"
}

// TestOpsListsTheTable checks that scm ops prints a header and a line per
// operation of the regenerated table, in its order, each column starting
// under its heading; --area keeps the operations of one area, named in any
// case.
func TestOpsListsTheTable(t *testing.T) {
	r := scm(t, "", "ops")
	require.Equal(t, 0, r.code, r.stderr)
	assertOpsTable(t, r.stdout, gen.Operations())

	var lastMile []gen.Operation
	for _, op := range gen.Operations() {
		if op.Tag == "Last mile optimization" {
			lastMile = append(lastMile, op)
		}
	}
	r = scm(t, "", "ops", "--area", "last mile optimization")
	require.Equal(t, 0, r.code, r.stderr)
	assertOpsTable(t, r.stdout, lastMile)
}

func assertOpsTable(t *testing.T, out string, ops []gen.Operation) {
	t.Helper()
	headings := []string{"AREA", "OPERATION", "SNAKE_CASE", "METHOD", "PATH", "CHANGES STATE"}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, len(ops)+1, "a header and a line per operation")
	var starts []int
	for _, h := range headings {
		starts = append(starts, strings.Index(lines[0], h))
	}
	require.True(t, slices.IsSorted(starts) && starts[0] == 0, "header %q", lines[0])
	for i, op := range ops {
		want := []string{op.Tag, op.ID, op.SnakeName, op.Method, op.Path, map[bool]string{true: "yes", false: "no"}[op.ChangesState]}
		line := lines[i+1]
		if len(line) < starts[len(starts)-1] {
			t.Errorf("%s: line %q ends before the last column", op.ID, line)
			continue
		}
		for j, w := range want {
			assert.True(t, strings.HasPrefix(line[starts[j]:], w+"  ") || j == len(want)-1 && line[starts[j]:] == w,
				"%s: column %s of %q is not %q", op.ID, headings[j], line, w)
		}
	}
}

func TestHelpGolden(t *testing.T) {
	r := scm(t, "", "-h")
	require.Equal(t, 0, r.code, r.stderr)
	golden(t, "help.txt", r.stdout)
}

func TestVersion(t *testing.T) {
	r := scm(t, "", "--version")
	assert.Equal(t, 0, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "scm version "), r.stdout)
}

// --version gives the module version when built from a tag, else the VCS
// revision it was built from, else says why there is neither.
// The former flags of the ids now given as arguments still work for one
// release, hidden, and each says on standard error that it goes, with the
// new form.
func TestFormerIDFlagsStillWork(t *testing.T) {
	_, flags := finishedRun(t)
	for name, tc := range map[string]struct{ old, now []string }{
		"results pages": {[]string{"results", "pages", "--result", "5002"}, []string{"results", "pages", "5002"}},
		"scenarios":     {[]string{"scenarios", "--project", "1"}, []string{"scenarios", "1"}},
		"experiments":   {[]string{"experiments", "--project", "1", "--scenario", "103"}, []string{"experiments", "103", "--project", "1"}},
	} {
		t.Run(name, func(t *testing.T) {
			old := scm(t, "", append(tc.old, flags...)...)
			now := scm(t, "", append(tc.now, flags...)...)
			require.Equal(t, exitOK, old.code, old.stderr)
			require.Equal(t, exitOK, now.code, now.stderr)
			assert.Equal(t, now.stdout, old.stdout, "the same output")
			assert.Contains(t, old.stderr, "has been deprecated, give the")
			assert.Contains(t, old.stderr, "as the first argument ("+strings.Join(append([]string{"scm"}, tc.now...), " "))
			assert.NotContains(t, now.stderr, "deprecated")
		})
	}
}

func TestVersionOfTheBuild(t *testing.T) {
	rev := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for want, info := range map[string]*debug.BuildInfo{
		"v1.4.0": {Main: debug.Module{Version: "v1.4.0"}},
		"devel, revision 4a20ee2c0ffe of 2026-11-26T13:46:00Z, modified": {Main: debug.Module{Version: "(devel)"},
			Settings: rev("vcs.revision", "4a20ee2c0ffee0ddba11", "vcs.time", "2026-11-26T13:46:00Z", "vcs.modified", "true")},
		"devel, revision 4a20ee2": {Settings: rev("vcs.revision", "4a20ee2")},
		"devel (no version or VCS revision was stamped: built with go run, or outside a checkout)": {Main: debug.Module{Version: "(devel)"}},
		"devel (no build information)": nil,
	} {
		assert.Equal(t, want, versionOf(info))
	}
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := scm(t, "", "completion", shell)
		assert.Equal(t, 0, r.code, shell)
		assert.Contains(t, r.stdout, "scm", shell)
	}
	assert.Equal(t, exitUsage, scm(t, "", "completion", "tcsh").code)
}

// Every kind of usage error exits 2 before anything is sent, with a message
// that names the operation and the parameter. No server is configured: a
// request would fail differently.
func TestCallUsageErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"unknown operation":       {[]string{"call", "getEverything"}, `unknown operation "getEverything"`},
		"no operation":            {[]string{"call"}, "name an operation"},
		"unknown parameter":       {[]string{"call", "get_scenarios", "--projectID", "3"}, "getScenarios: unknown parameter --projectID"},
		"missing required":        {[]string{"call", "getExperiment", "--scenarioId", "1"}, "getExperiment: missing required parameter --experimentType"},
		"bad enum value":          {[]string{"call", "getExperiment", "--scenarioId", "1", "--experimentType", "GFA2"}, "--experimentType: \"GFA2\" is not one of GFA,"},
		"not an integer":          {[]string{"call", "openProject", "--projectId", "three"}, "openProject: --projectId: \"three\" is not a 64-bit integer"},
		"int32 overflow":          {[]string{"call", "convertNOResultToScenario", "--resultOptionId", "3000000000", "--runId", "1", "--scenarioType", "NO"}, "--resultOptionId: \"3000000000\" is not a 32-bit integer"},
		"not a boolean":           {[]string{"call", "findAndOpenProjectByName", "--projectName", "x", "--fullMatch", "yes"}, "--fullMatch: \"yes\" is not true or false"},
		"given twice":             {[]string{"call", "openProject", "--projectId", "1", "--projectId", "2"}, "--projectId given twice"},
		"missing value":           {[]string{"call", "openProject", "--projectId"}, "--projectId needs a value"},
		"body not taken":          {[]string{"call", "openProject", "--projectId", "1", "--body", "{}"}, "takes no JSON body"},
		"body required":           {[]string{"call", "updateExperimentRunConfiguration", "--rcId", "1"}, "missing required parameter --body (a JSON ApiARunConfigurationWrapper"},
		"all missing at once":     {[]string{"call", "getExperimentRunResultChartTableData"}, "getExperimentRunResultChartTableData: missing required parameters --chartId, --rcId\n"},
		"body and parameters":     {[]string{"call", "updateExperimentRunConfiguration"}, "updateExperimentRunConfiguration: missing required parameters --rcId, --body (a JSON"},
		"bad timeout":             {[]string{"call", "getCurrentUser", "--timeout", "soon"}, `--timeout: "soon" is not a duration such as 30s or 2m`},
		"negative timeout":        {[]string{"projects", "--timeout", "-1s", "--base-url", "http://127.0.0.1:1/api/v1"}, "--timeout -1s is negative"},
		"wait and sync":           {[]string{"run", "10303", "--wait", "--sync"}, "--wait and --sync are two ways to wait: give one"},
		"negative stale window":   {[]string{"run", "10303", "--wait", "--stale-window", "-1s"}, "scm run: --stale-window -1s: want a duration of 0 or more, such as 30s or 2h\n"},
		"run length past bound":   {[]string{"batch", "plan.yaml", "--max-run-length", "800h"}, "scm batch: --max-run-length 800h0m0s: more than the 720h0m0s it may be\n"},
		"stale window past bound": {[]string{"batch", "plan.yaml", "--stale-window", "2h"}, "scm batch: --stale-window 2h0m0s: more than the 1h0m0s it may be\n"},
		"format as -o":            {[]string{"call", "getCurrentUser", "-o", "json"}, "getCurrentUser: -o json would write a file named json: for the format, give --format json"},
		"extension not answer":    {[]string{"call", "getCurrentUser", "-o", "me.csv"}, "getCurrentUser: -o me.csv: .csv is the extension of csv, and this command writes json"},
		"file field needs @":      {[]string{"call", "importScenario", "--projectId", "1", "--file", "x.xlsx"}, "--file: \"x.xlsx\" is not a file"},
		"positional argument":     {[]string{"call", "getCurrentUser", "extra"}, "unexpected argument \"extra\""},
		"no server configured":    {[]string{"call", "getCurrentUser"}, "no server: give --base-url"},
		"call drift report":       {[]string{"call", "getCurrentUser", "--drift-report", "d.json"}, "--drift-report: scm call hands the answer on as the server sent it"},
		"unknown command":         {[]string{"frobnicate"}, "unknown command"},
		"unknown area":            {[]string{"ops", "--area", "Nowhere"}, "unknown --area"},
		"unknown flag":            {[]string{"ops", "--colour"}, "unknown flag"},
		"flag not an integer":     {[]string{"export", "page", "1", "--page", "abc", "-o", "x.xlsx"}, "scm export page: --page: pageId \"abc\" is not a whole number\n"},
		"id flag out of range":    {[]string{"export", "page", "1", "--page", "99999999999999999999", "-o", "x.xlsx"}, "scm export page: --page: pageId \"99999999999999999999\" is out of the range of a 64-bit integer\n"},
		"id argument":             {[]string{"status", "10303x"}, "scm status: rcId \"10303x\" is not a whole number\n"},
		"id arguments":            {[]string{"run", "1", "2"}, "scm run: want one rcId, have 2 arguments\n"},
		"required flag":           {[]string{"export", "page", "1"}, "scm export page: missing required flag --page\n"},
		"layout not asked for":    {[]string{"results", "export", "1", "-o", "."}, "scm results export: -o . is a directory: name a file in it for one file, or write -o ./ for a file per chart\n"},
		"format and extension":    {[]string{"results", "export", "1", "--format", "parquet", "-o", "r.csv"}, "--format parquet and -o r.csv disagree: .csv is the extension of csv"},
		"extension not written":   {[]string{"export", "dashboard", "1", "-o", "d.csv"}, "-o d.csv: .csv is the extension of csv, and this command writes xlsx"},
		"id argument missing":     {[]string{"results", "pages"}, "scm results pages: want one experimentResultId, have 0 arguments\n"},
		"id given twice":          {[]string{"results", "pages", "5002", "--result", "5002"}, "as the argument and with --result"},
	}
	t.Setenv("SCM_BASE_URL", "")
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := scm(t, "", tc.args...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.want)
			assert.Empty(t, r.stdout)
		})
	}
}

func mustLookup(t *testing.T, name string) gen.Operation {
	t.Helper()
	op, ok := gen.LookupOperation(name)
	require.True(t, ok, name)
	return op
}

// errorLine is a line scm writes for a failed command: scm, the command's
// words, and the message.
var errorLine = regexp.MustCompile(`^(scm(?: [a-z][a-z-]*)*): (.*)$`)

// goIdentifier is a name from the SDK's Go API in a message meant for the
// shell: an option (WithInsecureHTTP), a constructor (New:), a method
// (Client.Run, ExperimentsService.RunSync) or a qualified name (facade.X).
var goIdentifier = regexp.MustCompile(`(^|[ (])(New:|With[A-Z][A-Za-z]+|(Client|Run|Job|[A-Z][a-z]+Service)\.[A-Z][A-Za-z]+|(facade|gen|batch|dashboard|resultdata)\.[A-Z][A-Za-z]*)`)

// checkMessages fails the test on an error line of scm that repeats its
// command's words ("scm batch: batch: ...") or shows a Go identifier: every
// error path the tests reach is checked.
func checkMessages(t *testing.T, stderr string) {
	t.Helper()
	for line := range strings.Lines(stderr) {
		line = strings.TrimRight(line, "\n")
		m := errorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		words := strings.Fields(m[1])
		for i := 1; i < len(words); i++ {
			if strings.HasPrefix(m[2], strings.Join(words[i:], " ")+": ") {
				t.Errorf("the message repeats the command's words: %q", line)
			}
		}
		if strings.HasPrefix(m[2], "facade: ") {
			t.Errorf("the message names the SDK's package: %q", line)
		}
		if id := goIdentifier.FindStringSubmatch(m[2]); id != nil {
			t.Errorf("the message shows a Go identifier (%s): %q", id[2], line)
		}
	}
}
