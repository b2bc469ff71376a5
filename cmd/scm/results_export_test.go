package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/resultdata"
)

// scm results export writes the long layout to a file, in each format:
// a CSV header and a record per value, a JSON object per value, a Parquet
// file; it says how many rows of how many charts it wrote, with a line per
// page on standard error.
func TestResultsExportToAFile(t *testing.T) {
	_, flags := finishedRun(t)
	result := resultOf(t, flags, 103).String()
	dir := t.TempDir()
	for _, format := range []string{"csv", "jsonl", "parquet"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(dir, "result."+format)
			r := scm(t, "", append([]string{"results", "export", result, "--format", format, "-o", out}, flags...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stdout, "the rows went to the file")
			assert.Equal(t, "  page 1/3 Overview: 74 rows 100%\n  page 2/3 Costs: 74 rows 100%\n  page 3/3 Service: 74 rows 100%\n"+
				"Wrote "+out+": "+format+", 816 records (a value each) from 222 rows of 6 charts, 0 notes.\n", r.stderr, "it counts what it wrote, on standard error")
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			switch format {
			case "csv":
				records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
				require.NoError(t, err)
				assert.Equal(t, resultdata.LongColumns, records[0])
				assert.Len(t, records, 1+3*(50*4+24*3), "a record per value: 50 rows of 4 columns and 24 of 3 per page")
				assert.Contains(t, string(data), "\r\n", "RFC 4180 line ends")
			case "jsonl":
				lines := 0
				for sc := bufio.NewScanner(bytes.NewReader(data)); sc.Scan(); lines++ {
					var obj map[string]any
					require.NoError(t, json.Unmarshal(sc.Bytes(), &obj))
					require.Len(t, obj, len(resultdata.LongColumns))
				}
				assert.Equal(t, 3*(50*4+24*3), lines)
			case "parquet":
				assert.Equal(t, "PAR1", string(data[:4]))
				assert.Equal(t, "PAR1", string(data[len(data)-4:]))
			}
		})
	}
}

// -o DIR/ writes a file per chart, named after its page and sheet.
func TestResultsExportToADirectory(t *testing.T) {
	_, flags := finishedRun(t)
	result := resultOf(t, flags, 103).String()
	out := filepath.Join(t.TempDir(), "charts") + "/"
	r := scm(t, "", append([]string{"results", "export", result, "--format", "csv", "-o", out, "--quiet"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Wrote "+out+": csv, 6 files, a chart each, of 222 rows in all (a record each), 0 notes.\n", r.stderr,
		"--quiet: no progress, and no notes to give; what was written")
	assert.Empty(t, r.stdout)
	names := dirNames(t, out)
	assert.Equal(t, []string{
		"Costs - Costs line 2.csv", "Costs - Costs table 1.csv", "Overview - Overview line 2.csv",
		"Overview - Overview table 1.csv", "Service - Service line 2.csv", "Service - Service table 1.csv",
	}, names)
	f, err := os.Open(filepath.Join(out, "Costs - Costs line 2.csv"))
	require.NoError(t, err)
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, append(slices.Clone(resultdata.ChartColumns), "Statistics name", "Time", "Value"), records[0])
	assert.Len(t, records, 1+24)
	assert.Equal(t, []string{"Plan", "2024-01-01 00:00:00"}, records[1][9:11])
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// An export that fails leaves no part of a file: a file at -o is left as
// it was, and in a directory the files of the pages read before the
// failure are whole and none of the page it failed on is there.
func TestResultsExportFailureLeavesNoPartialFile(t *testing.T) {
	srv, flags := finishedRun(t)
	result := resultOf(t, flags, 103).String()
	dir := t.TempDir()
	out := filepath.Join(dir, "result.parquet")
	require.NoError(t, os.WriteFile(out, []byte("last week's result"), 0o600))
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultLatency})
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate, Times: 10})
	r := scm(t, "", append([]string{"results", "export", result, "--format", "parquet", "-o", out}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "(Costs)")
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "last week's result", string(b))
	assert.Equal(t, []string{"result.parquet"}, dirNames(t, dir), "no temporary file left")

	srv, flags = finishedRun(t) // a server without the faults left over
	result = resultOf(t, flags, 103).String()
	charts := filepath.Join(dir, "charts") + "/"
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultLatency})
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate, Times: 10})
	r = scm(t, "", append([]string{"results", "export", result, "--format", "csv", "-o", charts}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Equal(t, []string{"Overview - Overview line 2.csv", "Overview - Overview table 1.csv"}, dirNames(t, charts))
	for _, name := range dirNames(t, charts) {
		data, err := os.ReadFile(filepath.Join(charts, name))
		require.NoError(t, err)
		records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		require.NoError(t, err)
		assert.True(t, len(records) == 1+50 || len(records) == 1+24, "%s whole: %d records", name, len(records))
	}
}

// A format scm does not write is a usage error, before any request.
func TestResultsExportUsage(t *testing.T) {
	srv, flags := finishedRun(t)
	r := scm(t, "", append([]string{"results", "export", "5001", "--format", "xlsx", "-o", "x"}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--format xlsx: this command writes csv, jsonl or parquet`)
	r = scm(t, "", append([]string{"results", "export", "five", "--format", "csv", "-o", "x"}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
	assert.True(t, strings.Contains(r.stderr, `scm results export: experimentResultId "five" is not a whole number`), r.stderr)
	assert.Zero(t, srv.Calls("getExperimentDashboardPages"))
}

// The format is taken from -o's extension when --format is not given, else
// it is csv; -o - writes the long layout to standard output, and the
// summary to standard error. A directory not asked for with a trailing
// slash, an extension that names another format than --format and
// Parquet bound for a terminal are refused before anything is sent.
func TestResultsExportFormatAndStandardOutput(t *testing.T) {
	srv, flags := finishedRun(t)
	result := resultOf(t, flags, 103).String()
	out := filepath.Join(t.TempDir(), "result.parquet")
	r := scm(t, "", append([]string{"results", "export", result, "-o", out}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "PAR1", string(data[:4]), "Parquet, from the extension")

	for _, args := range [][]string{{"--format", "csv", "-o", "-"}, {}} {
		r = scm(t, "", append(append([]string{"results", "export", result, "--quiet"}, args...), flags...)...)
		require.Equal(t, 0, r.code, r.stderr)
		records, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
		require.NoError(t, err)
		assert.Len(t, records, 1+816, "the header and a record per value, on standard output")
		assert.Equal(t, "Wrote standard output: csv, 816 records (a value each) from 222 rows of 6 charts, 0 notes.\n", r.stderr)
		assert.NoFileExists(t, "-")
	}

	exports := srv.Calls("exportDashboardPage")
	dir := t.TempDir()
	for o, want := range map[string]string{
		dir:          "-o " + dir + " is a directory: name a file in it for one file, or write -o " + dir + "/ for a file per chart",
		"result.csv": "--format parquet and -o result.csv disagree",
		"-":          "parquet is binary, and standard output is a terminal: give -o FILE.parquet, or redirect standard output",
	} {
		r = scmOnTerminal(t, append([]string{"results", "export", result, "--format", "parquet", "-o", o}, flags...)...)
		assert.Equal(t, exitUsage, r.code, r.stderr)
		assert.Contains(t, r.stderr, want)
	}
	assert.Equal(t, exports, srv.Calls("exportDashboardPage"), "nothing sent")
}
