// Package duckdbtest runs SQL in DuckDB, the independent reader of the
// CSV, JSON Lines and Parquet files the SDK writes, for the tests that read
// those files back. DuckDB comes from its Node.js client (npm's
// @duckdb/node-api), which make test-duckdb installs and names in
// SCM_DUCKDB; duckdb.cjs beside this file runs the statements.
package duckdbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// DB runs statements in DuckDB.
type DB struct{ module, script string }

// New returns the DuckDB that SCM_DUCKDB names. Without it the test is
// skipped, unless SCM_REQUIRE_DUCKDB says it must run, and then it fails.
func New(t testing.TB) DB {
	t.Helper()
	module := os.Getenv("SCM_DUCKDB")
	if module == "" {
		if os.Getenv("SCM_REQUIRE_DUCKDB") != "" {
			t.Fatal("SCM_DUCKDB names no @duckdb/node-api package; make test-duckdb installs one")
		}
		t.Skip("SCM_DUCKDB is not set: make test-duckdb installs DuckDB's Node.js client and runs this test")
	}
	_, file, _, _ := runtime.Caller(0)
	return DB{module: module, script: filepath.Join(filepath.Dir(file), "duckdb.cjs")}
}

// Result is one statement's result, its values as DuckDB's JSON form
// gives them (BIGINT and HUGEINT as strings).
type Result struct {
	Columns []string `json:"columns"`
	Types   []string `json:"types"`
	Rows    [][]any  `json:"rows"`
}

// Query runs the statements in one DuckDB session, within ctx, and
// returns a result per statement; a failure fails the test with DuckDB's
// message and the statements.
func (d DB) Query(ctx context.Context, t testing.TB, statements ...string) []Result {
	t.Helper()
	in, err := json.Marshal(statements)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "node", d.script)
	cmd.Env = append(os.Environ(), "SCM_DUCKDB="+d.module)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v: %s\n%s", err, stderr.String(), strings.Join(statements, ";\n"))
	}
	var results []Result
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("duckdb's answer: %v", err)
	}
	return results
}

// Column is column i of every row, as text.
func (r Result) Column(i int) []string {
	out := make([]string, len(r.Rows))
	for j, row := range r.Rows {
		out[j] = fmt.Sprint(row[i])
	}
	return out
}

// Int reads a count: a number, or its text.
func Int(t testing.TB, v any) int {
	t.Helper()
	n, err := strconv.Atoi(fmt.Sprint(v))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Number reads a sum: a number, or a string for a HUGEINT sum of BIGINTs.
func Number(t testing.TB, v any) float64 {
	t.Helper()
	if f, ok := v.(float64); ok {
		return f
	}
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
