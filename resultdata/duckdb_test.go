package resultdata_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/internal/testkit/duckdbtest"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// sourcePage is a page workbook with the sums an independent reading of
// it (excelize's rows, raw) gives.
type sourcePage struct {
	page resultdata.Page
	data []byte
}

// chartSums is what a chart's source holds: per column, the non-empty
// data cells and the sum of the numbers among them; and its data rows.
type chartSums struct {
	rows  int
	cells map[string]int
	sums  map[string]float64
}

// independentSums reads each sheet of the pages with excelize, without
// package resultdata: the header is row 5, the data start at row 6; a
// column's cells are summed when they are numbers and the column is
// neither a time (Time, Date) nor a boolean (Open).
func independentSums(t *testing.T, pages []sourcePage) map[string]*chartSums {
	t.Helper()
	out := map[string]*chartSums{}
	for _, p := range pages {
		f, err := excelize.OpenReader(bytes.NewReader(p.data))
		require.NoError(t, err)
		for _, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			require.NoError(t, err)
			s := &chartSums{cells: map[string]int{}, sums: map[string]float64{}}
			out[p.page.Name+"/"+sheet] = s
			header := rows[4]
			for _, row := range rows[5:] {
				s.rows++
				for i, v := range row {
					if v == "" {
						continue
					}
					s.cells[header[i]]++
					if n, err := strconv.ParseFloat(v, 64); err == nil && !strings.Contains("Time Date Open", header[i]) {
						s.sums[header[i]] += n
					}
				}
			}
		}
		require.NoError(t, f.Close())
	}
	return out
}

// readBackPages are the workbooks the read-back test writes: three pages
// of the fake (tables of 40 rows, graphs with a Time column of dates), and
// a page with a column of each kind (text, time, number, integer, bool).
func readBackPages(t *testing.T) []sourcePage {
	c := newFake(t, 3, 3, 40)
	result := runResult(t, c)
	var pages []sourcePage
	for i, name := range []string{"Overview", "Costs", "Service"} {
		p := resultdata.Page{ResultID: result, ID: pageNumber(t, c, result, i+1), Name: name}
		pages = append(pages, sourcePage{page: p, data: exportPage(t, c, result, p.ID)})
	}
	day := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	f := excelize.NewFile()
	defer f.Close()
	writeChartSheets(t, f, chartSheet{name: "Sites", meta: []string{"Table", "Sites", "Open sites"}, count: 30,
		header: []any{"Site", "Date", "Cost", "Count", "Open"},
		rows: func(i int) []any {
			return []any{"Site " + itoa(i), day.Add(time.Duration(i) * 90 * time.Minute), 1000.25 + float64(i), i * 3, i%3 == 0}
		}})
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(t, err)
	return append(pages, sourcePage{page: resultdata.Page{ResultID: result, ID: 9, Name: "Kinds"}, data: buf.Bytes()})
}

// writeAll reads the pages and writes their rows with newWriter.
func writeAll(t *testing.T, pages []sourcePage, w io.Writer, rw resultdata.RowWriter) {
	t.Helper()
	for _, p := range pages {
		for row, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(p.data), int64(len(p.data)), p.page, &resultdata.Options{Notes: func(n resultdata.Note) { t.Errorf("note: %s", n) }}) {
			require.NoError(t, err)
			require.NoError(t, rw.Write(row))
		}
	}
	require.NoError(t, rw.Close())
}

var longTypes = []string{"BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "BIGINT",
	"VARCHAR", "VARCHAR", "DOUBLE", "TIMESTAMP", "VARCHAR", "BOOLEAN"}

// DuckDB reads back the long layout, written as Parquet and as CSV: the
// columns with their types, a record per source cell, and per chart and
// column the count of cells and the sum of numbers the source workbooks
// hold, read by excelize.
func TestDuckDBReadsTheLongLayout(t *testing.T) {
	db := duckdbtest.New(t)
	pages := readBackPages(t)
	want := independentSums(t, pages)
	dir := t.TempDir()
	files := map[string]string{
		"parquet": fmt.Sprintf("read_parquet('%s')", filepath.Join(dir, "long.parquet")),
		"csv":     fmt.Sprintf("read_csv('%s', header = true, sample_size = -1)", filepath.Join(dir, "long.csv")),
	}
	write := map[string]func(io.Writer) resultdata.RowWriter{"parquet": parquetfile.NewLong, "csv": resultdata.NewCSV}
	for format, from := range files {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			writeAll(t, pages, &buf, write[format](&buf))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "long."+format), buf.Bytes(), 0o644))
			r := db.Query(testCtx(t), t,
				"DESCRIBE SELECT * FROM "+from,
				`SELECT page, sheet, "column", count(*), sum(number) FROM `+from+` GROUP BY ALL ORDER BY ALL`,
				"SELECT count(DISTINCT (page, sheet, row)), count(*) FILTER (kind = 'time' AND time IS NOT NULL), count(*) FILTER (kind = 'bool' AND bool IS NOT NULL) FROM "+from)
			assert.Equal(t, resultdata.LongColumns, r[0].Column(0), "column names")
			assert.Equal(t, longTypes, r[0].Column(1), "column types")
			got := map[string]*chartSums{}
			for _, row := range r[1].Rows {
				key := row[0].(string) + "/" + row[1].(string)
				if got[key] == nil {
					got[key] = &chartSums{cells: map[string]int{}, sums: map[string]float64{}}
				}
				got[key].cells[row[2].(string)] = duckdbtest.Int(t, row[3])
				if row[4] != nil {
					got[key].sums[row[2].(string)] = row[4].(float64)
				}
			}
			rows := 0
			for key, w := range want {
				require.Contains(t, got, key)
				assert.Equal(t, w.cells, got[key].cells, "%s: cells per column", key)
				assertSums(t, w.sums, got[key].sums, key)
				rows += w.rows
			}
			assert.Len(t, got, len(want), "charts")
			assert.Equal(t, strconv.Itoa(rows), r[2].Rows[0][0], "data rows")
			assert.Equal(t, strconv.Itoa(3*24+30), r[2].Rows[0][1], "times: a graph's 24 points per page and the Kinds page's 30 dates")
			assert.Equal(t, "30", r[2].Rows[0][2], "booleans: the Kinds page's 30")
		})
	}
}

// DuckDB reads back the chart layout, a file per chart, written as Parquet
// and as CSV: the provenance columns and the chart's header as column
// names, each column of the type of its cells, a row per data row, and
// the sum of each column of numbers as the source has it.
func TestDuckDBReadsTheChartLayout(t *testing.T) {
	db := duckdbtest.New(t)
	pages := readBackPages(t)
	want := independentSums(t, pages)
	for _, format := range []string{"parquet", "csv"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			charts := writeCharts(t, pages, dir, format)
			require.Len(t, charts, len(want))
			var statements []string
			type check struct {
				key    string
				first  int      // its first statement
				summed []string // the columns it sums, in order
			}
			var checks []check
			for key, c := range charts {
				from := fmt.Sprintf("read_parquet('%s')", c.path)
				if format == "csv" {
					from = fmt.Sprintf("read_csv('%s', header = true, sample_size = -1)", c.path)
				}
				ck := check{key: key, first: len(statements)}
				statements = append(statements, "DESCRIBE SELECT * FROM "+from, "SELECT count(*) FROM "+from)
				for name := range want[key].sums {
					ck.summed = append(ck.summed, name)
					statements = append(statements, fmt.Sprintf(`SELECT sum("%s") FROM %s`, name, from))
				}
				checks = append(checks, ck)
			}
			r := db.Query(testCtx(t), t, statements...)
			for _, ck := range checks {
				c, w, r := charts[ck.key], want[ck.key], r[ck.first:]
				assert.Equal(t, resultdata.WideColumns(c.chart), r[0].Column(0), "%s: column names", ck.key)
				assertChartTypes(t, c.chart, r[0].Column(1), format, ck.key)
				assert.Equal(t, strconv.Itoa(w.rows), r[1].Rows[0][0], "%s: rows", ck.key)
				got := map[string]float64{}
				for i, name := range ck.summed {
					got[name] = duckdbtest.Number(t, r[2+i].Rows[0][0])
				}
				assertSums(t, w.sums, got, ck.key)
			}
		})
	}
}

// chartFile is a chart's file in the chart layout.
type chartFile struct {
	chart *resultdata.Chart
	path  string
}

// writeCharts writes a file per chart into dir, keyed "page/sheet".
func writeCharts(t *testing.T, pages []sourcePage, dir, format string) map[string]chartFile {
	t.Helper()
	out := map[string]chartFile{}
	var rw resultdata.RowWriter
	var f *os.File
	closeFile := func() {
		if rw != nil {
			require.NoError(t, rw.Close())
			require.NoError(t, f.Close())
		}
	}
	for _, p := range pages {
		for row, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(p.data), int64(len(p.data)), p.page, nil) {
			require.NoError(t, err)
			key := row.Chart.Page + "/" + row.Chart.Sheet
			if _, ok := out[key]; !ok {
				closeFile()
				path := filepath.Join(dir, resultdata.FileName(row.Chart)+"."+format)
				f, err = os.Create(path)
				require.NoError(t, err)
				rw = resultdata.NewChartCSV(f, row.Chart)
				if format == "parquet" {
					rw = parquetfile.NewChart(f, row.Chart, func(n resultdata.Note) { t.Errorf("note: %s", n) })
				}
				out[key] = chartFile{chart: row.Chart, path: path}
			}
			require.NoError(t, rw.Write(row))
		}
	}
	closeFile()
	return out
}

// assertChartTypes checks a chart file's column types: the provenance
// columns', then each chart column's by its kind. CSV has no types:
// DuckDB tells numbers that are all whole as BIGINT.
func assertChartTypes(t *testing.T, c *resultdata.Chart, types []string, format, key string) {
	t.Helper()
	assert.Equal(t, []string{"BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "BIGINT"}, types[:len(resultdata.ChartColumns)], key)
	kindTypes := map[resultdata.Kind][]string{resultdata.Number: {"DOUBLE"}, resultdata.Time: {"TIMESTAMP"},
		resultdata.Text: {"VARCHAR"}, resultdata.Bool: {"BOOLEAN"}}
	if format == "csv" {
		kindTypes[resultdata.Number] = []string{"DOUBLE", "BIGINT"}
	}
	for i, col := range c.Columns {
		assert.Contains(t, kindTypes[col.Kind], types[len(resultdata.ChartColumns)+i], "%s: column %s of %ss", key, col.Name, col.Kind)
	}
}

func assertSums(t *testing.T, want, got map[string]float64, key string) {
	t.Helper()
	require.Len(t, got, len(want), "%s: columns summed", key)
	for name, w := range want {
		assert.InDelta(t, w, got[name], 1e-6*math.Max(1, math.Abs(w)), "%s: sum of %s", key, name)
	}
}
