package batch_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// twoRuns runs the GFA of scenario 101 and the simulation of scenario 103.
const twoRuns = "project: 1\nitems:\n  - {name: gfa, scenario: 101, experiment: GFA}\n  - {name: sim, scenario: 103, experiment: SIMULATION}\n"

// startedState runs a batch of twoRuns until both items' runs are
// started, then kills it: their tokens are recorded, their results not.
func startedState(t *testing.T, e *env) *batch.Plan {
	t.Helper()
	p := e.plan(t, twoRuns)
	running := map[string]bool{}
	ctx, progress, cancel := cancelAt(t, func(ev batch.Event) bool {
		if ev.Step == batch.StepRun && !ev.Since.IsZero() {
			running[ev.Item] = true
		}
		return len(running) == 2
	})
	defer cancel()
	_, err := e.runner(t, e.c, p, batch.Options{Progress: progress}).Run(ctx)
	require.NoError(t, err)
	for _, name := range []string{"gfa", "sim"} {
		require.True(t, running[name], "%s's run did not start", name)
	}
	return p
}

// editState changes the state file's items as JSON.
func editState(t *testing.T, path string, edit func(items map[string]map[string]any)) {
	t.Helper()
	var state map[string]any
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &state))
	items := map[string]map[string]any{}
	for name, it := range state["items"].(map[string]any) {
		items[name] = it.(map[string]any)
	}
	edit(items)
	b, err = json.Marshal(state)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
}

// requests is every request the fake has seen.
func requests(srv *fake.Server) int {
	n := 0
	for _, op := range gen.Operations() {
		n += srv.Calls(string(op.ID))
	}
	return n
}

// A state file whose items' resume tokens were swapped, or whose rcId was
// edited, or whose runOrigin (an earlier release's evidence) is another
// item's, is refused before anything is sent, naming the item and both
// values, and never quoting a token: resumed, each item would wait for,
// and export, the other's run.
func TestSwappedTokensAreRefused(t *testing.T) {
	cases := map[string]struct {
		edit  func(items map[string]map[string]any)
		wants []string
	}{
		"swapped": {func(items map[string]map[string]any) {
			items["gfa"]["runToken"], items["sim"]["runToken"] = items["sim"]["runToken"], items["gfa"]["runToken"]
		}, []string{`item "gfa": its runToken is the run of rcId 10303 (SIMULATION of scenario 103), not the item's: its rcId is 10303, the item's 10101; its scenario is 103, the item's 101; its experiment type is SIMULATION, the item's GFA`,
			`item "sim": its runToken is the run of rcId 10101 (GFA of scenario 101), not the item's: its rcId is 10101, the item's 10303`}},
		"rcId edited": {func(items map[string]map[string]any) { items["sim"]["rcId"] = 10101 },
			[]string{`item "sim": its runToken is the run of rcId 10303`, "its rcId is 10303, the item's 10101"}},
		"runOrigin of another": {func(items map[string]map[string]any) {
			delete(items["gfa"], "runToken")
			items["gfa"]["runOrigin"] = map[string]any{"rcId": 10303, "scenarioId": 103, "type": "SIMULATION", "listed": []int{}, "endedBefore": false, "started": "2025-01-01T00:00:00Z"}
		}, []string{`item "gfa": its runOrigin is the run of rcId 10303`, "its rcId is 10303, the item's 10101"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			p := startedState(t, e)
			var tokens []string
			editState(t, p.StatePath(), func(items map[string]map[string]any) {
				for _, it := range items {
					tokens = append(tokens, it["runToken"].(string))
				}
				tc.edit(items)
			})
			sent := requests(e.srv)
			_, err := batch.NewRunner(e.c, p, &batch.Options{Clock: e.clock})
			require.ErrorIs(t, err, batch.ErrTokenNotTheItems)
			for _, want := range tc.wants {
				assert.Contains(t, err.Error(), want)
			}
			assert.Contains(t, err.Error(), "batch: state file "+p.StatePath())
			for _, tok := range tokens {
				assert.NotContains(t, err.Error(), tok[len("scmrun.3."):len("scmrun.3.")+16], "a token's content quoted")
			}
			assert.Equal(t, sent, requests(e.srv), "nothing sent")
		})
	}
}

// A token made for another server is refused before anything is sent
// (facade.ErrValidation), naming the item and both servers.
func TestForeignTokenIsRefused(t *testing.T) {
	e := newEnv(t)
	p := startedState(t, e)
	elsewhere, clk := faketest.NewInstantServer(t)
	c, err := facade.New(elsewhere.URL, facade.WithAPIKey(elsewhere.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	run, err := c.Experiments.Prepare(ctx, 10101, nil)
	require.NoError(t, err)
	foreign, err := run.ResumeToken()
	require.NoError(t, err)
	editState(t, p.StatePath(), func(items map[string]map[string]any) { items["gfa"]["runToken"] = foreign })

	sent := requests(e.srv)
	_, err = batch.NewRunner(e.c, p, &batch.Options{Clock: e.clock})
	require.ErrorIs(t, err, facade.ErrValidation)
	assert.Contains(t, err.Error(), `item "gfa": its runToken: ResumeRunFromToken: token (`)
	assert.NotContains(t, err.Error(), "facade: ")
	assert.Contains(t, err.Error(), "made for the server "+strings.TrimPrefix(elsewhere.URL, "http://"))
	assert.NotContains(t, err.Error(), foreign[len("scmrun.3."):len("scmrun.3.")+16])
	assert.Equal(t, sent, requests(e.srv), "nothing sent")
}

// Once its wait decided, an item's state holds the run's token with the
// decision (the run's entry): a batch that resumes it, with the item's
// result lost from the state, reads the result from the token and sends
// no status request to decide again.
func TestDecidedTokenIsKept(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, "project: 1\nitems:\n  - {name: gfa, scenario: 101, experiment: GFA}\n")
	sum := e.run(t, p, batch.Options{})
	require.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	result := sum.Items[0].State.ExperimentResultID
	editState(t, p.StatePath(), func(items map[string]map[string]any) {
		items["gfa"]["status"] = "interrupted"
		delete(items["gfa"], "experimentResultId")
		delete(items["gfa"], "runId")
	})
	polls := e.srv.Calls("getExperimentStatus")
	sum = e.run(t, p, batch.Options{})
	require.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.Equal(t, result, sum.Items[0].State.ExperimentResultID)
	assert.Equal(t, polls, e.srv.Calls("getExperimentStatus"), "the end was not decided again")
}

// A start an early version recorded as sent without its evidence is
// unknown, whatever the status shows (a run under way may be another
// process's): nothing is sent, the error says what to check, and a batch
// with RetryFailed starts it anew.
func TestStartWithoutEvidenceIsUnknown(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, "project: 1\nitems:\n  - {name: gfa, scenario: 101, experiment: GFA}\n")
	_, err := e.c.Experiments.Start(deadline(t), 10101, nil) // a run under way, of whoever
	require.NoError(t, err)
	b := `{"version":1,"plan":"plan.yaml","items":{"gfa":{"digest":"` + p.Items[0].Digest() + `","status":"running","scenarioId":101,"rcId":10101,"runSent":true}}}`
	require.NoError(t, os.WriteFile(p.StatePath(), []byte(b), 0o600))
	sum := e.run(t, p, batch.Options{})
	require.Equal(t, batch.Unknown, sum.Items[0].Status, sum.Items[0].Error)
	assert.Contains(t, sum.Items[0].Error, "an early version of the batch sent it")
	assert.Contains(t, sum.Items[0].Error, "scm status 10101")
	assert.Equal(t, 1, e.srv.Calls("runExperiment"), "nothing sent")

	sum = e.run(t, p, batch.Options{RetryFailed: true})
	require.Equal(t, batch.Done, sum.Items[0].Status, sum.Items[0].Error)
	assert.Equal(t, 2, e.srv.Applied("runExperiment"), "started anew, once")
}
