package batch_test

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/testkit/duckdbtest"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// chartSource is what a chart's sheet in a source workbook holds: its data
// rows and, per column, the cells that are not empty and the sum of the
// numbers among them.
type chartSource struct {
	rows  int
	cells map[string]int
	sums  map[string]float64
}

// sourceCharts reads the page workbooks of an item's result, as the server
// exports them, with excelize and without package resultdata: the header
// is row 5 and the data start at row 6; a column's numbers are summed
// unless it holds times (Time, Date). Keyed item/page/sheet.
func sourceCharts(t *testing.T, e *env, item string, resultID ids.ExperimentResultID, out map[string]*chartSource) {
	t.Helper()
	pages, err := e.c.Dashboards.Pages(deadline(t), resultID)
	require.NoError(t, err)
	for _, page := range pages {
		d, err := e.c.Dashboards.ExportPage(deadline(t), resultID, page.Id)
		require.NoError(t, err)
		data, err := d.ReadAll(nil)
		require.NoError(t, err)
		f, err := excelize.OpenReader(bytes.NewReader(data))
		require.NoError(t, err)
		for _, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			require.NoError(t, err)
			c := &chartSource{cells: map[string]int{}, sums: map[string]float64{}}
			out[item+"/"+page.Name+"/"+sheet] = c
			header := rows[4]
			for _, row := range rows[5:] {
				c.rows++
				for i, v := range row {
					if v == "" {
						continue
					}
					c.cells[header[i]]++
					if n, err := strconv.ParseFloat(v, 64); err == nil && header[i] != "Time" && header[i] != "Date" {
						c.sums[header[i]] += n
					}
				}
			}
		}
		require.NoError(t, f.Close())
	}
}

var datasetTypes = append([]string{"VARCHAR", "BIGINT", "BIGINT"}, "BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR",
	"VARCHAR", "BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "DOUBLE", "TIMESTAMP", "VARCHAR", "BOOLEAN")

// DuckDB reads a batch's dataset back, as Parquet, CSV and JSON Lines: its
// columns (and their types, for Parquet and CSV), per item its data rows,
// records, scenario, run configuration and result, and per item, page,
// chart and column the count of cells and the sum of numbers that the
// source workbooks of the item's result hold, read by excelize.
func TestDuckDBReadsABatchDataset(t *testing.T) {
	db := duckdbtest.New(t)
	query := func(statements ...string) []duckdbtest.Result { return db.Query(deadline(t), t, statements...) }
	e := newEnv(t, fake.WithResultSize(3, 2, 30))
	p := e.plan(t, dataPlan)
	parquet := &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}
	formats := []struct {
		name, from string
		format     *batch.DataFormat
	}{
		{"parquet", "read_parquet('%s')", parquet},
		{"csv", "read_csv('%s', header = true, sample_size = -1)", nil},
		{"jsonl", "read_json('%s', format = 'newline_delimited')", nil},
	}
	want := map[string]*chartSource{}
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(e.dir, "data."+f.name)
			sum := e.run(t, p, batch.Options{Data: &batch.Dataset{Path: path, Format: f.format}})
			require.NoError(t, sum.Data.Err)
			require.Equal(t, 2, sum.Data.Items)
			if len(want) == 0 {
				for _, it := range sum.Items[:2] {
					sourceCharts(t, e, it.Name, it.State.ExperimentResultID, want)
				}
			}
			from := fmt.Sprintf(f.from, path)
			r := query("DESCRIBE SELECT * FROM "+from,
				`SELECT item, page, sheet, "column", count(*), sum(number) FROM `+from+` GROUP BY ALL`,
				`SELECT item, count(DISTINCT (page_id, sheet, "row")), count(*), min(scenario_id), max(scenario_id), min(rc_id), max(rc_id), min(result_id), max(result_id) FROM `+from+` GROUP BY item ORDER BY item`)
			assert.Equal(t, append(append([]string{}, batch.KeyColumns...), resultdata.LongColumns...), r[0].Column(0), "column names")
			types := r[0].Column(1)
			switch f.name {
			case "parquet":
				assert.Equal(t, datasetTypes, types, "column types")
			case "csv": // the fake's results have no booleans: DuckDB takes a column of empty fields for text
				assert.Equal(t, datasetTypes[:len(datasetTypes)-1], types[:len(types)-1], "column types")
			} // JSON has no types of its own: DuckDB guesses them
			assertCharts(t, want, r[1])
			assertItems(t, sum, want, r[2])
		})
	}
}

// assertCharts compares the cells and sums per item, page, chart and
// column with the source's.
func assertCharts(t *testing.T, want map[string]*chartSource, r duckdbtest.Result) {
	t.Helper()
	got := map[string]*chartSource{}
	for _, row := range r.Rows {
		key := fmt.Sprintf("%s/%s/%s", row[0], row[1], row[2])
		if got[key] == nil {
			got[key] = &chartSource{cells: map[string]int{}, sums: map[string]float64{}}
		}
		col := row[3].(string)
		got[key].cells[col] = duckdbtest.Int(t, row[4])
		if row[5] != nil {
			got[key].sums[col] = row[5].(float64)
		}
	}
	require.Len(t, got, len(want), "charts")
	for key, w := range want {
		require.Contains(t, got, key)
		assert.Equal(t, w.cells, got[key].cells, "%s: cells per column", key)
		require.Len(t, got[key].sums, len(w.sums), "%s: columns summed", key)
		for col, s := range w.sums {
			assert.InDelta(t, s, got[key].sums[col], 1e-6*math.Max(1, math.Abs(s)), "%s: sum of %s", key, col)
		}
	}
}

// assertItems compares each item's data rows with the source's, its
// records with its part's, and its keys with the state's.
func assertItems(t *testing.T, sum *batch.Summary, want map[string]*chartSource, r duckdbtest.Result) {
	t.Helper()
	require.Len(t, r.Rows, 2, "the items done")
	byItem := map[any][]any{}
	for _, row := range r.Rows {
		byItem[row[0]] = row
	}
	for _, it := range sum.Items[:2] {
		row := byItem[it.Name]
		rows := 0
		for key, c := range want {
			if strings.HasPrefix(key, it.Name+"/") {
				rows += c.rows
			}
		}
		s := it.State
		assert.Equal(t, []any{it.Name, strconv.Itoa(rows), strconv.FormatInt(s.Data.Records, 10),
			id(s.ScenarioID), id(s.ScenarioID), id(s.RcID), id(s.RcID), id(s.ExperimentResultID), id(s.ExperimentResultID)}, row)
	}
}

func id[I ~int64](v I) string { return strconv.FormatInt(int64(v), 10) }

// column is one column of a result's rows, as text.
