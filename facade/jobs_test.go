package facade

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// stepEnv is a fake whose runs and jobs take a minute on a virtual clock
// that only the test moves, and a client of it: each Poll is one request,
// and what it sees depends only on how far the test moved the clock. Its
// runs under way answer RUNNING (fake.WithRunningMarked), so that each
// state is told apart by its value.
type stepEnv struct {
	srv *fake.Server
	c   *Client
	clk *clock.Virtual
}

func newStepEnv(t *testing.T) *stepEnv {
	clk := clock.NewVirtual(faketest.Epoch)
	srv := faketest.NewServer(t, fake.WithAPIKeys(testKey), fake.WithClock(clk),
		fake.WithRunDuration(time.Minute), fake.WithImportDuration(time.Minute), fake.WithStatusLag(0), fake.WithRunningMarked())
	return &stepEnv{srv: srv, c: newTestClient(t, srv.URL, WithClock(clk)), clk: clk}
}

// must returns a function that gives v and fails the test it is given
// on err: must(run.Poll(ctx))(t).
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}

// startRun starts a run of rcID and returns a fresh Run of it, which has
// seen nothing yet.
func (e *stepEnv) startRun(t *testing.T, rcID ids.RcID) *Run {
	t.Helper()
	must(e.c.Experiments.Start(testCtx(t), rcID, nil))(t)
	return e.c.Run(rcID)
}

// startCopy starts a copy job of scenario 101 and returns it.
func (e *stepEnv) startCopy(t *testing.T) *Job {
	t.Helper()
	return must(e.c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil))(t)
}

// failingImport starts an import job from a database scenario the fake
// does not offer: it ends FAILED.
func (e *stepEnv) failingImport(t *testing.T) *Job {
	t.Helper()
	jobs := must(e.c.Imports.Database(testCtx(t), 1, "From DB", []string{"DB Scenario Z"}, testDB(), nil))(t)
	require.Len(t, jobs, 1)
	return jobs[0]
}

// runningIsDone is a terminal rule under which a run or job under way has
// succeeded.
func runningIsDone(state string) Outcome {
	if state == "RUNNING" || state == "QUEUED" {
		return Succeeded
	}
	return DefaultTerminalRule(state)
}

// runJobCases has a case per exported method of Run and Job.
func runJobCases() map[string]func(t *testing.T) {
	cases := map[string]func(t *testing.T){}
	for name, tc := range runCases() {
		cases["Run."+name] = tc
	}
	for name, tc := range jobCases() {
		cases["Job."+name] = tc
	}
	return cases
}

// TestEveryRunAndJobMethod runs a case per exported method of Run and Job,
// and fails when a method has none.
func TestEveryRunAndJobMethod(t *testing.T) {
	cases := runJobCases()
	for _, typ := range []reflect.Type{reflect.TypeFor[*Run](), reflect.TypeFor[*Job]()} {
		for m := range typ.Methods() {
			name := typ.Elem().Name() + "." + m.Name
			assert.Contains(t, cases, name, "%s has no case", name)
		}
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc(t)
		})
	}
}

func runCases() map[string]func(t *testing.T) {
	return map[string]func(t *testing.T){
		// Redacted quotes a server's text without the key, cut.
		"Redactor.Quote": func(t *testing.T) { assertRedacted(t, newStepEnv(t).c.Redactor().Quote) },
		// Poll sends one status request per call and answers the state at
		// that moment: never ran, under way, finished.
		"Poll": func(t *testing.T) {
			e := newStepEnv(t)
			run := e.c.Run(10101)
			assert.Equal(t, RunState("IDLE"), RunStateValue(must(run.Poll(testCtx(t)))(t)), "never ran")
			must(e.c.Experiments.Start(testCtx(t), 10101, nil))(t)
			assert.Equal(t, RunState("RUNNING"), RunStateValue(must(run.Poll(testCtx(t)))(t)))
			e.clk.Advance(time.Minute)
			assert.Equal(t, RunFinished, RunStateValue(must(run.Poll(testCtx(t)))(t)))
			assert.Equal(t, 4, e.srv.Calls("getExperimentStatus"), "one request per Poll, and one of Start before the start")
		},
		// Done says what the last state seen says, not the server's.
		"Done": func(t *testing.T) {
			e := newStepEnv(t)
			run := e.startRun(t, 10101)
			must(run.Poll(testCtx(t)))(t)
			assert.False(t, run.Done(), "under way")
			e.clk.Advance(time.Minute)
			assert.False(t, run.Done(), "finished on the server, but not seen yet")
			must(run.Poll(testCtx(t)))(t)
			assert.True(t, run.Done())
			failed := e.startRun(t, 10403)
			assert.False(t, failed.Done(), "nothing seen")
			e.clk.Advance(time.Minute)
			must(failed.Poll(testCtx(t)))(t)
			assert.True(t, failed.Done(), "a failed run is done")
		},
		// State is nil before the first poll, then the last state seen.
		"State": func(t *testing.T) {
			e := newStepEnv(t)
			run := e.startRun(t, 10101)
			assert.Nil(t, run.State())
			first := must(run.Poll(testCtx(t)))(t)
			assert.Same(t, first, run.State())
			e.clk.Advance(time.Minute)
			last := must(run.Poll(testCtx(t)))(t)
			assert.Same(t, last, run.State())
			assert.Equal(t, RunFinished, RunStateValue(run.State()))
		},
		// Result is an error until the run is seen to end, then the final
		// state with a *StateError for a run that failed or stopped.
		"Result": func(t *testing.T) {
			e := newStepEnv(t)
			run := e.startRun(t, 10101)
			_, err := run.Result()
			assert.ErrorContains(t, err, "run 10101 is not done", "before a poll")
			must(run.Poll(testCtx(t)))(t)
			_, err = run.Result()
			assert.ErrorContains(t, err, "not done", "under way")
			e.clk.Advance(time.Minute)
			must(run.Poll(testCtx(t)))(t)
			final, err := run.Result()
			require.NoError(t, err)
			assert.Same(t, run.State(), final)

			failed := e.startRun(t, 10403)
			stopped := e.startRun(t, 10102)
			must(e.c.Experiments.Stop(testCtx(t), 10102))(t)
			e.clk.Advance(time.Minute)
			for run, want := range map[*Run]Outcome{failed: Failed, stopped: Stopped} {
				must(run.Poll(testCtx(t)))(t)
				_, err := run.Result()
				var se *StateError
				require.ErrorAs(t, err, &se, "rcId %d", run.RcID())
				assert.ErrorIs(t, err, ErrFailed)
				assert.Equal(t, want, se.Outcome)
				assert.Equal(t, int64(run.RcID()), se.ID)
			}
		},
		// Wait polls until the run ends, on the client's clock.
		"Wait": func(t *testing.T) {
			_, c, clk := newVirtualFake(t, time.Minute)
			start := clk.Now()
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			state := must(run.Wait(testCtx(t), nil))(t)
			assert.Equal(t, RunFinished, RunStateValue(state))
			assert.GreaterOrEqual(t, clk.Now().Sub(start), time.Minute)
			assert.True(t, run.Done())
		},
		// States yields the changes, the last one the final state.
		"States": func(t *testing.T) {
			_, c, _ := newVirtualFake(t, time.Minute)
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			var seen []RunState
			for s, err := range run.States(testCtx(t), nil) {
				require.NoError(t, err)
				seen = append(seen, RunStateValue(s))
			}
			require.GreaterOrEqual(t, len(seen), 2)
			assert.Equal(t, RunState("IDLE"), seen[0], "under way, as a real server shows it")
			assert.Equal(t, RunFinished, seen[len(seen)-1])
			assert.NotContains(t, seen[:len(seen)-1], RunFinished)

			must(run.Wait(testCtx(t), nil))(t)
			again := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			seen = nil
			for s, err := range again.States(testCtx(t), nil) {
				require.NoError(t, err)
				seen = append(seen, RunStateValue(s))
			}
			assert.NotContains(t, seen[:len(seen)-1], RunFinished, "the last run's end, which the status shows right after the start, is not shown")
			assert.Equal(t, RunFinished, seen[len(seen)-1])
		},
		// RcID is the running configuration of the run.
		"RcID": func(t *testing.T) {
			e := newStepEnv(t)
			assert.Equal(t, ids.RcID(10101), e.startRun(t, 10101).RcID())
		},
		// StartAnswer is what runExperiment answered, nil for a Run that
		// did not send it.
		"EvidenceOf.StartAnswer": func(t *testing.T) {
			e := newStepEnv(t)
			run := must(e.c.Experiments.Start(testCtx(t), 10101, nil))(t)
			answer := EvidenceOf(run).StartAnswer
			require.NotNil(t, answer)
			assert.Equal(t, gen.ExperimentTypeGFA, answer.ExperimentTypeId)
			assert.Nil(t, EvidenceOf(e.c.Run(10101)).StartAnswer)
		},
		// ResumeToken carries the start's evidence to another process; a
		// Run from its rcId alone has none.
		"ResumeToken": func(t *testing.T) {
			e := newStepEnv(t)
			run := must(e.c.Experiments.Start(testCtx(t), 10101, nil))(t)
			token := must(run.ResumeToken())(t)
			assert.True(t, strings.HasPrefix(token, "scmrun.3."), token)
			resumed := must(e.c.ResumeRunFromToken(token))(t)
			assert.Equal(t, token, must(resumed.ResumeToken())(t), "a resumed run keeps its evidence")
			_, err := e.c.Run(10101).ResumeToken()
			assert.ErrorIs(t, err, ErrValidation)
		},
		// Weak is "" for evidence of this release, and says what an
		// earlier release's lacks.
		"EvidenceOf.Weak": func(t *testing.T) {
			e := newStepEnv(t)
			run := must(e.c.Experiments.Start(testCtx(t), 10101, nil))(t)
			assert.Empty(t, EvidenceOf(run).Weak)
			old := must(e.c.ResumeRunFromToken(`{"rcId":10101,"scenarioId":101,"type":"GFA","listed":[],"endedBefore":true,"started":"2024-01-02T03:04:05Z"}`))(t)
			assert.Contains(t, EvidenceOf(old).Weak, "earlier release")
		},
		// Entry is this start's run once listed: not before it has ended,
		// and never an earlier run's.
		"EvidenceOf.Entry": func(t *testing.T) {
			_, c, _ := newVirtualFake(t, time.Minute)
			must(c.RunAndWait(testCtx(t), 10101, nil))(t)
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			assert.Nil(t, EvidenceOf(run).Entry, "the earlier run is listed, this one is not yet")
			must(run.Wait(testCtx(t), nil))(t)
			entry := EvidenceOf(run).Entry
			require.NotNil(t, entry)
			assert.Equal(t, "Statistics 2", entry.Name)
			entry.Name = "changed"
			assert.Equal(t, "Statistics 2", EvidenceOf(run).Entry.Name, "a copy")
			other := c.Run(10101)
			must(other.Wait(testCtx(t), nil))(t)
			assert.Nil(t, EvidenceOf(other).Entry, "a Run from its rcId alone cannot tell its entry")
		},
		// EndEvidence says what showed the end to be this run's.
		"EvidenceOf.End": func(t *testing.T) {
			_, c, _ := newVirtualFake(t, time.Minute)
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			assert.Empty(t, EvidenceOf(run).End, "not ended")
			must(run.Wait(testCtx(t), nil))(t)
			assert.Equal(t, EndNotEndedBefore, EvidenceOf(run).End, "the first run of the configuration")
			again := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			must(again.Wait(testCtx(t), nil))(t)
			assert.Equal(t, EndSeenUnderWay, EvidenceOf(again).End, "finished false replaced the last run's end")
		},
		// Began tells whether a start took effect: yes once the run shows,
		// no only once the declared longest run and the stale window passed
		// with nothing new.
		"Experiments.Began": func(t *testing.T) {
			_, c, clk := newVirtualFake(t, time.Minute)
			must(c.RunAndWait(testCtx(t), 10101, nil))(t)
			prepared := must(c.Experiments.Prepare(testCtx(t), 10101, nil))(t)
			from := clk.Now()
			assert.False(t, must(c.Experiments.Began(testCtx(t), prepared, &WaitOptions{MaxRunLength: 2 * time.Minute}))(t), "never sent")
			assert.Equal(t, from.Add(2*time.Minute+DefaultStaleWindow), clk.Now(), "it waited out the longest run and the stale window")
			run := must(c.Experiments.Prepare(testCtx(t), 10101, nil))(t)
			require.NoError(t, c.Experiments.StartPrepared(testCtx(t), run, nil))
			assert.True(t, must(c.Experiments.Began(testCtx(t), run, nil))(t))
			_, err := c.Experiments.Began(testCtx(t), c.Run(10101), nil)
			assert.ErrorIs(t, err, ErrValidation)
		},
		// ResultID is the experimentResultId of the run this start made:
		// the rcId of its entry among the scenario's runs.
		"ResultID": func(t *testing.T) {
			_, c, _ := newVirtualFake(t, time.Minute)
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			must(run.Wait(testCtx(t), nil))(t)
			id := must(run.ResultID())(t)
			latest := must(c.Experiments.LatestRun(testCtx(t), 10101))(t)
			assert.Equal(t, latest.RcId, id)
			assert.Equal(t, ids.ExperimentResultID(latest.Id+1), id, "the run's id is its result's id minus one")
		},
		// Polls counts this Run's successful status requests only.
		"EvidenceOf.Polls": func(t *testing.T) {
			e := newStepEnv(t)
			run := e.startRun(t, 10101)
			assert.Zero(t, EvidenceOf(run).Polls)
			must(run.Poll(testCtx(t)))(t)
			must(run.Poll(testCtx(t)))(t)
			assert.Equal(t, 2, EvidenceOf(run).Polls)
			e.srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: 404, Times: 1})
			_, err := run.Poll(testCtx(t))
			require.Error(t, err)
			assert.Equal(t, 2, EvidenceOf(run).Polls, "a failed poll")
			assert.Zero(t, EvidenceOf(e.c.Run(10101)).Polls, "another Run of the same rcId counts its own")
		},
		// WithTerminalRule replaces the rule of the client's runs; nil keeps
		// the default.
		"WithTerminalRule": func(t *testing.T) {
			e := newStepEnv(t)
			e.startRun(t, 10101)
			run := newTestClient(t, e.srv.URL, WithClock(e.clk), WithTerminalRule(runningIsDone)).Run(10101)
			must(run.Poll(testCtx(t)))(t)
			assert.True(t, run.Done(), "RUNNING ends it under the rule")
			_, err := run.Result()
			assert.NoError(t, err)
			other := newTestClient(t, e.srv.URL, WithClock(e.clk), WithTerminalRule(nil)).Run(10101)
			must(other.Poll(testCtx(t)))(t)
			assert.False(t, other.Done(), "nil keeps the default rule")
		},
	}
}

func jobCases() map[string]func(t *testing.T) {
	return map[string]func(t *testing.T){
		// Poll sends one status request per call: under way, then DONE with
		// the new scenario.
		"Poll": func(t *testing.T) {
			e := newStepEnv(t)
			job := e.startCopy(t)
			s := must(job.Poll(testCtx(t)))(t)
			assert.Contains(t, []gen.ImportJobStatus{gen.ImportJobStatusQUEUED, gen.ImportJobStatusRUNNING}, s.Status)
			e.clk.Advance(time.Minute)
			s = must(job.Poll(testCtx(t)))(t)
			assert.Equal(t, gen.ImportJobStatusDONE, s.Status)
			assert.NotZero(t, deref(s.ScenarioId))
			assert.Equal(t, 2, e.srv.Calls("getImportStatus"), "one request per Poll")
		},
		// Done says what the last status seen says.
		"Done": func(t *testing.T) {
			e := newStepEnv(t)
			job := e.startCopy(t)
			must(job.Poll(testCtx(t)))(t)
			assert.False(t, job.Done(), "under way")
			e.clk.Advance(time.Minute)
			resumed := e.c.Job(job.JobID)
			assert.False(t, resumed.Done(), "DONE on the server, but not seen yet")
			must(resumed.Poll(testCtx(t)))(t)
			assert.True(t, resumed.Done())
			assert.False(t, job.Done(), "each Job has its own view")
		},
		// State is nil before the first poll, then the last status seen.
		"State": func(t *testing.T) {
			e := newStepEnv(t)
			job := e.startCopy(t)
			assert.Nil(t, job.State())
			s := must(job.Poll(testCtx(t)))(t)
			assert.Same(t, s, job.State())
		},
		// Result is an error until the job is seen to end, then the final
		// status with a *StateError for a job that failed or was cancelled.
		"Result": func(t *testing.T) {
			e := newStepEnv(t)
			job := e.startCopy(t)
			_, err := job.Result()
			assert.ErrorContains(t, err, "is not done", "before a poll")
			must(job.Poll(testCtx(t)))(t)
			_, err = job.Result()
			assert.ErrorContains(t, err, "is not done", "under way")
			failed := e.failingImport(t)
			cancelled := e.startCopy(t)
			require.NoError(t, e.c.Imports.Cancel(testCtx(t), cancelled.JobID))
			e.clk.Advance(time.Minute)
			must(job.Poll(testCtx(t)))(t)
			final, err := job.Result()
			require.NoError(t, err)
			assert.Equal(t, gen.ImportJobStatusDONE, final.Status)
			for job, want := range map[*Job]Outcome{failed: Failed, cancelled: Cancelled} {
				must(job.Poll(testCtx(t)))(t)
				_, err := job.Result()
				var se *StateError
				require.ErrorAs(t, err, &se, "job %d", job.JobID)
				assert.ErrorIs(t, err, ErrFailed)
				assert.Equal(t, want, se.Outcome)
				assert.Equal(t, int64(job.JobID), se.ID)
			}
		},
		// Wait polls until the job ends, on the client's clock.
		"Wait": func(t *testing.T) {
			_, c, clk := newVirtualFake(t, time.Minute)
			start := clk.Now()
			job := must(c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil))(t)
			s := must(job.Wait(testCtx(t), nil))(t)
			assert.Equal(t, gen.ImportJobStatusDONE, s.Status)
			assert.NotZero(t, deref(s.ScenarioId))
			assert.GreaterOrEqual(t, clk.Now().Sub(start), time.Minute)
		},
		// States yields the changes, the last one the final status.
		"States": func(t *testing.T) {
			_, c, _ := newVirtualFake(t, time.Minute)
			job := must(c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil))(t)
			var seen []gen.ImportJobStatus
			for s, err := range job.States(testCtx(t), nil) {
				require.NoError(t, err)
				seen = append(seen, s.Status)
			}
			require.GreaterOrEqual(t, len(seen), 2)
			assert.NotEqual(t, gen.ImportJobStatusDONE, seen[0])
			assert.Equal(t, gen.ImportJobStatusDONE, seen[len(seen)-1])
		},
		// WithTerminalRule replaces the rule of the client's jobs; nil
		// keeps the default.
		"WithTerminalRule": func(t *testing.T) {
			e := newStepEnv(t)
			id := e.startCopy(t).JobID
			job := newTestClient(t, e.srv.URL, WithClock(e.clk), WithTerminalRule(runningIsDone)).Job(id)
			must(job.Poll(testCtx(t)))(t)
			assert.True(t, job.Done(), "under way ends it under the rule")
			other := newTestClient(t, e.srv.URL, WithClock(e.clk), WithTerminalRule(nil)).Job(id)
			must(other.Poll(testCtx(t)))(t)
			assert.False(t, other.Done(), "nil keeps the default rule")
		},
	}
}

// preparedRun is a Run ready for StartPrepared without the reads of
// Prepare: a start of rcID in scenarioID after a finished run, nothing
// listed.
func preparedRun(c *Client, rcID ids.RcID, scenarioID ids.ScenarioID) *Run {
	return c.runFrom(&origin{RcID: rcID, ScenarioID: scenarioID, Type: gen.ExperimentTypeSIMULATION,
		Before: priorStatus{Ended: true, Outcome: Succeeded, KindKnown: true}, Started: c.now()}, "")
}
