package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
)

// writeDataPlan writes a plan of two existing scenarios' experiments, with
// no export, into a new directory and returns its path.
func writeDataPlan(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`project: 1
items:
  - {name: simulation, scenario: 103, experiment: SIMULATION}
  - {name: baseline, scenario: 101, experiment: GFA}
`), 0o644))
	return path
}

// readState reads the state file beside a plan.
func readState(t *testing.T, plan string) map[string]batch.ItemState {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(plan), "plan.state.json"))
	require.NoError(t, err)
	var state struct {
		Items map[string]batch.ItemState `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &state))
	return state.Items
}

// scm batch --data writes the rows of every item done into one Parquet
// dataset, with the progress of each item's pages on standard error and
// what the dataset holds after the summary.
func TestBatchData(t *testing.T) {
	srv, flags := newBatchServer(t, 200*time.Millisecond)
	plan := writeBatchPlan(t)
	data := filepath.Join(t.TempDir(), "results.parquet")
	r := scm(t, "", append([]string{"batch", plan, "--data", data}, flags...)...)
	assert.Equal(t, exitAPI, r.code, "an item failed: %s", r.stderr)
	for _, want := range []string{"imported: data page 1/3", "baseline: data page 3/3", "imported: data reading result ", " records written\n"} {
		assert.Contains(t, r.stderr, want)
	}
	assert.Regexp(t, `\nWrote `+data+`: \d+ records \(\d+ rows\) of 2 of 3 items\.\n$`, r.stdout)

	type record struct {
		Item       string `parquet:"item"`
		ScenarioID int64  `parquet:"scenario_id"`
		ResultID   int64  `parquet:"result_id"`
	}
	records, err := parquet.ReadFile[record](data)
	require.NoError(t, err)
	state := readState(t, plan)
	n := map[string]int64{}
	for _, rec := range records {
		n[rec.Item]++
		s := state[rec.Item]
		require.Equal(t, record{rec.Item, int64(s.ScenarioID), int64(s.ExperimentResultID)}, rec)
	}
	assert.Equal(t, map[string]int64{"imported": state["imported"].Data.Records, "baseline": state["baseline"].Data.Records}, n)
	assert.Equal(t, 3, srv.Applied("runExperiment"))
}

func TestBatchDataMistakes(t *testing.T) {
	_, flags := newBatchServer(t, time.Second)
	plan := writeDataPlan(t)
	for args, want := range map[string]string{
		"--data x.xlsx":                  "batch: --data x.xlsx: its extension names no format (.csv, .jsonl, .parquet); give one with --data-format",
		"--data x.csv --data-format xml": `batch: --data-format "xml": want csv, jsonl or parquet`,
		"--data-format csv":              "batch: --data-format csv without --data",
	} {
		r := scm(t, "", append(append([]string{"batch", plan}, strings.Fields(args)...), flags...)...)
		assert.Equal(t, exitUsage, r.code, args)
		assert.Contains(t, r.stderr, want, args)
	}
	r := scm(t, "", append([]string{"batch", plan, "--data", filepath.Join(t.TempDir(), "rows.txt"), "--data-format", "jsonl"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "rows.txt: ")
}

// scm batch --data runs as a process of its own and is killed (SIGKILL,
// no chance to clean up) while an item's rows are being written to its
// part. The next batch writes them again: each item's records are in the
// dataset exactly once, and no run is started twice.
func TestBatchDataKilledWhileRowsAreWritten(t *testing.T) {
	srv, flags := newBatchServer(t, 200*time.Millisecond, fake.WithResultSize(3, 2, 2000))
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultLatency, Latency: 300 * time.Millisecond, Times: 3})
	plan := writeDataPlan(t)
	data := filepath.Join(filepath.Dir(plan), "out", "data.csv")
	parts := data + ".parts"
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"batch", plan, "--parallel", "1", "--data", data}, flags...)...)
	cmd.Env = append(os.Environ(), asSCM+"=1")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	var partial string
	require.Eventually(t, func() bool { partial = writing(parts, "simulation.csv"); return partial != "" }, 20*time.Second, 5*time.Millisecond,
		"the rows of item simulation were never being written")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	assert.FileExists(t, partial, "a SIGKILL leaves the temporary part")
	assert.Nil(t, readState(t, plan)["simulation"].Data, "no part recorded")
	assert.NoFileExists(t, data)

	r := scm(t, "", append([]string{"batch", plan, "--data", data}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "Batch of 2 items (0/2 done, 1 running, 1 pending)")
	assert.NoFileExists(t, partial, "the temporary part is removed")
	assert.Equal(t, 2, srv.Applied("runExperiment"), "no run started twice")
	state := readState(t, plan)
	got := readDatasetCSV(t, data)
	c, err := facade.New(flags[1], facade.WithAPIKey(testKey))
	require.NoError(t, err)
	for _, item := range []string{"simulation", "baseline"} {
		s := state[item]
		want := recordKeys(t, c, s.ExperimentResultID)
		assert.Len(t, got[item], len(want), "item %s: its result's records", item)
		for key, n := range got[item] {
			if n != 1 || !want[key] {
				t.Errorf("item %s: record %s is in the dataset %d times; its result has it: %v", item, key, n, want[key])
			}
		}
		assert.EqualValues(t, len(want), s.Data.Records)
	}
}

// writing returns the temporary file of a part being written, once it has
// rows in it; "" while there is none.
func writing(dir, part string) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+part+".*.partial"))
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && info.Size() > 0 {
			return m
		}
	}
	return ""
}

// readDatasetCSV counts, per item, the records of a CSV dataset by their
// place: page_id, sheet, row and column.
func readDatasetCSV(t *testing.T, path string) map[string]map[string]int {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	require.NoError(t, err)
	require.Equal(t, append(append([]string{}, batch.KeyColumns...), resultdata.LongColumns...), header)
	out := map[string]map[string]int{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		if out[rec[0]] == nil {
			out[rec[0]] = map[string]int{}
		}
		out[rec[0]][strings.Join([]string{rec[4], rec[6], rec[10], rec[12]}, "|")]++
	}
}

// recordKeys reads a result through the facade, as the long layout's
// records' places.
func recordKeys(t *testing.T, c *facade.Client, resultID ids.ExperimentResultID) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for row, err := range resultdata.Result(ctx, c, resultID, nil) {
		require.NoError(t, err)
		for i, v := range row.Values {
			if v.Kind != resultdata.Empty {
				out[fmt.Sprintf("%d|%s|%d|%s", row.Chart.PageID, row.Chart.Sheet, row.Index, row.Chart.Columns[i].Name)] = true
			}
		}
	}
	return out
}
