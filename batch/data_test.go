package batch_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/resultdata"
)

// dataPlan runs three experiments of existing scenarios; the third fails.
const dataPlan = `project: 1
items:
  - {name: baseline, scenario: 101, experiment: GFA}
  - {name: simulation, scenario: 103, experiment: SIMULATION}
  - {name: broken, scenario: 104, experiment: SIMULATION}
`

// records are a dataset's records of one item, each written as text:
// page_id, sheet, row, column, kind and its value, counted.
type records map[string]int

// readCSVDataset reads a CSV dataset: its header, and each item's records
// with its keys (item, scenario_id, rc_id, result_id) as found.
func readCSVDataset(t *testing.T, path string) ([]string, map[string]records, map[string][3]string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	require.NoError(t, err)
	items, keys := map[string]records{}, map[string][3]string{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return header, items, keys
		}
		require.NoError(t, err)
		item := rec[0]
		if items[item] == nil {
			items[item], keys[item] = records{}, [3]string{rec[1], rec[2], rec[3]}
		}
		assert.Equal(t, keys[item], [3]string{rec[1], rec[2], rec[3]}, "item %s: one scenario_id, rc_id and result_id", item)
		items[item][strings.Join([]string{rec[4], rec[6], rec[10], rec[12], rec[13], strings.Join(rec[14:], "|")}, "|")]++
	}
}

// sourceRecords reads a result again, through a client of its own, as the
// long layout's records: what an item's records must be, each once.
func sourceRecords(t *testing.T, c *facade.Client, resultID ids.ExperimentResultID) records {
	t.Helper()
	out := records{}
	for row, err := range resultdata.Result(deadline(t), c, resultID, nil) {
		require.NoError(t, err)
		for i, v := range row.Values {
			if v.Kind == resultdata.Empty {
				continue
			}
			vals := []string{"", "", "", ""}
			vals[int(v.Kind)-int(resultdata.Number)] = v.String()
			key := []string{fmt.Sprint(row.Chart.PageID), row.Chart.Sheet, fmt.Sprint(row.Index), row.Chart.Columns[i].Name, v.Kind.String()}
			out[strings.Join(append(key, vals...), "|")]++
		}
	}
	return out
}

// assertEachOnce checks that the dataset holds the records of every item
// done, each exactly once, keyed by the item's ids, and no other item's.
func assertEachOnce(t *testing.T, e *env, path string, sum *batch.Summary) {
	t.Helper()
	header, items, keys := readCSVDataset(t, path)
	assert.Equal(t, append(append([]string{}, batch.KeyColumns...), resultdata.LongColumns...), header)
	var total int64
	for _, it := range sum.Items {
		if it.Status != batch.Done {
			assert.NotContains(t, items, it.Name, "an item not done has no rows in the dataset")
			continue
		}
		want := sourceRecords(t, e.c, it.State.ExperimentResultID)
		require.NotEmpty(t, want)
		assert.Equal(t, want, items[it.Name], "item %s: each record of its result once", it.Name)
		assert.Equal(t, [3]string{fmt.Sprint(it.State.ScenarioID), fmt.Sprint(it.State.RcID), fmt.Sprint(it.State.ExperimentResultID)}, keys[it.Name])
		require.NotNil(t, it.State.Data, it.Name)
		assert.EqualValues(t, len(want), it.State.Data.Records, "item %s: the records its part recorded", it.Name)
		total += it.State.Data.Records
	}
	require.NotNil(t, sum.Data)
	assert.NoError(t, sum.Data.Err)
	assert.Equal(t, total, sum.Data.Records)
}

func TestBatchWritesADataset(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(3, 2, 20))
	p := e.plan(t, dataPlan)
	path := filepath.Join(e.dir, "out", "data.csv")
	var events []batch.Event
	sum := e.run(t, p, batch.Options{Data: &batch.Dataset{Path: path}, Progress: func(ev batch.Event) { events = append(events, ev) }})

	assert.Equal(t, map[string]batch.Status{"baseline": batch.Done, "simulation": batch.Done, "broken": batch.Failed}, statuses(sum))
	assertEachOnce(t, e, path, sum)
	assert.Equal(t, 2, sum.Data.Items)
	assert.True(t, sum.Data.Written)
	assert.False(t, sum.OK(), "an item failed")
	part := sum.Items[0].State.Data
	assert.Equal(t, filepath.Join(path+".parts", "baseline.csv"), part.File)
	assert.Equal(t, "csv", part.Format)
	assert.Positive(t, part.Rows)

	var pages []string
	for _, ev := range events {
		if ev.Item == "baseline" && ev.Step == batch.StepData {
			pages = append(pages, ev.State)
		}
	}
	assert.Contains(t, pages, "page 1/3")
	assert.Contains(t, pages, "page 3/3")
	assert.Contains(t, pages, fmt.Sprintf("%d rows, %d records written", part.Rows, part.Records))
}

// A batch that adds no part leaves the dataset as it is; one whose part
// is gone writes the item's rows again, and the dataset, without running
// anything again.
func TestDatasetIsWrittenWhenItsPartsChange(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(2, 1, 10))
	p := e.plan(t, dataPlan)
	data := &batch.Dataset{Path: filepath.Join(e.dir, "data.jsonl")}
	e.run(t, p, batch.Options{Data: data})
	before, err := os.Stat(data.Path)
	require.NoError(t, err)
	pages := e.srv.Calls("exportDashboardPage")

	sum := e.run(t, p, batch.Options{Data: data})
	assert.False(t, sum.Data.Written)
	after, err := os.Stat(data.Path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the dataset was left alone")
	assert.Equal(t, pages, e.srv.Calls("exportDashboardPage"))

	require.NoError(t, os.Remove(sum.Items[1].State.Data.File))
	sum = e.run(t, p, batch.Options{Data: data})
	assert.Equal(t, pages+2, e.srv.Calls("exportDashboardPage"), "the two pages of the item whose part was gone")
	assert.Equal(t, 3, e.srv.Applied("runExperiment"), "nothing ran again")
	assert.False(t, sum.Data.Written, "the part written again has the content the dataset holds")

	require.NoError(t, os.WriteFile(data.Path, []byte("{}\n"), 0o644))
	sum = e.run(t, p, batch.Options{Data: data})
	assert.True(t, sum.Data.Written, "a dataset changed since is written again")
	assert.Equal(t, 2, sum.Data.Items)
	b, err := os.ReadFile(data.Path)
	require.NoError(t, err)
	assert.EqualValues(t, sum.Data.Records, strings.Count(string(b), "\n"))
}

// Items done by a batch that wrote no dataset get their rows written by
// the next batch that does, and nothing else: their runs are not started
// again, and their end stays.
func TestDatasetOfItemsDoneBefore(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(2, 1, 10))
	p := e.plan(t, dataPlan)
	first := e.run(t, p, batch.Options{})
	path := filepath.Join(e.dir, "data.csv")
	sum := e.run(t, p, batch.Options{Data: &batch.Dataset{Path: path}})
	assert.Equal(t, 3, e.srv.Applied("runExperiment"))
	assertEachOnce(t, e, path, sum)
	assert.Equal(t, first.Items[0].State.Ended, sum.Items[0].State.Ended, "the item's end is kept")
	assert.Equal(t, batch.Failed, sum.Items[2].Status, "a failed item is not retried for its rows")
}

// Options.Data is checked when the runner is made.
func TestDatasetOptions(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, dataPlan)
	for path, want := range map[string]string{"": "Options.Data.Path is empty", "data.xlsx": `the extension ".xlsx" names no format built in`} {
		_, err := batch.NewRunner(e.c, p, &batch.Options{Data: &batch.Dataset{Path: path}})
		assert.ErrorContains(t, err, want)
	}
	_, err := batch.NewRunner(e.c, p, &batch.Options{Data: &batch.Dataset{Path: "data.parquet", Format: &batch.DataFormat{Name: "parquet"}}})
	assert.ErrorContains(t, err, "needs a Name, an Ext, a NewWriter and a Concat")
	assert.Equal(t, batch.JSONL, batch.FormatOf("a/b.NDJSON"))

	p = e.plan(t, "project: 1\nitems:\n  - {name: Base, scenario: 101, experiment: GFA}\n  - {name: base, scenario: 103, experiment: GFA}\n")
	_, err = batch.NewRunner(e.c, p, &batch.Options{Data: &batch.Dataset{Path: "data.csv"}})
	assert.ErrorContains(t, err, `plan.yaml:4: item "base" and item "Base" at line 3 differ only in case`)
}

// pageKiller kills a batch at the n-th exportDashboardPage, after the
// server answered it, as a SIGKILL would (see killer): the rows of the
// pages before are being written to the item's part.
type pageKiller struct {
	next   http.RoundTripper
	n      int32
	calls  atomic.Int32
	cancel context.CancelFunc
	dead   atomic.Bool
}

func (k *pageKiller) RoundTrip(req *http.Request) (*http.Response, error) {
	if k.dead.Load() {
		return nil, errors.New("the batch is dead")
	}
	op, _ := facade.OperationFromContext(req.Context())
	if op != "exportDashboardPage" || k.calls.Add(1) != k.n {
		return k.next.RoundTrip(req)
	}
	k.dead.Store(true)
	k.cancel()
	runtime.Goexit()
	return nil, nil
}

// A batch killed while an item's rows are being written, with the
// temporary file a SIGKILL leaves, resumes: the item's rows are written
// again, whole, and every item's records are in the dataset exactly once.
func TestDataKilledWhileRowsAreWritten(t *testing.T) {
	for _, at := range []int32{2, 3, 4, 6} { // the first item's pages 2 and 3, the second's 1 and 3
		t.Run(fmt.Sprint("page call ", at), func(t *testing.T) {
			e := newEnv(t, fake.WithResultSize(3, 2, 20))
			p := e.plan(t, dataPlan)
			path := filepath.Join(e.dir, "data.csv")
			ctx, cancel := context.WithCancel(deadline(t))
			defer cancel()
			k := &pageKiller{n: at, cancel: cancel}
			c := e.client(t, func(next http.RoundTripper) http.RoundTripper { k.next = next; return k })
			_, err := e.runner(t, c, p, batch.Options{Parallel: 1, Data: &batch.Dataset{Path: path}}).Run(ctx)
			require.NoError(t, err)
			require.True(t, k.dead.Load(), "the batch was not killed")
			killed := "baseline"
			if at > 3 {
				killed = "simulation"
			}
			leftover := filepath.Join(path+".parts", "."+killed+".csv.4711.partial")
			require.NoError(t, os.WriteFile(leftover, []byte("item,scenario_id\r\n"+killed+",1"), 0o644))

			sum := e.run(t, p, batch.Options{Parallel: 2, Data: &batch.Dataset{Path: path}})
			assert.Equal(t, batch.Done, statuses(sum)[killed])
			assertEachOnce(t, e, path, sum)
			assert.NoFileExists(t, leftover)
			assert.Equal(t, 3, e.srv.Applied("runExperiment"), "no run started again")
		})
	}
}
