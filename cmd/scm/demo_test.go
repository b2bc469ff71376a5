package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func TestDemoEndToEnd(t *testing.T) {
	t.Chdir(t.TempDir())
	r := scm(t, "", "demo", "--run-duration", "600ms", "--import-duration", "300ms")
	require.Equal(t, 0, r.code, r.stderr)
	for step := 1; step <= 18; step++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("[%d/18]", step))
	}
	for _, want := range []string{"Signed in as demo", `Opened project "Retail Network" by its whole name (fullMatch=true): id 1`,
		"Import DONE: new scenario 1001", "Scenario 103   Simulation               SIM  <- the one to simulate",
		`Copied scenario 103 "Simulation" into new scenario 1002 (SIM): the demo changes the copy, never scenario 103.`,
		"rcId 100203 SIMULATION", "replications 1 -> 2", `Refused: "Access is denied" (500)`, "Requested a license: granted=true",
		"finished after", "OK, experimentResultId 5002", "Result page 83001", "Dashboard page 5004  Overview", "rows, read 20 at a time", `row 0: Id="R1", Name="Name 1", Amount=`,
		"parameter quantity varies by [NUMBER_RANGE]", "Created variation 3001 of rcId 100205", "last mile optimization rcId 10109",
		"Copied scenario 101 \"Baseline\" into new scenario 1003 (GFA)", "The copy's last mile optimization: rcId 100309.",
		"Added the 5 selected shipments", "Dropped the license the demo requested: true", "Closed project 1.", "Demo finished",
		"It changed only the scenarios it created, which it leaves for you to look at: 1001, 1002 and 1003."} {
		assert.Contains(t, r.stdout, want)
	}
	f, err := excelize.OpenFile("scm-demo-dashboard-5002.xlsx")
	require.NoError(t, err, "the export is a workbook")
	defer f.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, f.GetSheetList(), "a sheet per dashboard page")
	rows, err := f.GetRows("Overview")
	require.NoError(t, err)
	require.Greater(t, len(rows), 2, "the sheet holds the page's charts")
	assert.Equal(t, []string{"Overview table 1"}, rows[0], "each chart of the page is a section named after its sheet")
}

// demoServer is a fake whose runs and imports take a moment, on real time,
// and the flags of scm demo against it.
func demoServer(t *testing.T, opts ...fake.Option) (*fake.Server, []string) {
	t.Helper()
	srv := fake.NewServer(append([]fake.Option{fake.WithAPIKeys(testKey), fake.WithRunDuration(300 * time.Millisecond),
		fake.WithImportDuration(200 * time.Millisecond)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, []string{"demo", "--base-url", srv.URL, "--api-key", testKey}
}

// sentNothing checks that no operation reached the server.
func sentNothing(t *testing.T, srv *fake.Server) {
	t.Helper()
	for _, op := range gen.Operations() {
		assert.Zero(t, srv.Calls(op.ID), "%s was sent", op.ID)
	}
}

// Against a server that is not the embedded fake, the demo lists what it
// will change and, without a terminal to ask on and without --yes, sends
// nothing and exits 2 saying why.
func TestDemoRefusesToChangeAServerUnasked(t *testing.T) {
	t.Chdir(t.TempDir())
	srv, flags := demoServer(t)
	r := scm(t, "y\n", flags...)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm demo changes the server at "+srv.URL+", in this order:\n"+
		"  - your session: opens the first project listed, by its name (findAndOpenProjectByName); the last step closes it again, or reopens the project you had open\n")
	assert.Contains(t, r.stderr, "drops the license if the demo requested it (dropLicense)")
	assert.Contains(t, r.stderr, "standard input is not a terminal, so scm cannot ask: give --yes to go on, or --read-only")
	assert.NotContains(t, r.stdout, "[1/")
	sentNothing(t, srv)
}

// asTerminal makes scm take standard input for a terminal, as on a shell.
func asTerminal(t *testing.T) {
	t.Helper()
	was := stdinTerminal
	stdinTerminal = func(io.Reader) bool { return true }
	t.Cleanup(func() { stdinTerminal = was })
}

func TestDemoAsksOnATerminal(t *testing.T) {
	t.Chdir(t.TempDir())
	asTerminal(t)
	srv, flags := demoServer(t)
	r := scm(t, "n\n", flags...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Change this server? [y/N] ")
	assert.Contains(t, r.stderr, "scm demo: not confirmed; nothing was sent")
	sentNothing(t, srv)

	r = scm(t, "y\n", flags...)
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Demo finished")
}

// The demo drops only a license it requested: a user who held one keeps
// it, and a user who had the project open keeps it open.
func TestDemoLeavesTheSessionAsItFoundIt(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	srv, flags := demoServer(t, fake.WithLicense())
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	_, err = c.Projects.Open(ctx, 1)
	require.NoError(t, err)

	r := scm(t, "", append(flags, "--yes")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Project 1  Retail Network  (open: yours)")
	assert.Contains(t, r.stdout, "Left the license as it was: the demo requested none.")
	assert.Contains(t, r.stdout, "Left project 1 open, as it was before the demo.")
	for _, op := range []string{"requestLicense", "dropLicense", "closeProject"} {
		assert.Zero(t, srv.Calls(op), op)
	}
}

func TestDemoDropsTheLicenseItRequested(t *testing.T) {
	t.Chdir(t.TempDir())
	srv, flags := demoServer(t)
	r := scm(t, "", append(flags, "--yes")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 1, srv.Applied("requestLicense"))
	assert.Equal(t, 1, srv.Applied("dropLicense"))
	assert.Equal(t, 2, srv.Calls("runExperimentSynchronously"), "refused for want of a license, then run")
	assert.Contains(t, r.stdout, "Closed project 1.")
}

// --read-only walks the steps that read, reads the result of the latest
// finished run, and sends no operation that changes state: no question is
// asked, as nothing changes.
func TestDemoReadOnly(t *testing.T) {
	t.Chdir(t.TempDir())
	srv, flags := finishedRun(t)
	r := scm(t, "", append([]string{"demo", "--read-only"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "[10/10]")
	assert.Contains(t, r.stdout, `Latest run of rcId 10303: "Statistics" (run 5001), FINISHED.`)
	assert.Contains(t, r.stdout, "Dashboard page 5004  Overview")
	assert.Contains(t, r.stdout, "parameter quantity varies by [NUMBER_RANGE]")
	assert.Contains(t, r.stdout, "40 orders.")
	assert.Contains(t, r.stdout, "reading only: result 5002")
	assert.NotContains(t, r.stderr, "changes the server")
	_, err := os.Stat("scm-demo-dashboard-5002.xlsx")
	assert.NoError(t, err, "exports are reads")
	for _, op := range gen.Operations() {
		if op.ChangesState && op.ID != "runExperiment" { // finishedRun started the run
			assert.Zero(t, srv.Calls(op.ID), "%s changes state", op.ID)
		}
	}
	assert.Equal(t, 1, srv.Calls("runExperiment"))
}

// The read-only walk of the embedded fake finds no run, and says so.
func TestDemoReadOnlyWithoutARun(t *testing.T) {
	t.Chdir(t.TempDir())
	r := scm(t, "", "demo", "--read-only")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "rcId 10303 never ran: there is no result to read")
	assert.Contains(t, r.stdout, "No finished run of rcId 10303: nothing to export.")
}

// Each step that changes state says what in the plan shown before it, and
// the read-only stand-ins change nothing.
func TestDemoStepsDescribeWhatTheyChange(t *testing.T) {
	d := &demo{app: &app{}}
	all := d.steps()
	d.readOnly = true
	reading := d.steps()
	require.NotEmpty(t, reading)
	for _, s := range all {
		assert.Equal(t, s.changesState(), s.changes != "", "step %q: its plan line and its operations disagree", s.title)
	}
	for _, s := range reading {
		assert.False(t, s.changesState(), "step %q of --read-only", s.title)
	}
	assert.Less(t, len(reading), len(all))
	var titles []string
	for _, s := range reading {
		titles = append(titles, s.title)
	}
	assert.Contains(t, strings.Join(titles, "\n"), "The simulation's latest run")
}

// The read-only guard refuses any state-changing operation a read-only
// command would send, before it leaves.
func TestReadOnlyTransportSendsNothingThatChangesState(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	srv, flags := newServer(t)
	a := &app{stderr: io.Discard, baseURL: flags[1], apiKey: testKey, readOnly: true, attemptTimeout: time.Second}
	c, err := a.client()
	require.NoError(t, err)
	_, err = c.Projects.Close(ctx)
	require.ErrorContains(t, err, "read-only: closeProject changes state, so scm did not send it")
	assert.Zero(t, srv.Calls("closeProject"))
	_, err = c.Projects.List(ctx)
	assert.NoError(t, err)
}
