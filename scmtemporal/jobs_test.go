package scmtemporal_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal"
)

// The tests of Options.MaxJobLength: the longest an import takes from its
// send until its scenario is listed, which lets a settling import that
// nothing shows be sent again.

// On a worker (marks confirmed), the first attempt of ImportScenario dies
// after its mark was confirmed and before its import was sent, the window
// 2 of 1,000 items of an end-to-end run hit. The retry finds the mark and
// looks for the scenario by its name. With MaxJobLength declared, once it
// has passed with no scenario of the name listed, the import is ruled out:
// the next attempt imports once, and the item is done with the scenario of
// its name. Without it, the item stops as unknown after the settle window
// and nothing is imported.
func TestKilledBetweenMarkAndSendOfAnImport(t *testing.T) {
	for _, declared := range []bool{true, false} {
		t.Run(map[bool]string{true: "MaxJobLength declared", false: "no MaxJobLength"}[declared], func(t *testing.T) {
			srv, clock := newFake(t)
			c := &crash{Activity: "scm.ImportScenario", Path: "/open/import/import-excel", LoseHeartbeats: true}
			acts := activities(t, srv, c.transport, clock)
			env := newWorkerEnv(t, acts, c)
			in := importItem(t)
			began := clock.Now()
			if !declared {
				unknownError(t, env, in)
				require.True(t, c.happened(), "the worker never died")
				assert.Zero(t, srv.Calls("importExcel"))
				return
			}
			in.Options.MaxJobLength = 5 * time.Minute
			res := env.result(t, in)
			require.True(t, c.happened(), "the worker never died")
			assert.GreaterOrEqual(t, clock.Now().Sub(began), in.Options.MaxJobLength, "ruled out before MaxJobLength had passed")
			assert.Equal(t, 3, env.attemptsOf("scm.ImportScenario"), "the killed attempt, the one that ruled it out, the one that sent it")
			assert.Equal(t, 1, srv.Calls("importExcel"), "sent once, after the settling")
			assert.Equal(t, []ids.ScenarioID{res.ScenarioID}, named(t, acts, "Variant"), "the item's scenario is the one of its name")
			assert.EqualValues(t, 5002, res.ExperimentResultID)
		})
	}
}

// An import whose answer was lost took effect, and its scenario is listed
// only 3 minutes later (the fake's import takes that long): past the
// settle window, within MaxJobLength. Declared, the import is found by its
// name and never sent again; without it, today's settle window ends first
// and the item stops as unknown, sent once.
func TestLostImportListedLateIsFoundByName(t *testing.T) {
	for _, declared := range []bool{true, false} {
		for _, confirmed := range []bool{true, false} {
			name := map[bool]string{true: "MaxJobLength declared", false: "no MaxJobLength"}[declared] + map[bool]string{true: "/confirmed", false: "/no client"}[confirmed]
			t.Run(name, func(t *testing.T) {
				srv, clock := newFake(t, fake.WithImportDuration(3*time.Minute), fake.WithFault("importExcel", fake.Fault{Kind: fake.FaultDropAfterHandler}))
				acts := activities(t, srv, nil, clock)
				env := newWorkflowEnv(t, acts)
				if confirmed {
					env = newWorkerEnv(t, acts, &crash{})
				}
				in := importItem(t)
				if !declared {
					unknownError(t, env, in)
					assert.Equal(t, 1, srv.Calls("importExcel"), "never sent again")
					return
				}
				in.Options.MaxJobLength = 5 * time.Minute
				res := env.result(t, in)
				assert.Equal(t, 1, srv.Calls("importExcel"), "never sent again")
				assert.Equal(t, 1, env.attemptsOf("scm.ImportScenario"))
				assert.Equal(t, []ids.ScenarioID{res.ScenarioID}, named(t, acts, "Variant"))
			})
		}
	}
}

// The attempt that sends the import again, after an earlier one ruled it
// out, dies once the server has applied it, before its job id is
// heartbeated. Its retry settles anew (the ruling out does not carry over)
// and finds the scenario: one decision, one more send.
func TestImportSentAgainIsSettledAnew(t *testing.T) {
	srv, clock := newFake(t)
	before := &crash{Activity: "scm.ImportScenario", Path: "/open/import/import-excel", LoseHeartbeats: true}
	after := &crash{Activity: "scm.ImportScenario", Path: "/open/import/import-excel", After: true, LoseHeartbeats: true, Attempt: 3}
	acts := activities(t, srv, func(next http.RoundTripper) http.RoundTripper { return after.transport(before.transport(next)) }, clock)
	env := newEnv(t, before.interceptor(), after.interceptor())
	scmtemporal.RegisterOnWorker(env, acts, before.temporalClient())
	in := importItem(t)
	in.Options.MaxJobLength = 5 * time.Minute
	res := env.result(t, in)
	require.True(t, before.happened() && after.happened(), "the workers never died")
	assert.Equal(t, 4, env.attemptsOf("scm.ImportScenario"), "killed before the send, ruled out, killed after the send, settled")
	assert.Equal(t, 1, srv.Calls("importExcel"), "sent once, by the third attempt")
	assert.Equal(t, []ids.ScenarioID{res.ScenarioID}, named(t, acts, "Variant"))
}

// A lost copy (a server that lists copies as "null", whatever their name)
// and a lost import without the workbook's experiments (which lists no
// scenario) take effect without a scenario of the name: MaxJobLength does
// not rule them out. The item stops as unknown after the settle window;
// the job is sent once.
func TestMaxJobLengthNeverSendsAJobItCannotFindAgain(t *testing.T) {
	copyOf := func(*testing.T) scmtemporal.ItemInput { return copyItem() }
	withoutExperiments := func(t *testing.T) scmtemporal.ItemInput {
		in := importItem(t)
		in.ImportExperiments = false
		return in
	}
	for _, tc := range []struct {
		name, op string
		item     func(*testing.T) scmtemporal.ItemInput
	}{{"copy", "copyScenario", copyOf}, {"import without experiments", "importExcel", withoutExperiments}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, clock := newFake(t, fake.WithFault(tc.op, fake.Fault{Kind: fake.FaultDropAfterHandler}))
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			in := tc.item(t)
			in.Options.MaxJobLength = time.Minute
			appErr := unknownError(t, env, in)
			assert.Contains(t, appErr.Error(), "after a settle window of 2m0s")
			assert.Equal(t, 1, srv.Calls(tc.op), "never sent again")
			assert.Equal(t, 1, srv.Applied(tc.op))
		})
	}
}

// An import's bound across its attempts (ScenarioTimeout, when not set)
// makes room for a declared MaxJobLength: the settling that rules the
// import out comes before the import sent again.
func TestScenarioTimeoutMakesRoomForMaxJobLength(t *testing.T) {
	for _, declared := range []time.Duration{0, 13 * time.Hour} {
		t.Run(declared.String(), func(t *testing.T) {
			srv, clock := newFake(t)
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			var mu sync.Mutex
			var bound time.Duration
			env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
				if info.ActivityType.Name == "scm.ImportScenario" {
					mu.Lock()
					defer mu.Unlock()
					bound = info.Deadline.Sub(info.ScheduledTime)
				}
			})
			in := importItem(t)
			in.Options.MaxJobLength = declared
			env.result(t, in)
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, scmtemporal.DefaultScenarioTimeout+declared, bound)
		})
	}
}

// named returns the project's scenarios of the name.
func named(t *testing.T, acts *scmtemporal.Activities, name string) []ids.ScenarioID {
	t.Helper()
	got, err := acts.Client.Scenarios.Named(testCtx(t), 1, name)
	require.NoError(t, err)
	return got
}
