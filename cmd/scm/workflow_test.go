package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

const testKey = "cli-test-key-5f3a9c"

// newServer starts a fake with a distinctive key and a license, and returns
// it with the flags that point scm at it.
func newServer(t *testing.T, opts ...fake.Option) (*fake.Server, []string) {
	t.Helper()
	// A start shows in the status at once: these tests watch runs' states,
	// not the lag a real server's status has (the facade's tests do).
	srv := fake.NewServer(append([]fake.Option{fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithStatusLag(0)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, []string{"--base-url", srv.URL, "--api-key", testKey}
}

// resultOf returns the experimentResultId of the last finished run of a
// scenario, read through the facade.
func resultOf(t *testing.T, flags []string, scenarioID ids.ScenarioID) ids.ExperimentResultID {
	t.Helper()
	c, err := facade.New(flags[1], facade.WithAPIKey(testKey))
	require.NoError(t, err)
	runs, err := c.Experiments.Runs(t.Context(), scenarioID)
	require.NoError(t, err)
	require.NotEmpty(t, runs, "scenario %d lists no run", scenarioID)
	return runs[len(runs)-1].RcId // a listed run's rcId is its experimentResultId
}

// finishedRun starts the simulation of scenario 103 on a virtual clock and
// moves the clock past its end, so results exist.
func finishedRun(t *testing.T) (*fake.Server, []string) {
	t.Helper()
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, flags := newServer(t, fake.WithClock(clock))
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	_, err = c.Experiments.Start(t.Context(), 10303, nil)
	require.NoError(t, err)
	clock.Advance(time.Hour)
	return srv, flags
}

// Operations from every area, by camelCase and by snake_case name, give
// identical output.
func TestCallEitherNameSameResult(t *testing.T) {
	_, flags := finishedRun(t)
	cases := [][]string{
		{"getProjects"},
		{"openProject", "--projectId", "2"},
		{"getScenarios", "--projectId", "1"},
		{"getTablesMeta"},
		{"getExperiments", "--projectId", "1", "--scenarioId", "101"},
		{"getExperiment", "--scenarioId", "101", "--experimentType", "GFA"},
		{"getExperimentRunResultPages", "--rcId", "10303"},
		{"getExperimentRunResultChartTableData", "--rcId", "10303", "--chartId", "101", "--take", "5"},
		{"getVariableParameterObjectTypes", "--scenarioId", "101"},
		{"getLastMileOptimizationOrdersTableData", "--rcId", "10109", "--take", "3"},
		{"getCurrentUser"},
		{"translate", "--stringToBeTranslated", "Scenario"},
	}
	for _, args := range cases {
		t.Run(args[0], func(t *testing.T) {
			op := mustLookup(t, args[0])
			camel := scm(t, "", append(append([]string{"call", op.ID}, args[1:]...), flags...)...)
			require.Equal(t, 0, camel.code, camel.stderr)
			snake := scm(t, "", append(append([]string{"call", op.SnakeName}, args[1:]...), flags...)...)
			require.Equal(t, 0, snake.code, snake.stderr)
			assert.Equal(t, camel.stdout, snake.stdout)
			assert.True(t, json.Valid([]byte(camel.stdout)), camel.stdout)
		})
	}
}

func TestCallBodyAndWorkbook(t *testing.T) {
	_, flags := finishedRun(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "page.xlsx")
	result := resultOf(t, flags, 103).String()
	page := ids.PageID(resultOf(t, flags, 103) + 2).String() // the first page is experimentResultId+2
	r := scm(t, "", append([]string{"call", "export_dashboard_page", "--experimentResultId", result, "--pageId", page, "-o", out}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	_, err := excelize.OpenFile(out)
	require.NoError(t, err)

	read := scm(t, "", append([]string{"call", "getExperimentRunConfiguration", "--rcId", "10303"}, flags...)...)
	require.Equal(t, 0, read.code, read.stderr)
	body := strings.Replace(read.stdout, `"id"`, `"futureSetting":12345678901234567890,"id"`, 1)
	r = scm(t, body, append([]string{"call", "updateExperimentRunConfiguration", "--rcId", "10303", "--body", "-"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"futureSetting":12345678901234567890`)
}

func TestAPIErrorsExitOne(t *testing.T) {
	_, flags := newServer(t)
	r := scm(t, "", append([]string{"call", "openProject", "--projectId", "999"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	assert.Equal(t, "scm call: openProject: projectId 999: no such project (500 Internal Server Error)\n", r.stderr,
		"the command, then the operation once, then the server's message; a refusal was not applied")

	r = scm(t, "", "call", "getCurrentUser", "--base-url", flags[1], "--api-key", "wrong")
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stderr, "(401 Unauthorized)")
	assert.NotContains(t, r.stderr, "wrong")

	t.Setenv("SCM_API_KEY", "") // whatever the environment says
	r = scm(t, "", "call", "getCurrentUser", "--base-url", flags[1])
	assert.Equal(t, exitUsage, r.code, "a missing key is refused before anything is sent")
	assert.Equal(t, "scm call: no API key: give --api-key or set SCM_API_KEY (the server refuses every call without one)\n", r.stderr)

	r = scm(t, "", append([]string{"status", "424242"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stderr, "getExperimentStatus")
}

func TestKeyNeverPrinted(t *testing.T) {
	_, flags := finishedRun(t)
	for _, args := range [][]string{
		{"call", "getCurrentUser", "--verbose"},
		{"--verbose", "projects"},
		{"--verbose", "results", "table", "5002", "--chart", "5005", "--max", "3"},
		{"--verbose", "status", "10303"},
	} {
		r := scm(t, "", append(args, flags...)...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.NotEmpty(t, r.stderr, "verbose logs requests")
		assert.NotContains(t, r.stdout+r.stderr, testKey)
	}
}

// scm results table writes every row in each format: csv and table with
// the column names first, json as one array, jsonl an object per line.
func TestResultsTableFormats(t *testing.T) {
	_, flags := finishedRun(t)
	table := func(format string) string {
		r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005", "--format", format, "--page-size", "7"}, flags...)...)
		require.Equal(t, 0, r.code, r.stderr)
		return r.stdout
	}
	records, err := csv.NewReader(strings.NewReader(table("csv"))).ReadAll()
	require.NoError(t, err)
	assert.Len(t, records, 51, "a header and the 50 rows, over 8 pages")

	var doc []map[string]any
	require.NoError(t, json.Unmarshal([]byte(table("json")), &doc), "json is one document")
	require.Len(t, doc, 50)
	assert.Len(t, doc[0], len(records[0]), "keyed by the column names")

	lines := strings.Split(strings.TrimSpace(table("jsonl")), "\n")
	require.Len(t, lines, 50)
	var row map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &row))
	assert.Equal(t, doc[0], row, "the same object, on a line of its own")

	assert.Equal(t, 51, strings.Count(table("table"), "\n"))
	r := scm(t, "", append([]string{"results", "table", "1", "--chart", "1", "--format", "xml"}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
}

func TestImportExcelWait(t *testing.T) {
	_, flags := newServer(t, fake.WithImportDuration(300*time.Millisecond))
	path, err := writeDemoWorkbook(t.TempDir())
	require.NoError(t, err)
	r := scm(t, "", append([]string{"import", "excel", "1", path, "--name", "From CLI", "--wait"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "DONE, scenario 1001")

	r = scm(t, "", append([]string{"scenarios", "1"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "From CLI")
}

// cancelOnWrite cancels a context once the output contains a marker: a
// Ctrl-C that arrives while scm waits.
type cancelOnWrite struct {
	mu     sync.Mutex
	buf    strings.Builder
	marker string
	cancel context.CancelFunc
	seen   bool
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.seen = true
		w.cancel()
	}
	return len(p), nil
}

// requireSeen fails the test when the marker never appeared: the deadline,
// not a Ctrl-C, ended the command.
func (w *cancelOnWrite) requireSeen(t *testing.T, output string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	require.True(t, w.seen, "waited %v for %q; the output was:\n%s", interruptDeadline, w.marker, output)
}

// interruptDeadline bounds a command a test means to interrupt: when the
// marker it waits for never comes, the test fails in seconds.
const interruptDeadline = 10 * time.Second

// interruptOnceStarted runs scm with args and the server flags, and
// cancels its context (Ctrl-C) once it reports the run started (on
// standard error: standard output is the result's id).
func interruptOnceStarted(t *testing.T, flags []string, args ...string) (code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), interruptDeadline)
	defer cancel()
	errOut := &cancelOnWrite{marker: "Started rcId", cancel: cancel}
	code = run(ctx, append(args, flags...), strings.NewReader(""), &strings.Builder{}, errOut)
	errOut.mu.Lock()
	said := errOut.buf.String()
	errOut.mu.Unlock()
	errOut.requireSeen(t, said)
	return code, said
}

func TestInterruptStopsTheRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10303", "--wait", "--stop-on-cancel")
	assert.Equal(t, exitInterrupted, code, errOut)
	assert.Contains(t, errOut, "Interrupted: stopped run 10303")

	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	st, err := c.Experiments.Status(t.Context(), 10303)
	require.NoError(t, err)
	assert.Equal(t, facade.RunStopped, facade.RunStateValue(st), "the fake shows the run stopped")
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
}

func TestInterruptWithoutStopLeavesTheRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10303", "--wait")
	assert.Equal(t, exitInterrupted, code)
	assert.Contains(t, errOut, "stopped waiting; run 10303 goes on")
	assert.Equal(t, 0, srv.Applied("stopExperiment"))
}

func TestServeFake(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out := &cancelOnWrite{marker: "API key:", cancel: func() {}}
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve-fake", "--addr", "127.0.0.1:0", "--key", "k1"}, strings.NewReader(""), out, os.Stderr)
	}()
	require.Eventually(t, func() bool {
		out.mu.Lock()
		defer out.mu.Unlock()
		return strings.Contains(out.buf.String(), "API key:  k1")
	}, 5*time.Second, 10*time.Millisecond)
	out.mu.Lock()
	base := strings.TrimSpace(strings.TrimPrefix(strings.Split(out.buf.String(), "\n")[0], "base URL:"))
	out.mu.Unlock()
	r := scm(t, "", "call", "getCurrentUser", "--base-url", base, "--api-key", "k1")
	assert.Equal(t, 0, r.code, r.stderr)
	cancel()
	assert.Equal(t, 0, <-done)
}

// Input the SDK rejects before sending, and a missing local file, are usage
// errors too.
func TestUsageErrorsFoundLater(t *testing.T) {
	_, flags := newServer(t)
	r := scm(t, "", append([]string{"results", "table", "5002", "--chart", "5005", "--prefetch", "99"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "getExperimentRunResultChartTableData: --prefetch 99")

	r = scm(t, "", append([]string{"import", "excel", "1", "/nonexistent/book.xlsx", "--name", "X"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "/nonexistent/book.xlsx")
}

// Ctrl-C during any command exits 130, not as an API error.
func TestInterruptedCallExits130(t *testing.T) {
	_, flags := newServer(t, fake.WithRunDuration(time.Hour))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := scmContext(t, ctx, "", append([]string{"call", "getCurrentUser"}, flags...)...)
	assert.Equal(t, exitInterrupted, r.code, r.stderr)
}

// When stopping fails after Ctrl-C, scm says so and exits 1: the run goes on.
func TestInterruptWithFailedStop(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	srv.InjectFault("stopExperiment", fake.Fault{Kind: fake.FaultStatus, Status: 500, Times: 1})
	code, errOut := interruptOnceStarted(t, flags, "run", "10303", "--wait", "--stop-on-cancel")
	assert.Equal(t, exitAPI, code, errOut)
	assert.Contains(t, errOut, "stopping the work failed")
	assert.NotContains(t, errOut, "Interrupted: stopped run")
}

func TestInsecureHTTPNeedsTheFlag(t *testing.T) {
	r := scm(t, "", "call", "getCurrentUser", "--base-url", "http://scm.invalid/api/v1", "--api-key", "k")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "plain http")
	assert.Contains(t, r.stderr, "--insecure-http")
	r = scm(t, "", "call", "getCurrentUser", "--base-url", "http://scm.invalid/api/v1", "--api-key", "k", "--insecure-http")
	assert.Equal(t, exitAPI, r.code)
	assert.NotContains(t, r.stderr, "plain http")
}

// Global flags may come before the operation name; an unreadable upload is
// a usage error before anything is sent; call OP --help describes OP.
func TestCallCommandLineDetails(t *testing.T) {
	srv, flags := newServer(t)
	r := scm(t, "", append([]string{"--verbose", "call", "getCurrentUser"}, flags...)...)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "operation=getCurrentUser", "--verbose before call is taken")

	dir := t.TempDir()
	r = scm(t, "", append([]string{"call", "importScenario", "--projectId", "1", "--file", "@" + dir}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "not a regular file")
	assert.Equal(t, 0, srv.Calls("importScenario"), "nothing was sent")

	r = scm(t, "", "call", "get_experiment_run_result", "--help")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "getExperimentRunResult (get_experiment_run_result)")
	assert.Contains(t, r.stdout, "--rcId integer/int64, required")
	assert.Contains(t, r.stdout, "--take integer/int32, always sent, default 1000")
}

func TestInterruptAnnouncesTheStop(t *testing.T) {
	_, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10303", "--wait", "--stop-on-cancel")
	assert.Equal(t, exitInterrupted, code)
	assert.Contains(t, errOut, "Stopping run 10303... (Ctrl-C again to quit")
}

// Every list command writes JSON with --format json: the list as the
// server answered it, one document; jsonl an object per line, csv a
// record per row; another format is refused before anything is sent.
func TestListCommandsWriteJSON(t *testing.T) {
	srv, flags := finishedRun(t)
	for name, args := range map[string][]string{
		"projects":      {"projects"},
		"scenarios":     {"scenarios", "1"},
		"experiments":   {"experiments", "103", "--project", "1"},
		"results pages": {"results", "pages", "5002"},
	} {
		t.Run(name, func(t *testing.T) {
			r := scm(t, "", append(append(args, "--format", "json"), flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			var list []map[string]any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &list), r.stdout)
			require.NotEmpty(t, list)
			assert.Contains(t, list[0], "id")

			r = scm(t, "", append(append(args, "--format", "jsonl"), flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			require.Len(t, lines, len(list), "a line per item")
			var first map[string]any
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
			assert.Equal(t, list[0], first)

			r = scm(t, "", append(append(args, "--format", "csv"), flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			records, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
			require.NoError(t, err)
			assert.Len(t, records, len(list)+1, "a header and a record per item")

			before := srv.Calls("getProjects") + srv.Calls("getScenarios") + srv.Calls("getExperiments") + srv.Calls("getExperimentDashboardPages")
			r = scm(t, "", append(append(args, "--format", "xml"), flags...)...)
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, `--format "xml" is no format: the formats are table, json, jsonl, csv, parquet or xlsx, and this command writes table, json, jsonl or csv`)
			assert.Equal(t, before, srv.Calls("getProjects")+srv.Calls("getScenarios")+srv.Calls("getExperiments")+srv.Calls("getExperimentDashboardPages"), "nothing sent")
		})
	}
	r := scm(t, "", append([]string{"results", "pages", "5002", "--charts"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `(?m)^PAGE\s+NAME\s+CHART\s+CHART NAME$`, r.stdout)
	assert.Regexp(t, `(?m)^\s+5005\s+\S`, r.stdout, "the first page's first chart, whose id follows the page's")
}

// An rcId given where an experimentResultId belongs is refused (exit 2),
// the hint first: which kind of id it is, and the result id to use; the
// server's answer, when it failed, comes after it.
func TestResultIDThatIsAnRcIDGetsAHint(t *testing.T) {
	_, flags := finishedRun(t)
	r := scm(t, "", append([]string{"results", "pages", "10303"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, "a server lists pages for an rcId too, of no result: %s", r.stderr)
	assert.Equal(t, "scm results pages: 10303 is an rcId (a run configuration's id), not an experimentResultId: its latest result is 5002 (scm results pages 5002 lists its pages)\n", r.stderr)
	assert.Empty(t, r.stdout, "no pages of no result")

	r = scm(t, "", append([]string{"export", "dashboard", "10403", "-o", filepath.Join(t.TempDir(), "d.xlsx")}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "scm export dashboard: 10403 is an rcId"), "the hint first: %s", r.stderr)
	hint, answer, ok := strings.Cut(r.stderr, "; the server answered: ")
	require.True(t, ok, r.stderr)
	assert.NotContains(t, hint, "Cannot invoke", "the server's Java text comes after the hint")
	assert.Contains(t, answer, `because "run" is null`, "the rcId a synchronous run with validation errors answers in place of a result id")

	r = scm(t, "", append([]string{"results", "pages", "5002"}, flags...)...)
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stderr, "rcId")
}

// An experimentResultId given to scm run, which takes an rcId, is named
// as one, with the rcId of its run, before the server's answer.
func TestRcIDThatIsAResultIDGetsAHint(t *testing.T) {
	_, flags := finishedRun(t)
	r := scm(t, "", append([]string{"run", "5002"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "scm run: 5002 is an experimentResultId (a run's result), not an rcId: the result of a run of rcId 10303"), r.stderr)
	assert.Contains(t, r.stderr, "; the server answered: ")

	r = scm(t, "", append([]string{"run", "999999"}, flags...)...)
	assert.Equal(t, exitAPI, r.code, "no id of either kind: the server's answer alone: %s", r.stderr)
	assert.NotContains(t, r.stderr, "experimentResultId")
}
