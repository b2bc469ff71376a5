package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// busyServer starts a fake on an instant clock (every wait advances it at
// once: a run of 40 s ends in no real time) and puts scm's runs, batches
// and displays on that clock, with the facade's default stale window:
// these tests are about the lag of a server's status.
func busyServer(t *testing.T, opts ...fake.Option) (*fake.Server, faketest.InstantClock, []string) {
	t.Helper()
	srv, clk := faketest.NewInstantServer(t, append([]fake.Option{fake.WithAPIKeys(testKey)}, opts...)...)
	was, wasStale := runClock, followStaleWindow
	runClock, followStaleWindow = clk, 0
	t.Cleanup(func() { runClock, followStaleWindow = was, wasStale })
	return srv, clk, []string{"--base-url", srv.URL, "--api-key", testKey}
}

// clientOf is a client of the fake on its clock: another process, or the
// test's own reads.
func clientOf(t *testing.T, srv *fake.Server, clk faketest.InstantClock) *facade.Client {
	t.Helper()
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey), facade.WithClock(clk))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// allRequests is every request the fake has seen: its log, by operation.
func allRequests(srv *fake.Server) int {
	n := 0
	for _, op := range gen.Operations() {
		n += srv.Calls(string(op.ID))
	}
	return n
}

// The moments another process starts the configuration, against scm's
// start.
const (
	otherLongBefore = "long before"    // half a run before scm
	otherZeroBefore = "0 s before"     // at the same instant, hidden by the status's lag
	otherWithinLag  = "within the lag" // half the status lag before scm
	busyLag         = 5 * time.Second
	busyRun         = 40 * time.Second
)

// otherStart starts rcID from another process at when, and returns its
// result's id once it is known.
func otherStart(t *testing.T, srv *fake.Server, clk faketest.InstantClock, rcID ids.RcID, when string) ids.ExperimentResultID {
	t.Helper()
	other := clientOf(t, srv, clk)
	_, err := other.RunAndWait(t.Context(), rcID, nil) // an end shows before
	require.NoError(t, err)
	_, err = other.Experiments.Start(t.Context(), rcID, nil)
	require.NoError(t, err)
	_, result, _ := srv.LastRun(rcID)
	switch when {
	case otherLongBefore:
		clk.Advance(busyRun / 2)
	case otherWithinLag:
		clk.Advance(busyLag / 2)
	}
	return result
}

// scm run --wait, while another process's run of the configuration is
// under way, on servers that refuse, queue or run beside a second start:
// a run it sees (Prepare, or the server's refusal) is reported as a run
// under way that the command did not start (exit 1, nothing waited on or
// stopped); one it cannot see ends with this start's result or as
// ambiguous, never with the other's. runExperiment is sent once at most.
func TestRunWaitNeverTakesAnotherProcessesRun(t *testing.T) {
	for _, mode := range []fake.SecondStart{fake.SecondStartRefused, fake.SecondStartQueued, fake.SecondStartBeside} {
		for _, when := range []string{otherLongBefore, otherZeroBefore, otherWithinLag} {
			t.Run(fmt.Sprintf("%s/%s", mode, when), func(t *testing.T) {
				srv, clk, flags := busyServer(t, fake.WithSecondStart(mode), fake.WithStatusLag(busyLag), fake.WithRunDuration(busyRun))
				theirs := otherStart(t, srv, clk, 10303, when)
				sent := srv.Calls("runExperiment")
				r := scm(t, "", append([]string{"run", "10303", "--wait"}, flags...)...)
				assert.LessOrEqual(t, srv.Calls("runExperiment")-sent, 1, "runExperiment sent once at most")
				assert.Zero(t, srv.Applied("stopExperiment"), "nothing stopped")
				assert.NotContains(t, r.stdout, theirs.String(), "the other process's result")
				switch {
				case when == otherLongBefore || mode == fake.SecondStartRefused:
					require.Equal(t, exitAPI, r.code, r.stderr)
					assert.Contains(t, r.stderr, "scm run: rcId 10303 has a run under way that this command did not start; wait for it (scm status 10303) and run again")
					assert.Empty(t, r.stdout)
				default:
					require.Equal(t, exitAPI, r.code, r.stderr)
					assert.Contains(t, r.stderr, ambiguousText)
					assert.Empty(t, r.stdout, "no result taken")
				}
				assert.NotContains(t, r.stderr, "may have been applied")
			})
		}
	}
}

// scm batch, while another process's run of an item's configuration is
// under way, on servers that refuse, queue or run beside a second start:
// the item waits for a run it sees, saying so, then runs its own; it never
// takes, exports or stops the other's, and sends runExperiment once per
// start.
func TestBatchNeverTakesAnotherProcessesRun(t *testing.T) {
	for _, mode := range []fake.SecondStart{fake.SecondStartRefused, fake.SecondStartQueued, fake.SecondStartBeside} {
		for _, when := range []string{otherLongBefore, otherZeroBefore, otherWithinLag} {
			t.Run(fmt.Sprintf("%s/%s", mode, when), func(t *testing.T) {
				srv, clk, flags := busyServer(t, fake.WithSecondStart(mode), fake.WithStatusLag(busyLag), fake.WithRunDuration(busyRun), fake.WithResultSize(1, 1, 5))
				theirs := otherStart(t, srv, clk, 10303, when)
				sent := srv.Calls("runExperiment")
				plan := filepath.Join(t.TempDir(), "plan.yaml")
				require.NoError(t, os.WriteFile(plan, []byte("project: 1\noutput: out\nitems:\n  - {name: sim, scenario: 103, experiment: SIMULATION, export: {dashboard: sim.xlsx}}\n"), 0o644))
				r := scm(t, "", append([]string{"batch", plan, "--parallel", "1"}, flags...)...)
				assert.LessOrEqual(t, srv.Calls("runExperiment")-sent, 2, "a start refused once, then one that took effect, at most")
				assert.Equal(t, 1, srv.Applied("runExperiment")-2, "one start of the batch took effect, besides the earlier run and the other's")
				assert.Zero(t, srv.Applied("stopExperiment"), "nothing stopped")
				item := readState(t, plan)["sim"]
				assert.NotEqual(t, theirs, item.ExperimentResultID, "the other process's result")
				if when == otherLongBefore || mode == fake.SecondStartRefused {
					require.Equal(t, exitOK, r.code, r.stderr)
					_, ours, _ := srv.LastRun(10303)
					assert.Equal(t, ours, item.ExperimentResultID, "the item's own run, the last one")
					if when == otherLongBefore {
						assert.Contains(t, r.stderr, "sim: queue waiting for a run of rcId 10303 that this batch did not start")
					}
					return
				}
				require.Equal(t, exitAPI, r.code, r.stderr)
				assert.Equal(t, "unknown", string(item.Status), item.Error)
				assert.Contains(t, item.Error, ambiguousText)
				assert.NoFileExists(t, filepath.Join(filepath.Dir(plan), "out", "sim.xlsx"), "nothing exported")
			})
		}
	}
}

// The answer to scm run's start is lost, the status lags 30 s behind a
// start (or stays at the old end until the run ends), and runs take 40 s:
// runExperiment is sent once, and a run that took effect is never reported
// as taking none. Without --stale-window the start is unknown, saying what
// to check; with a stale window above the lag, the result is this run's.
func TestRunWaitLostAnswerOnASlowServer(t *testing.T) {
	frozen := 1000 * time.Hour
	for _, lag := range []time.Duration{30 * time.Second, frozen} {
		for _, window := range []time.Duration{0, min(lag, busyRun) + time.Second} {
			t.Run(fmt.Sprintf("lag %v/stale window %v", lag, window), func(t *testing.T) {
				srv, clk, flags := busyServer(t, fake.WithStatusLag(lag), fake.WithRunDuration(busyRun))
				_, err := clientOf(t, srv, clk).RunAndWait(t.Context(), 10303, &facade.WaitOptions{StaleWindow: window})
				require.NoError(t, err)
				srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})
				args := []string{"run", "10303", "--wait"}
				if window > 0 {
					args = append(args, "--stale-window", window.String())
				}
				r := scm(t, "", append(args, flags...)...)
				assert.Equal(t, 2, srv.Calls("runExperiment"), "sent once, after the earlier run")
				assert.NotContains(t, r.stderr, "did not take effect")
				if window == 0 {
					require.Equal(t, exitAPI, r.code, r.stderr)
					assert.Contains(t, r.stderr, "whether the start took effect cannot be told")
					assert.Contains(t, r.stderr, "check on the server")
					assert.Contains(t, r.stderr, "nothing was sent again")
					return
				}
				require.Equal(t, exitOK, r.code, r.stderr)
				_, ours, _ := srv.LastRun(10303)
				assert.Equal(t, ours.String()+"\n", r.stdout)
			})
		}
	}
}

// The answers to scm batch's starts are lost for two items whose
// configurations ran before, the status lags 30 s (or stays at the old
// end), runs take 40 s: each start is sent once; without --stale-window
// the items are unknown, saying what to check, with nothing sent again by
// a resumed batch; with one above the lag they are done with their own
// results.
func TestBatchLostAnswersOnASlowServer(t *testing.T) {
	frozen := 1000 * time.Hour
	for _, lag := range []time.Duration{30 * time.Second, frozen} {
		for _, window := range []time.Duration{0, min(lag, busyRun) + time.Second} {
			t.Run(fmt.Sprintf("lag %v/stale window %v", lag, window), func(t *testing.T) {
				srv, clk, flags := busyServer(t, fake.WithStatusLag(lag), fake.WithRunDuration(busyRun), fake.WithResultSize(1, 1, 5))
				for _, rc := range []ids.RcID{10101, 10303} {
					_, err := clientOf(t, srv, clk).RunAndWait(t.Context(), rc, &facade.WaitOptions{StaleWindow: min(lag, busyRun) + time.Second})
					require.NoError(t, err)
				}
				srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 2})
				plan := filepath.Join(t.TempDir(), "plan.yaml")
				require.NoError(t, os.WriteFile(plan, []byte(twoItemsPlan), 0o644))
				args := []string{"batch", plan, "--parallel", "1"}
				if window > 0 {
					args = append(args, "--stale-window", window.String())
				}
				r := scm(t, "", append(args, flags...)...)
				assert.Equal(t, 4, srv.Calls("runExperiment"), "each start sent once, after the earlier runs")
				assert.NotContains(t, r.stdout+r.stderr, "took no effect")
				state := readState(t, plan)
				if window > 0 {
					require.Equal(t, exitOK, r.code, r.stderr)
					for item, rc := range map[string]ids.RcID{"gfa": 10101, "sim": 10303} {
						_, ours, _ := srv.LastRun(rc)
						assert.Equal(t, ours, state[item].ExperimentResultID, item)
					}
					return
				}
				require.Equal(t, exitAPI, r.code, r.stderr)
				for _, item := range []string{"gfa", "sim"} {
					assert.Equal(t, "unknown", string(state[item].Status), state[item].Error)
					assert.Contains(t, state[item].Error, "check on the server")
				}
				r = scm(t, "", append(args, flags...)...)
				assert.Equal(t, 4, srv.Calls("runExperiment"), "a resumed batch looks again, and sends nothing")
			})
		}
	}
}

// twoItemsPlan runs the GFA of scenario 101 and the simulation of 103.
const twoItemsPlan = "project: 1\nitems:\n  - {name: gfa, scenario: 101, experiment: GFA}\n  - {name: sim, scenario: 103, experiment: SIMULATION}\n"

// A state file whose items' run tokens were swapped, or one of which was
// made for another server, is refused by scm batch with exit 2 before
// anything is sent (the fake's request log does not move), naming the
// item and both values, and never quoting a token.
func TestBatchRefusesTokensNotTheirItems(t *testing.T) {
	srv, _, flags := busyServer(t, fake.WithStatusLag(0))
	plan := filepath.Join(t.TempDir(), "plan.yaml")
	require.NoError(t, os.WriteFile(plan, []byte(twoItemsPlan), 0o644))
	r := scm(t, "", append([]string{"batch", plan, "--parallel", "1", "--stale-window", "1s"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	statePath := filepath.Join(filepath.Dir(plan), "plan.state.json")
	done, err := os.ReadFile(statePath)
	require.NoError(t, err)

	elsewhere, elsewhereClock := faketest.NewInstantServer(t, fake.WithAPIKeys(testKey))
	run, err := clientOf(t, elsewhere, elsewhereClock).Experiments.Prepare(t.Context(), 10101, nil)
	require.NoError(t, err)
	foreign, err := run.ResumeToken()
	require.NoError(t, err)
	cases := map[string]struct {
		edit  func(items map[string]map[string]any)
		wants []string
	}{
		"swapped": {func(items map[string]map[string]any) {
			items["gfa"]["runToken"], items["sim"]["runToken"] = items["sim"]["runToken"], items["gfa"]["runToken"]
		}, []string{`item "gfa": its runToken is the run of rcId 10303 (SIMULATION of scenario 103), not the item's: its rcId is 10303, the item's 10101`, `item "sim": its runToken is the run of rcId 10101`}},
		"foreign": {func(items map[string]map[string]any) { items["gfa"]["runToken"] = foreign },
			[]string{`item "gfa": its runToken: ResumeRunFromToken: token (`, "made for the server " + strings.TrimPrefix(elsewhere.URL, "http://")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var state map[string]any
			require.NoError(t, json.Unmarshal(done, &state))
			items := map[string]map[string]any{}
			var tokens []string
			for name, it := range state["items"].(map[string]any) {
				items[name] = it.(map[string]any)
				items[name]["status"] = "running" // killed before the results were read
				tokens = append(tokens, items[name]["runToken"].(string))
			}
			tc.edit(items)
			b, err := json.Marshal(state)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(statePath, b, 0o600))

			before := allRequests(srv)
			r := scm(t, "", append([]string{"batch", plan}, flags...)...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			for _, want := range tc.wants {
				assert.Contains(t, r.stderr, want)
			}
			for _, tok := range append(tokens, foreign) {
				assert.NotContains(t, r.stderr, tok[len("scmrun.3."):len("scmrun.3.")+16], "a token's content quoted")
			}
			assert.Equal(t, before, allRequests(srv), "nothing sent")
		})
	}
}

// scm status says whether a run is under way by the rule the SDK's waits
// follow: unknown for a configuration that never ran (a first run under
// way shows alike), idle with the last end once one showed, running while
// a later run is under way (finished false after an end, told with the
// configuration's project, which scm finds), FAILED with the server's text.
func TestStatusSaysWhetherARunIsUnderWay(t *testing.T) {
	srv, clk, flags := busyServer(t, fake.WithStatusLag(0), fake.WithRunDuration(busyRun))
	c := clientOf(t, srv, clk)
	status := func(rcID ids.RcID) string {
		t.Helper()
		r := scm(t, "", append([]string{"status", strconv.FormatInt(int64(rcID), 10)}, flags...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		return r.stdout
	}
	assert.Equal(t, "rcId 10303: unknown: never run, or its first run under way (a server shows both alike)\n", status(10303))
	_, err := c.Experiments.Start(t.Context(), 10303, nil)
	require.NoError(t, err)
	assert.Equal(t, "rcId 10303: unknown: never run, or its first run under way (a server shows both alike)\n", status(10303), "a first run under way")
	clk.Advance(busyRun)
	assert.Equal(t, "rcId 10303: idle (last run FINISHED)\n", status(10303))
	_, err = c.Experiments.Start(t.Context(), 10303, nil)
	require.NoError(t, err)
	assert.Equal(t, "rcId 10303: running\n", status(10303), "a run under way after an end")
	_, err = c.RunAndWait(t.Context(), 10403, nil)
	require.Error(t, err)
	assert.Equal(t, "rcId 10403: idle (last run FAILED: The scenario has validation errors)\n", status(10403))
}

// scm run --sync says once that it waits, and no notice repeats it while
// the server holds the call open (it printed "no answer for 10s" every
// 10 s: some 720 lines for a run of 2 h).
func TestRunSyncSaysOnceThatItWaits(t *testing.T) {
	notices := useVirtualClock(t)
	clk := fake.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, flags := newServer(t, fake.WithClock(clk), fake.WithRunDuration(2*time.Hour))
	ctx, cancel := context.WithTimeout(t.Context(), scmDeadline)
	defer cancel()
	var stderr faketest.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, append([]string{"run", "10303", "--sync"}, flags...), strings.NewReader(""), &strings.Builder{}, &stderr)
	}()
	require.Eventually(t, func() bool { return srv.Calls("runExperimentSynchronously") == 1 }, 10*time.Second, time.Millisecond, "the synchronous run to reach the server")
	assert.Never(t, func() bool { return notices.Waiters() > 0 }, 300*time.Millisecond, time.Millisecond, "a notice waits to speak for the held-open call")
	clk.Advance(2 * time.Hour)
	assert.Equal(t, exitOK, <-done, stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "Running rcId 10303 synchronously: the call answers when the run is done.\n"))
	assert.NotContains(t, stderr.String(), "no answer for")
}

// ambiguousText is the text of a facade.StartUnknownError whose run
// cannot be told from another's (Ambiguous).
const ambiguousText = "which run is this start's cannot be told"
