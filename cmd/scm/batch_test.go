package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/ids"
)

// writeBatchPlan writes a plan of three items and its workbook into a new
// directory and returns the plan's path: a workbook imported as a new
// scenario (a SIM scenario, as the fake makes them), the simulation of
// scenario 103, and scenario 104, whose runs fail.
func writeBatchPlan(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wb, err := writeDemoWorkbook(dir)
	require.NoError(t, err)
	plan := fmt.Sprintf(`project: 1
output: out
items:
  - name: imported
    workbook: %s
    scenarioName: From batch
    experiment: SIMULATION
    export: {dashboard: imported.xlsx}
  - name: baseline
    scenario: 103
    experiment: SIMULATION
    export: {dashboard: baseline.xlsx}
  - name: broken
    scenario: 104
    experiment: SIMULATION
`, filepath.Base(wb))
	path := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte(plan), 0o644))
	return path
}

// newBatchServer starts a fake whose imports take half a second and runs
// runFor, on real time: long enough for the first poll to see them under
// way on a busy machine; opts are further options of the fake.
func newBatchServer(t *testing.T, runFor time.Duration, opts ...fake.Option) (*fake.Server, []string) {
	t.Helper()
	return newServer(t, append([]fake.Option{fake.WithRunDuration(runFor), fake.WithImportDuration(500 * time.Millisecond)}, opts...)...)
}

func TestBatchCommand(t *testing.T) {
	srv, flags := newBatchServer(t, 500*time.Millisecond)
	plan := writeBatchPlan(t)
	r := scm(t, "", append([]string{"batch", plan}, flags...)...)
	assert.Equal(t, exitAPI, r.code, "an item failed: %s", r.stderr)

	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 5, r.stdout)
	assert.Regexp(t, `^ITEM\s+SCENARIO\s+STATE\s+DURATION\s+OUTPUTS$`, lines[0])
	assert.Regexp(t, `^imported\s+1001\s+done\s+\S+\s+out/imported.xlsx$`, lines[1])
	assert.Regexp(t, `^baseline\s+103\s+done\s+\S+\s+out/baseline.xlsx$`, lines[2])
	assert.Regexp(t, `^broken\s+104\s+failed\s+\S+\s+-$`, lines[3])
	assert.Contains(t, lines[4], "broken: facade: run 10403 ended in state FAILED")

	for _, want := range []string{"Batch of 3 items (0/3 done, 3 pending); state file", "imported: import RUNNING",
		"imported: run RUNNING", "imported: export page 1/3", "imported: done", "broken: failed: facade: run 10403",
		"batch: 2/3 done, 1 failed\n", "batch: 2/3 done, 1 failed; the state is in"} {
		assert.Contains(t, r.stderr, want)
	}
	book, err := excelize.OpenFile(filepath.Join(filepath.Dir(plan), "out", "imported.xlsx"))
	require.NoError(t, err)
	defer book.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, book.GetSheetList())

	r = scm(t, "", append([]string{"batch", plan, "--format", "csv"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	records, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, 4)
	assert.Equal(t, []string{"item", "scenario", "state", "duration", "outputs", "error"}, records[0])
	assert.Equal(t, []string{"imported", "1001", "done"}, records[1][:3])
	assert.Equal(t, "out/imported.xlsx", records[1][4])
	assert.Equal(t, 1, srv.Applied("importExcel"), "the second batch sent nothing")
	assert.Equal(t, 3, srv.Applied("runExperiment"))
}

// A plan's mistakes exit 2 with their lines and fields; nothing is sent.
func TestBatchPlanMistakes(t *testing.T) {
	srv, flags := newBatchServer(t, time.Second)
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(plan, []byte(`project: 1
items:
  - name: a
    workbook: missing.xlsx
    experiment: GFA
  - name: b
    scenario: 101
    experiment: FASTEST
`), 0o644))
	r := scm(t, "", append([]string{"batch", plan}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "batch: the plan has 2 mistakes:\n  "+plan+":4: items[0].workbook: stat ")
	assert.Contains(t, r.stderr, "\n  "+plan+`:8: items[1].experiment: "FASTEST" is not an experiment type`)
	for _, op := range []string{"getScenarios", "importExcel", "getExperiments", "runExperiment"} {
		assert.Zero(t, srv.Calls(op), op)
	}
	_, err := os.Stat(filepath.Join(dir, "plan.state.json"))
	assert.ErrorIs(t, err, os.ErrNotExist, "no state file")

	for _, args := range [][]string{{"batch"}, {"batch", plan, "--format", "xml"}, {"batch", plan, "--parallel", "0"}} {
		assert.Equal(t, exitUsage, scm(t, "", append(args, flags...)...).code, args)
	}
}

// interruptBatch runs scm batch and cancels it (Ctrl-C) once standard
// error shows marker.
func interruptBatch(t *testing.T, marker string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), interruptDeadline)
	defer cancel()
	errOut := &cancelOnWrite{marker: marker, cancel: cancel}
	var out strings.Builder
	code := run(ctx, args, strings.NewReader(""), &out, errOut)
	errOut.requireSeen(t, out.String())
	return result{code: code, stdout: out.String(), stderr: errOut.buf.String()}
}

func TestBatchInterruptedThenResumed(t *testing.T) {
	srv, flags := newBatchServer(t, time.Second)
	plan := writeBatchPlan(t)
	r := interruptBatch(t, "imported: run RUNNING", append([]string{"batch", plan, "--parallel", "1"}, flags...)...)
	assert.Equal(t, exitInterrupted, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Interrupted: 1 under way, recorded in "+filepath.Join(filepath.Dir(plan), "plan.state.json")+" (their runs and imports go on)")
	assert.Regexp(t, `imported\s+1001\s+interrupted`, r.stdout, "the summary is printed")
	assert.Zero(t, srv.Applied("stopExperiment"))

	r = scm(t, "", append([]string{"batch", plan, "--parallel", "3"}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Batch of 3 items (0/3 done, 1 interrupted, 2 pending)")
	assert.Regexp(t, `imported\s+1001\s+done`, r.stdout)
	assert.Equal(t, 1, srv.Applied("importExcel"))
	assert.Equal(t, 3, srv.Applied("runExperiment"), "the interrupted run was waited for, not started again")
}

func TestBatchStopOnCancel(t *testing.T) {
	srv, flags := newBatchServer(t, time.Hour)
	plan := writeBatchPlan(t)
	r := interruptBatch(t, "imported: run RUNNING", append([]string{"batch", plan, "--parallel", "1", "--stop-on-cancel"}, flags...)...)
	assert.Equal(t, exitInterrupted, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Stopping the runs and imports under way... (Ctrl-C again to quit")
	assert.Contains(t, r.stderr, "(their runs and imports were stopped)")
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	b, err := os.ReadFile(filepath.Join(filepath.Dir(plan), "plan.state.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"status": "interrupted"`)
	assert.Contains(t, string(b), "it was stopped", "recorded, for the next batch to start anew")
}

// scm batch runs as a process of its own and is killed (SIGKILL, no chance
// to clean up) once the state file records the started run of the imported
// item. The next batch resumes it: one import and one run per item.
func TestBatchKilledProcessResumes(t *testing.T) {
	srv, flags := newBatchServer(t, time.Second)
	plan := writeBatchPlan(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"batch", plan, "--parallel", "1"}, flags...)...)
	cmd.Env = append(os.Environ(), asSCM+"=1")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	statePath := filepath.Join(filepath.Dir(plan), "plan.state.json")
	require.Eventually(t, func() bool { return runStarted(statePath, "imported") }, 20*time.Second, 20*time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	assert.Equal(t, 1, srv.Applied("importExcel"))
	assert.Equal(t, 1, srv.Applied("runExperiment"))
	assert.FileExists(t, statePath+".lock", "a killed batch cannot remove its lock file")
	leftover := filepath.Join(filepath.Dir(plan), ".plan.state.json.2718.tmp") // as a kill mid-write leaves
	require.NoError(t, os.WriteFile(leftover, []byte("{"), 0o600))

	r := scm(t, "", append([]string{"batch", plan, "--parallel", "3"}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Batch of 3 items (0/3 done, 1 running, 2 pending)", "the killed batch left the item running")
	assert.Regexp(t, `imported\s+1001\s+done`, r.stdout)
	assert.Equal(t, 1, srv.Applied("importExcel"))
	assert.Equal(t, 3, srv.Applied("runExperiment"))
	assert.NoFileExists(t, statePath+".lock", "the stale lock is taken over, and removed at the end")
	assert.NoFileExists(t, leftover)
}

// runStarted reports whether the state file records a started run of item.
func runStarted(statePath, item string) bool {
	b, err := os.ReadFile(statePath)
	if err != nil {
		return false
	}
	var state struct {
		Items map[string]struct {
			RunStarted bool `json:"runStarted"`
		} `json:"items"`
	}
	return json.Unmarshal(b, &state) == nil && state.Items[item].RunStarted
}

// testDisplay is a display of items a and b writing to out, on a
// terminal when live, on a virtual clock.
func testDisplay(out io.Writer, live bool) (*batchDisplay, *fake.VirtualClock) {
	clk := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return &batchDisplay{out: out, live: live, clock: clk, names: []string{"a", "b"},
		status: map[string]batch.Status{"a": batch.Pending, "b": batch.Pending}, events: map[string]batch.Event{}, last: map[string]string{}}, clk
}

// On a terminal, the items under way and the overall line are redrawn in
// place; an item's end is printed above them for good. A measured step
// shows its percentage.
func TestBatchDisplayOnATerminal(t *testing.T) {
	var out strings.Builder
	d, _ := testDisplay(&out, true)
	d.event(batch.Event{Item: "a", Step: batch.StepExport, Status: batch.Running, State: "page 2/4", Percent: 50, Measured: true})
	assert.Equal(t, "  a: export page 2/4                       [==========          ]  50%\nbatch: 0/2 done, 1 running, 1 pending\n", out.String())
	out.Reset()
	d.event(batch.Event{Item: "a", Step: batch.StepEnd, Status: batch.Done})
	assert.Equal(t, "\x1b[2A\x1b[Ja: done\nbatch: 1/2 done, 1 pending\n", out.String(), "up two lines, erase, the end, the block again")
	d.finish()
}

// On a terminal, a run whose server reports no progress shows no
// percentage but its elapsed time, which moves: the block is redrawn
// every second whether events come or not.
func TestBatchDisplayElapsedTimeMoves(t *testing.T) {
	var out faketest.Buffer
	d, clk := testDisplay(&out, true)
	d.event(batch.Event{Item: "a", Step: batch.StepRun, Status: batch.Running, State: "RUNNING", Since: clk.Now()})
	for range 3 {
		require.Eventually(t, func() bool { return clk.Waiters() == 1 }, 5*time.Second, time.Millisecond, "the redrawing's timer")
		clk.Advance(time.Second)
	}
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "a: run RUNNING (3s)") }, 5*time.Second, time.Millisecond, "the block redrawn at 3s:\n%s", out.String())
	d.finish()
	assert.Contains(t, out.String(), "a: run RUNNING (1s)")
	assert.Contains(t, out.String(), "a: run RUNNING (2s)")
	assert.NotContains(t, out.String(), "%")
}

// Items on one run configuration queue for it: the plan's check notes them,
// the progress shows them waiting, and the summary counts them.
func TestBatchSharedRunConfiguration(t *testing.T) {
	srv, flags := newBatchServer(t, 300*time.Millisecond)
	plan := filepath.Join(t.TempDir(), "plan.yaml")
	require.NoError(t, os.WriteFile(plan, []byte(`project: 1
items:
  - {name: a, scenario: 101, experiment: GFA}
  - {name: b, scenario: 101, experiment: GFA}
  - {name: c, scenario: 101, experiment: GFA}
`), 0o644))
	r := scm(t, "", append([]string{"batch", plan, "--parallel", "3"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "note: "+plan+":3: items[0]: runs scenario 101's GFA experiment, as do 2 other items (b at line 4, c at line 5)")
	assert.Regexp(t, `[abc]: queue waiting for run configuration 10101, in use by item [abc]`, r.stderr)
	assert.Contains(t, r.stdout, "2 of 3 items waited for a run configuration that another item was running.")
	assert.Equal(t, 3, srv.Calls("runExperiment"), "no start refused as already running")

	r = scm(t, "", append([]string{"batch", plan, "--format", "csv"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout+r.stderr, "waited", "a batch that ran nothing queued nothing")
}

// An item waiting for its run configuration says so, and the overall line
// counts the items waiting until they go on.
func TestBatchDisplayQueued(t *testing.T) {
	var out strings.Builder
	d, _ := testDisplay(&out, false)
	d.event(batch.Event{Item: "a", Step: batch.StepRun, Status: batch.Running, State: "RUNNING"})
	d.event(batch.Event{Item: "b", Step: batch.StepQueue, Status: batch.Running, State: "waiting for run configuration 10101, in use by item a"})
	d.event(batch.Event{Item: "a", Step: batch.StepEnd, Status: batch.Done})
	d.event(batch.Event{Item: "b", Step: batch.StepRun, Status: batch.Running, State: "STARTING"})
	d.event(batch.Event{Item: "b", Step: batch.StepEnd, Status: batch.Done})
	assert.Equal(t, `  a: run RUNNING
  b: queue waiting for run configuration 10101, in use by item a
a: done
batch: 1/2 done, 1 running (1 waiting for a run configuration)
  b: run STARTING
b: done
batch: 2/2 done
`, out.String())
}

// --timeout ends a batch as a failure, with its items recorded for the
// next batch, like Ctrl-C but with exit code 1.
func TestBatchTimeout(t *testing.T) {
	_, flags := newBatchServer(t, time.Hour)
	plan := writeBatchPlan(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r := scmContext(t, ctx, "", append([]string{"batch", plan, "--timeout", "1s"}, flags...)...)
	require.NoError(t, ctx.Err(), "scm batch --timeout 1s did not end within 10s")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Regexp(t, `scm batch: --timeout 1s passed: \d under way, recorded in .*plan.state.json \(their runs and imports go on\); run the batch again to resume\n$`, r.stderr)
}

// scm batch is killed (SIGKILL) right after it sent the runs of every item
// (two of them of different types on one scenario, run at once), whose
// answers were lost, and started again once the runs have ended:
// runExperiment was applied once per item, and each item's result is the
// one its own run made.
func TestBatchKilledAfterTheStartsResumesEachItemsOwnRun(t *testing.T) {
	srv, flags := newBatchServer(t, time.Second)
	srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 3})
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(plan, []byte(`project: 1
output: out
items:
  - {name: simulation, scenario: 103, experiment: SIMULATION, export: {dashboard: simulation.xlsx}}
  - {name: safety-stock, scenario: 103, experiment: SAFETY_STOCK, export: {dashboard: safety-stock.xlsx}}
  - {name: gfa, scenario: 101, experiment: GFA, export: {dashboard: gfa.xlsx}}
`), 0o600))
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"batch", plan, "--parallel", "3"}, flags...)...)
	cmd.Env = append(os.Environ(), asSCM+"=1")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	require.Eventually(t, func() bool { return srv.Applied("runExperiment") == 3 }, 20*time.Second, time.Millisecond,
		"the batch started every item's run")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	b, err := os.ReadFile(filepath.Join(dir, "plan.state.json"))
	require.NoError(t, err)
	var killed struct {
		Items map[string]struct {
			RunSent    bool   `json:"runSent"`
			RunStarted bool   `json:"runStarted"`
			RunToken   string `json:"runToken"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &killed))
	require.Len(t, killed.Items, 3)
	for item, st := range killed.Items {
		assert.True(t, st.RunSent && !st.RunStarted && st.RunToken != "", "item %s died with its start unsettled: %+v", item, st)
	}

	rcs := map[string]ids.RcID{"simulation": 10303, "safety-stock": 10307, "gfa": 10101}
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		for _, rc := range rcs {
			if st, err := c.Experiments.Status(ctx, rc); err != nil || !*st.Finished {
				return false
			}
		}
		return true
	}, 20*time.Second, 20*time.Millisecond, "every run ended on the server")

	r := scm(t, "", append([]string{"batch", plan, "--parallel", "3"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 3, srv.Applied("runExperiment"), "no run started twice")
	b, err = os.ReadFile(filepath.Join(dir, "plan.state.json"))
	require.NoError(t, err)
	var state struct {
		Items map[string]struct {
			ExperimentResultID ids.ExperimentResultID `json:"experimentResultId"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &state))
	for item, rc := range rcs {
		_, resultID, ran := srv.LastRun(rc)
		require.True(t, ran, "rcId %d ran", rc)
		assert.Equal(t, resultID, state.Items[item].ExperimentResultID, "item %s exported its own run's result", item)
		assert.FileExists(t, filepath.Join(dir, "out", item+".xlsx"))
	}
}
