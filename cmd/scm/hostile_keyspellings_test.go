package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
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

// keySpellings are testKey as a hostile server quotes it: as it is, in
// upper case, base64 in both alphabets, the Basic value of user:key, hex,
// URL-encoded and JSON-escaped.
func keySpellings() map[string]string {
	var pct, esc strings.Builder
	for _, b := range []byte(testKey) {
		fmt.Fprintf(&pct, "%%%02X", b)
		fmt.Fprintf(&esc, `\u%04x`, b)
	}
	return map[string]string{
		"plain":          testKey,
		"upper case":     strings.ToUpper(testKey),
		"base64":         base64.StdEncoding.EncodeToString([]byte(testKey)),
		"base64url":      base64.RawURLEncoding.EncodeToString([]byte(testKey)),
		"Basic user:key": "Basic " + base64.StdEncoding.EncodeToString([]byte("scm:"+testKey)),
		"hex":            hex.EncodeToString([]byte(testKey)),
		"URL-encoded":    pct.String(),
		"JSON-escaped":   esc.String(),
	}
}

// quotedKey is every spelling of the key, each between spaces, as the
// hostile server adds it to what it sends: always in the same order, so
// that a name is the same in every answer that gives it.
func quotedKey() string {
	spellings := keySpellings()
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(spellings)) {
		b.WriteString(" " + spellings[name] + " ")
	}
	return b.String()
}

// quotedFields are the fields of the fake's answers the hostile server
// adds the key to: names, messages and table cells' text, never a state.
var quotedFields = map[string]bool{"name": true, "scenarioName": true, "message": true, "description": true, "value": true}

// keyQuotingServer stands before the fake at fakeURL and quotes the key,
// in every spelling, in its answers: in each name, message and text cell
// of a JSON answer and as the name of a property it adds (a difference
// from the spec); in the header and cells of every page workbook; and in
// the message of an error, for an rcId of 77.
func keyQuotingServer(t *testing.T, fakeURL string) []string {
	t.Helper()
	target, err := url.Parse(fakeURL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.ModifyResponse = quoteKeyInJSON
	page := keyWorkbook(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Query().Get("rcId") == "77":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"message":"no run configuration 77 for`+quotedKey()+`"}`)
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			serveBytes(page)(w, r)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + target.Path, "--api-key", testKey}
}

// quoteKeyInJSON adds the key to a JSON answer's quotedFields' text and
// a property named after it to each object.
func quoteKeyInJSON(resp *http.Response) error {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return nil
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(addMarker(doc, 0)) == nil {
			raw = bytes.ReplaceAll(b.Bytes(), []byte("@@KEY@@"), []byte(quotedKey()))
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	resp.ContentLength = int64(len(raw))
	resp.Header.Set("Content-Length", strconv.Itoa(len(raw)))
	return nil
}

func addMarker(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if s, ok := child.(string); ok && quotedFields[k] {
				x[k] = s + "@@KEY@@"
			} else {
				x[k] = addMarker(child, depth+1)
			}
		}
		if depth <= 1 {
			x["x@@KEY@@"] = 1
		}
	case []any:
		for i, child := range x {
			x[i] = addMarker(child, depth+1)
		}
	}
	return v
}

// keyWorkbook is a page workbook of one table chart whose header and
// cells quote the key.
func keyWorkbook(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for cell, v := range map[string]any{"A1": "Type:", "B1": "TABLE", "A2": "Statistics:", "A3": "Chart name:", "B3": "Overview table 1",
		"A5": "Site" + quotedKey(), "B5": "Amount", "A6": "site" + quotedKey(), "B6": 3} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	var b bytes.Buffer
	_, err := f.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

// keyCase is one command run against the key-quoting server: its
// arguments (RESULT stands for the result's id, CHART for its first
// chart, DIR for a directory of the test), the exit code it should end with, whether its output must
// show the placeholder (what the server quoted reached it), and the text
// files it writes.
type keyCase struct {
	args    []string
	code    int
	control bool
	files   []string
}

// keyCases are the commands that print what the server sends, each in
// its table and JSON forms, in an order that runs what the later ones read
// first.
var keyCases = []keyCase{
	{args: []string{"projects"}, control: true},
	{args: []string{"projects", "--format", "json"}, control: true},
	{args: []string{"scenarios", "1"}, control: true},
	{args: []string{"scenarios", "1", "--format", "json"}, control: true},
	{args: []string{"scenarios", "1", "--format", "csv", "-o", "DIR/scenarios.csv"}, files: []string{"DIR/scenarios.csv"}},
	{args: []string{"experiments", "103", "--project", "1"}, control: true},
	{args: []string{"experiments", "103", "--project", "1", "--format", "jsonl"}, control: true},
	{args: []string{"run", "10303", "--wait"}},
	{args: []string{"run", "10303", "--wait", "--format", "json"}},
	{args: []string{"run", "10303", "--wait", "-o", "DIR/run.txt"}, files: []string{"DIR/run.txt"}},
	{args: []string{"status", "10303"}},
	{args: []string{"status", "77"}, code: exitAPI, control: true},
	{args: []string{"status", "10303", "--format", "json"}},
	{args: []string{"results", "pages", "RESULT", "--charts"}, control: true},
	{args: []string{"results", "pages", "RESULT", "--format", "json"}, control: true},
	{args: []string{"results", "table", "RESULT", "--chart", "CHART", "--max", "3"}, control: true},
	{args: []string{"results", "table", "RESULT", "--chart", "CHART", "--max", "3", "--format", "json"}, control: true},
	{args: []string{"results", "table", "RESULT", "--chart", "CHART", "--max", "3", "--format", "jsonl", "-o", "DIR/table.jsonl"}, files: []string{"DIR/table.jsonl"}},
	{args: []string{"results", "table", "RESULT", "--chart", "CHART", "--max", "3", "--format", "csv"}, control: true},
	{args: []string{"results", "export", "RESULT", "--format", "csv", "-o", "-"}, control: true},
	{args: []string{"results", "export", "RESULT"}, control: true},
	{args: []string{"results", "export", "RESULT", "--format", "jsonl", "-o", "-"}, control: true},
	{args: []string{"results", "export", "RESULT", "-o", "DIR/result.csv"}, files: []string{"DIR/result.csv"}},
	{args: []string{"results", "export", "RESULT", "--format", "jsonl", "-o", "DIR/charts/"}, files: []string{"DIR/charts/"}},
	{args: []string{"export", "page", "RESULT", "--page", "5004", "-o", "DIR/page.xlsx"}},
	{args: []string{"export", "dashboard", "RESULT", "-o", "DIR/dashboard.xlsx"}},
	{args: []string{"import", "excel", "1", "BOOK", "--name", "n", "--wait"}},
	{args: []string{"import", "excel", "1", "BOOK", "--name", "n", "--format", "json"}},
	{args: []string{"call", "getScenarios", "--projectId", "1"}, control: true},
	{args: []string{"call", "getExperimentRunResultChartTableData", "--rcId", "10303", "--chartId", "101", "--take", "2"}, control: true},
	{args: []string{"call", "getExperimentStatus", "--rcId", "77"}, code: exitAPI, control: true},
	{args: []string{"call", "getProjects", "-o", "DIR/projects.json"}, files: []string{"DIR/projects.json"}},
	{args: []string{"batch", "DIR/plan.yaml", "--data", "DIR/data.csv"}, files: []string{"DIR/data.csv"}},
	{args: []string{"batch", "DIR/plan.yaml", "--format", "csv"}},
	{args: []string{"batch", "DIR/plan.yaml", "--format", "json", "-o", "DIR/summary.json"}, files: []string{"DIR/summary.json"}},
	{args: []string{"doctor", "--project", "1"}, control: true},
	{args: []string{"doctor", "--project", "1", "--format", "json", "-o", "DIR/doctor.json"}, files: []string{"DIR/doctor.json"}},
	{args: []string{"demo", "--read-only"}, control: true},
}

// printNoServerData are the commands that print nothing a server sent.
var printNoServerData = map[string]string{
	"scm completion": "a shell's completion script",
	"scm ops":        "the operations of the spec",
	"scm serve-fake": "serves the embedded fake",
	"scm help":       "help",
}

// No spelling of the key a hostile server quotes (as it is, in upper case,
// base64, base64url, the Basic value of user:key, hex, URL-encoded,
// JSON-escaped) reaches standard output or standard error of any command
// that prints what the server sends, in any of its forms, nor the text
// files it writes; the placeholder shows where it was. The commands are
// found by walking scm's commands: one neither run here nor listed as
// printing no server data fails the test.
func TestHostileKeyInEveryOutput(t *testing.T) {
	root := (&app{}).rootCommand()
	root.InitDefaultHelpCmd()
	walkLeaves(t, root, func(path string) {
		for _, c := range keyCases {
			if strings.HasPrefix("scm "+strings.Join(c.args, " "), path+" ") {
				return
			}
		}
		for exempt := range printNoServerData {
			if strings.HasPrefix(path, exempt) {
				return
			}
		}
		t.Errorf("%s prints what the server sends? add it to keyCases, or to printNoServerData with why not", path)
	})
	srv, _ := newBatchServer(t, 200*time.Millisecond)
	flags := keyQuotingServer(t, srv.URL)
	dir := t.TempDir()
	t.Chdir(dir) // scm demo writes its workbook in the working directory
	book, err := writeDemoWorkbook(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plan.yaml"), []byte("project: 1\nitems:\n  - {name: baseline, scenario: 103, experiment: SIMULATION}\n"), 0o644))
	result := ""
	for _, c := range keyCases {
		name := strings.Join(c.args, " ")
		if result == "" && strings.Contains(name, "RESULT") {
			result = resultOf(t, flags, 103).String()
		}
		chart := ""
		if id, err := strconv.Atoi(result); err == nil {
			chart = strconv.Itoa(id + 3) // the first chart of the first page, whose id is the result's + 2
		}
		args := strings.Fields(strings.NewReplacer("RESULT", result, "CHART", chart, "DIR", dir, "BOOK", book).Replace(name))
		r := scm(t, "", append(args, flags...)...)
		require.Equal(t, c.code, r.code, "%s: %s", name, r.stderr)
		texts := map[string]string{"standard output": r.stdout, "standard error": r.stderr}
		for _, f := range c.files {
			for path, text := range textFiles(t, strings.ReplaceAll(f, "DIR", dir)) {
				texts[path] = text
			}
		}
		for where, text := range texts {
			text = where + "\n" + text
			for spelling, spelled := range keySpellings() {
				assert.NotContains(t, strings.ToLower(text), strings.ToLower(spelled), "scm %s: %s shows the key %s", name, where, spelling)
			}
		}
		if c.control {
			assert.Contains(t, r.stdout+r.stderr, "[REDACTED]", "the control: scm %s shows where the server quoted the key", name)
		}
	}
}

// textFiles reads the file at path, or each file of the directory path
// ends in a slash names, by name: the name is checked too.
func textFiles(t *testing.T, path string) map[string]string {
	t.Helper()
	paths := []string{path}
	if strings.HasSuffix(path, "/") {
		paths = nil
		for _, name := range dirNames(t, path) {
			paths = append(paths, filepath.Join(path, name))
		}
		require.NotEmpty(t, paths, "files in %s", path)
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[p] = string(b)
	}
	return out
}

// walkLeaves calls leaf with the path of each command that has no
// subcommands.
func walkLeaves(t *testing.T, c *cobra.Command, leaf func(path string)) {
	t.Helper()
	if !c.HasSubCommands() {
		leaf(c.CommandPath())
	}
	for _, sub := range c.Commands() {
		walkLeaves(t, sub, leaf)
	}
}
