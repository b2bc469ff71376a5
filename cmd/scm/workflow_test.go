package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

const testKey = "cli-test-key-5f3a9c"

// newServer starts a fake with a distinctive key and a license, and returns
// it with the flags that point scm at it.
func newServer(t *testing.T, opts ...fake.Option) (*fake.Server, []string) {
	t.Helper()
	srv := fake.NewServer(append([]fake.Option{fake.WithAPIKeys(testKey), fake.WithLicense()}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, []string{"--base-url", srv.URL, "--api-key", testKey}
}

// resultOf returns the experimentResultId of the last finished run of a
// scenario, read through the facade.
func resultOf(t *testing.T, flags []string, scenarioID int64) int64 {
	t.Helper()
	c, err := facade.New(flags[1], facade.WithAPIKey(testKey))
	require.NoError(t, err)
	runs, err := c.Experiments.Runs(context.Background(), scenarioID)
	require.NoError(t, err)
	for i := len(runs) - 1; i >= 0; i-- {
		if id := runs[i].ExperimentResultId; id != nil {
			return *id
		}
	}
	require.Fail(t, "no finished run", "scenario %d", scenarioID)
	return 0
}

// finishedRun starts the simulation of scenario 101 on a virtual clock and
// moves the clock past its end, so results exist.
func finishedRun(t *testing.T) (*fake.Server, []string) {
	t.Helper()
	clock := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, flags := newServer(t, fake.WithClock(clock))
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	_, err = c.Experiments.Start(context.Background(), 10103)
	require.NoError(t, err)
	clock.Advance(time.Hour)
	return srv, flags
}

func TestDemoEndToEnd(t *testing.T) {
	t.Chdir(t.TempDir())
	r := scm(t, "", "demo", "--run-duration", "600ms", "--import-duration", "300ms")
	require.Equal(t, 0, r.code, r.stderr)
	for step := 1; step <= demoSteps; step++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("[%d/%d]", step, demoSteps))
	}
	for _, want := range []string{"Signed in as demo", `Opened project "Retail Network" by its whole name (fullMatch=true): id 1`,
		"Import DONE: new scenario 1001", "replications 1 -> 2", "finished after", "experimentResultId 7001",
		"Dashboard page 1  Overview", "rows, read 20 at a time", "creation refused",
		"answers true", "Created variation", "went from 0 to 5 rows", "License dropped: true", "Demo finished"} {
		assert.Contains(t, r.stdout, want)
	}
	f, err := excelize.OpenFile("scm-demo-dashboard-7001.xlsx")
	require.NoError(t, err, "the export is a workbook")
	defer f.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, f.GetSheetList(), "a sheet per dashboard page")
	rows, err := f.GetRows("Overview")
	require.NoError(t, err)
	require.Greater(t, len(rows), 2, "the sheet holds the page's charts")
	assert.Equal(t, []string{"Overview table 1"}, rows[0], "each chart of the page is a section named after its sheet")
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
		{"getExperiment", "--scenarioId", "101", "--experimentType", "SIMULATION"},
		{"getExperimentRunResultPages", "--rcId", "10103"},
		{"getExperimentRunResultChartTableData", "--rcId", "10103", "--chartId", "101", "--take", "5"},
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
	result := strconv.FormatInt(resultOf(t, flags, 101), 10)
	r := scm(t, "", append([]string{"call", "export_dashboard_page", "--experimentResultId", result, "--pageId", "1", "-o", out}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	_, err := excelize.OpenFile(out)
	require.NoError(t, err)

	read := scm(t, "", append([]string{"call", "getExperimentRunConfiguration", "--rcId", "10103"}, flags...)...)
	require.Equal(t, 0, read.code, read.stderr)
	body := strings.Replace(read.stdout, `"id"`, `"futureSetting":12345678901234567890,"id"`, 1)
	r = scm(t, body, append([]string{"call", "updateExperimentRunConfiguration", "--rcId", "10103", "--body", "-"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"futureSetting":12345678901234567890`)
}

func TestAPIErrorsExitOne(t *testing.T) {
	_, flags := newServer(t)
	r := scm(t, "", append([]string{"call", "openProject", "--projectId", "999"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	assert.Equal(t, "scm call: openProject: projectId 999: no such project (500 Internal Server Error); the operation may have been applied\n", r.stderr,
		"the command, then the operation once, then the server's message")

	r = scm(t, "", "call", "getCurrentUser", "--base-url", flags[1], "--api-key", "wrong")
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stderr, "(401 Unauthorized)")
	assert.NotContains(t, r.stderr, "wrong")

	r = scm(t, "", append([]string{"status", "424242"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stderr, "getExperimentStatus")
}

func TestKeyNeverPrinted(t *testing.T) {
	_, flags := finishedRun(t)
	for _, args := range [][]string{
		{"call", "getCurrentUser", "--verbose"},
		{"--verbose", "projects"},
		{"--verbose", "results", "table", "--rc", "10103", "--chart", "101", "--max", "3"},
		{"--verbose", "status", "10103"},
	} {
		r := scm(t, "", append(args, flags...)...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.NotEmpty(t, r.stderr, "verbose logs requests")
		assert.NotContains(t, r.stdout+r.stderr, testKey)
	}
}

func TestResultsTableFormats(t *testing.T) {
	_, flags := finishedRun(t)
	table := func(format string) string {
		r := scm(t, "", append([]string{"results", "table", "--rc", "10103", "--chart", "101", "--format", format, "--page-size", "7"}, flags...)...)
		require.Equal(t, 0, r.code, r.stderr)
		return r.stdout
	}
	records, err := csv.NewReader(strings.NewReader(table("csv"))).ReadAll()
	require.NoError(t, err)
	assert.Len(t, records, 51, "a header and the 50 rows, over 8 pages")

	lines := strings.Split(strings.TrimSpace(table("json")), "\n")
	require.Len(t, lines, 50)
	var row map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &row))
	assert.Len(t, row, len(records[0]), "keyed by the column names")

	assert.Equal(t, 51, strings.Count(table("table"), "\n"))
	r := scm(t, "", append([]string{"results", "table", "--rc", "1", "--chart", "1", "--format", "xml"}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
}

func TestImportExcelWait(t *testing.T) {
	_, flags := newServer(t, fake.WithImportDuration(300*time.Millisecond))
	path, err := writeDemoWorkbook(t.TempDir())
	require.NoError(t, err)
	r := scm(t, "", append([]string{"import", "excel", path, "--project", "1", "--name", "From CLI", "--wait"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "DONE, scenario 1001")

	r = scm(t, "", append([]string{"scenarios", "--project", "1"}, flags...)...)
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
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.cancel()
	}
	return len(p), nil
}

// interruptOnceStarted runs scm with args and the server flags, and
// cancels its context (Ctrl-C) once it reports the run started.
func interruptOnceStarted(t *testing.T, flags []string, args ...string) (code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOnWrite{marker: "Started rcId", cancel: cancel}
	var errOut strings.Builder
	code = run(ctx, append(args, flags...), strings.NewReader(""), out, &errOut)
	return code, errOut.String()
}

func TestInterruptStopsTheRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10103", "--wait", "--stop-on-cancel")
	assert.Equal(t, exitInterrupted, code, errOut)
	assert.Contains(t, errOut, "Interrupted: stopped run 10103")

	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	st, err := c.Experiments.Status(context.Background(), 10103)
	require.NoError(t, err)
	assert.EqualValues(t, "STOPPED", st.State, "the fake shows the run stopped")
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
}

func TestInterruptWithoutStopLeavesTheRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10103", "--wait")
	assert.Equal(t, exitInterrupted, code)
	assert.Contains(t, errOut, "stopped waiting; run 10103 goes on")
	assert.Equal(t, 0, srv.Applied("stopExperiment"))
}

func TestServeFake(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
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
	r := scm(t, "", append([]string{"results", "table", "--rc", "10103", "--chart", "101", "--prefetch", "99"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "getExperimentRunResultChartTableData")

	r = scm(t, "", append([]string{"import", "excel", "/nonexistent/book.xlsx", "--project", "1", "--name", "X"}, flags...)...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "/nonexistent/book.xlsx")
}

// Ctrl-C during any command exits 130, not as an API error.
func TestInterruptedCallExits130(t *testing.T) {
	_, flags := newServer(t, fake.WithRunDuration(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := scmContext(t, ctx, "", append([]string{"call", "getCurrentUser"}, flags...)...)
	assert.Equal(t, exitInterrupted, r.code, r.stderr)
}

// When stopping fails after Ctrl-C, scm says so and exits 1: the run goes on.
func TestInterruptWithFailedStop(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunDuration(time.Hour))
	srv.InjectFault("stopExperiment", fake.Fault{Kind: fake.FaultStatus, Status: 500, Times: 1})
	code, errOut := interruptOnceStarted(t, flags, "run", "10103", "--wait", "--stop-on-cancel")
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
	assert.Contains(t, r.stdout, "--take integer/int32, optional, default 1000")
}

func TestInterruptAnnouncesTheStop(t *testing.T) {
	_, flags := newServer(t, fake.WithRunDuration(time.Hour))
	code, errOut := interruptOnceStarted(t, flags, "run", "10103", "--wait", "--stop-on-cancel")
	assert.Equal(t, exitInterrupted, code)
	assert.Contains(t, errOut, "Stopping run 10103... (Ctrl-C again to quit")
}
