package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// runServer is a fake whose runs take a moment on real time.
func runServer(t *testing.T) []string {
	t.Helper()
	_, flags := newServer(t, fake.WithRunDuration(300*time.Millisecond))
	return flags
}

// scm run --wait ends with the experimentResultId of the finished run: the
// id scm results pages and scm export dashboard take.
func TestRunWaitPrintsTheResultID(t *testing.T) {
	flags := runServer(t)
	r := scm(t, "", append([]string{"run", "10303", "--wait"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "5002\n", r.stdout, "the experimentResultId alone")
	assert.Contains(t, r.stderr, "Started rcId 10303.\n")
	assert.Contains(t, r.stderr, "rcId 10303: FINISHED, experimentResultId 5002\n")

	r = scm(t, "", append([]string{"results", "pages", "5002"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `^PAGE\s+NAME\s+CHARTS\n5004\s+Overview\s+2\n5007\s+Costs\s+2\n5010\s+Service\s+2\n$`, r.stdout,
		"the first page is experimentResultId+2, each followed by its charts' ids")
}

func TestRunWaitJSON(t *testing.T) {
	flags := runServer(t)
	r := scm(t, "", append([]string{"run", "10303", "--wait", "--format", "json"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var out struct {
		RcID           int64           `json:"rcId"`
		State          string          `json:"state"`
		ExecutionState map[string]any  `json:"executionState"`
		ResultID       int64           `json:"experimentResultId"`
		Rest           json.RawMessage `json:"-"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	assert.Equal(t, int64(10303), out.RcID)
	assert.Equal(t, "FINISHED", out.State)
	assert.Equal(t, int64(5002), out.ResultID)
	assert.Equal(t, true, out.ExecutionState["finished"], "the server's execution state, whole")
	assert.Contains(t, out.ExecutionState, "genericState")
}

// A run that fails exits 1; with --format json its final state is printed
// all the same.
func TestRunWaitFailed(t *testing.T) {
	flags := runServer(t)
	r := scm(t, "", append([]string{"run", "10403", "--wait", "--format", "json"}, flags...)...)
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stdout, `"state": "FAILED"`)
	assert.Contains(t, r.stderr, "run 10403 ended in state FAILED")
}

func TestRunSync(t *testing.T) {
	flags := runServer(t)
	r := scm(t, "", append([]string{"run", "10303", "--sync"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "5002\n", r.stdout, "the experimentResultId alone")
	assert.Contains(t, r.stderr, "Running rcId 10303 synchronously")
	assert.Contains(t, r.stderr, "rcId 10303: OK, experimentResultId 5002\n")
	assert.NotContains(t, r.stderr, "no answer for", "the synchronous run says once that it waits")

	r = scm(t, "", append([]string{"run", "10303", "--sync", "--format", "json"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"experimentResultId": 5014`, "the second run's result")
	assert.Contains(t, r.stdout, `"validationStatus": "OK"`)
}

// A synchronous run that could not start prints each distinct validation
// message with its source and count, and exits 1; --format json prints
// every one.
func TestRunSyncValidationErrors(t *testing.T) {
	flags := runServer(t)
	r := scm(t, "", append([]string{"run", "10403", "--sync"}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	_, report, found := strings.Cut(r.stderr, "scm run: ")
	require.True(t, found, r.stderr)
	lines := strings.Split(strings.TrimSpace(report), "\n")
	assert.Equal(t, "runExperimentSynchronously: rcId 10403 did not run (validation HAS_ERRORS), 297 validation errors, 8 distinct (count × message (source)):", lines[0])
	assert.Equal(t, []string{"      1 × Demand must not be negative (Demand, 4)", "      1 × Site R8 has no location (Sites, 8)",
		"     90 × Product is not defined (Demand: DC Berlin)", "     85 × From is not defined (Paths: DC Berlin)", "     85 × To is not defined (Paths: DC Hamburg)",
		"     18 × Site is not defined (DC Berlin)", "     13 × Time Period is not defined (Tariff: [null - null], for product: no product, for type: Compound)",
		"      4 × extension type not found (Sites)"}, lines[1:], "each distinct message with its source and count")

	r = scm(t, "", append([]string{"run", "10403", "--sync", "--format", "json"}, flags...)...)
	assert.Equal(t, exitAPI, r.code, r.stderr)
	var out struct {
		ValidationErrors []gen.ApiValidationError `json:"validationErrors"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	assert.Len(t, out.ValidationErrors, 297, "every validation error, as the server sent them")
}

func TestExperiments(t *testing.T) {
	_, flags := newServer(t)
	r := scm(t, "", append([]string{"experiments", "--project", "1", "--scenario", "103"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 6)
	assert.Regexp(t, `^RCID\s+TYPE\s+NAME\s+STATUS\s+VALIDATION$`, lines[0])
	assert.Regexp(t, `^10303\s+SIMULATION\s+i18n-Experiment_Simulation_text\s+IDLE\s+VALID$`, lines[1])
	assert.Regexp(t, `^10308\s+RISK_ANALYSIS\s`, lines[5])
}
