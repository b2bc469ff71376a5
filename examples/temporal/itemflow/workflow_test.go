package itemflow_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/examples/temporal/itemflow"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// workflowEnv is a test workflow environment (in process, no server) with
// the activities registered and a count of the attempts of each activity.
// It fails after 10 s without progress, and the activities' contexts end
// with the test's deadline (testCtx).
type workflowEnv struct {
	*testsuite.TestWorkflowEnvironment
	mu       sync.Mutex
	attempts map[string]int
}

func newWorkflowEnv(t *testing.T, acts *itemflow.Activities) *workflowEnv {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := &workflowEnv{TestWorkflowEnvironment: suite.NewTestWorkflowEnvironment(), attempts: map[string]int{}}
	env.SetTestTimeout(10 * time.Second)
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: testCtx(t)})
	env.RegisterWorkflow(itemflow.ItemWorkflow)
	env.RegisterActivity(acts)
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		env.count(info.ActivityType.Name)
	})
	return env
}

// count counts an attempt of the activity.
func (e *workflowEnv) count(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.attempts[name]++
}

func (e *workflowEnv) attemptsOf(name string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.attempts[name]
}

func importItem(t *testing.T) itemflow.ItemInput {
	return itemflow.ItemInput{Name: "variant", ProjectID: 1, Workbook: writeWorkbook(t), ScenarioName: "Variant", ImportExperiments: true,
		Experiment: "SIMULATION", Dashboard: filepath.Join(t.TempDir(), "out", "variant.xlsx")}
}

func TestItemWorkflow(t *testing.T) {
	srv, clock := newFake(t)
	env := newWorkflowEnv(t, activities(t, srv, nil, clock))
	in := importItem(t)
	env.ExecuteWorkflow(itemflow.ItemWorkflow, in)
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res itemflow.ItemResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.Equal(t, itemflow.ItemResult{Name: "variant", ScenarioID: 1001, RcID: 100103, RunID: 5001, ExperimentResultID: 5002,
		Outputs: []string{in.Dashboard}}, res)

	book, err := excelize.OpenFile(in.Dashboard)
	require.NoError(t, err)
	defer book.Close()
	assert.Equal(t, []string{"Overview", "Costs", "Service"}, book.GetSheetList())
	assert.Equal(t, 1, srv.Applied("importExcel"))
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// The worker dies (a panic in its transport) at the first status poll
// after it started the run. The test environment retries RunExperiment as
// the server would, with the heartbeat details of the dead attempt, so the
// retry waits for that run: one run, one import, two attempts.
//
// What this proves: a retry resumes from the heartbeat instead of running
// again. The test environment flushes an attempt's last heartbeat when the
// attempt fails, which a dead process cannot do; the case where the last
// heartbeats are lost is TestWorkerCrashRightAfterStart.
func TestWorkerCrashDuringRun(t *testing.T) {
	srv, clock := newFake(t)
	crash := func(next http.RoundTripper) http.RoundTripper {
		return &crashOnce{next: next, activity: "RunExperiment", after: "/open/experiments/run", path: "/open/experiments/status"}
	}
	env := newWorkflowEnv(t, activities(t, srv, crash, clock))
	env.ExecuteWorkflow(itemflow.ItemWorkflow, importItem(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res itemflow.ItemResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.EqualValues(t, 5001, res.RunID)
	assert.EqualValues(t, 5002, res.ExperimentResultID)

	assert.Equal(t, 2, env.attemptsOf("RunExperiment"), "the dead attempt and its retry")
	assert.Equal(t, 1, srv.Applied("runExperiment"), "no second run")
	assert.Equal(t, 1, srv.Applied("importExcel"))
}

// The worker dies right after the server answered runExperiment, before
// the attempt heartbeated anything: the retry has no details, only the
// origin from the workflow's history. Being a retry, it settles whether a
// start took effect before it starts (facade.Run.Began): the run is under
// way, so it waits for it. One run, two attempts, one start sent.
func TestWorkerCrashRightAfterStart(t *testing.T) {
	srv, clock := newFake(t)
	crash := func(next http.RoundTripper) http.RoundTripper {
		return &crashOnAnswer{next: next, activity: "RunExperiment", path: "/open/experiments/run"}
	}
	env := newWorkflowEnv(t, activities(t, srv, crash, clock))
	var details []bool
	env.SetOnActivityStartedListener(func(info *activity.Info, ctx context.Context, _ converter.EncodedValues) {
		env.count(info.ActivityType.Name)
		if info.ActivityType.Name == "RunExperiment" {
			env.mu.Lock()
			defer env.mu.Unlock()
			details = append(details, activity.HasHeartbeatDetails(ctx))
		}
	})
	env.ExecuteWorkflow(itemflow.ItemWorkflow, importItem(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res itemflow.ItemResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.EqualValues(t, 5001, res.RunID)
	assert.EqualValues(t, 5002, res.ExperimentResultID)

	env.mu.Lock()
	assert.Equal(t, []bool{false, false}, details, "the retry has no heartbeat details")
	env.mu.Unlock()
	assert.Equal(t, 1, srv.Calls("runExperiment"), "the retry sends no start")
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// The worker dies while it polls the import job; the retry polls the job
// whose id the dead attempt heartbeated, and imports nothing.
func TestWorkerCrashDuringImport(t *testing.T) {
	srv, clock := newFake(t)
	crash := func(next http.RoundTripper) http.RoundTripper {
		return &crashOnce{next: next, activity: "ImportScenario", after: "/open/import/import-excel", path: "/open/import/import-status"}
	}
	env := newWorkflowEnv(t, activities(t, srv, crash, clock))
	env.ExecuteWorkflow(itemflow.ItemWorkflow, importItem(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res itemflow.ItemResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.EqualValues(t, 1001, res.ScenarioID)
	assert.Equal(t, 2, env.attemptsOf("ImportScenario"))
	assert.Equal(t, 1, srv.Applied("importExcel"), "no second import")
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}

// The workflow is cancelled while its run is under way: it stops the run
// (StopExperiment on a disconnected context) before it ends cancelled. The
// run lasts an hour of real time, so only the stop ends it. The experiment
// never ran, so the run shows itself under way only where the server marks
// it (RUNNING): a real server's IDLE would leave whether the start took
// effect unknown, and the run would be left alone.
func TestCancelledWorkflowStopsTheRun(t *testing.T) {
	srv := fake.NewServer(fake.WithLicense(), fake.WithRunDuration(time.Hour), fake.WithRunningMarked())
	t.Cleanup(srv.Close)
	poll := &facade.PollPolicy{MinInterval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond}
	acts := activities(t, srv, nil, nil)
	acts.Poll = poll
	env := newWorkflowEnv(t, acts)
	var once sync.Once
	env.SetOnActivityHeartbeatListener(func(info *activity.Info, details converter.EncodedValues) {
		var hb itemflow.RunProgress
		if info.ActivityType.Name == "RunExperiment" && details.Get(&hb) == nil && hb.Started {
			once.Do(env.CancelWorkflow)
		}
	})
	env.ExecuteWorkflow(itemflow.ItemWorkflow, itemflow.ItemInput{Name: "simulation", ProjectID: 1, ScenarioID: 103,
		Experiment: "SIMULATION", HeartbeatTimeout: time.Second})
	require.True(t, env.IsWorkflowCompleted())
	assert.True(t, temporal.IsCanceledError(env.GetWorkflowError()), "%v", env.GetWorkflowError())

	assert.Equal(t, 1, env.attemptsOf("StopExperiment"))
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
	st, err := acts.Client.Experiments.Status(testCtx(t), 10303)
	require.NoError(t, err)
	assert.Equal(t, facade.RunStopped, facade.RunStateValue(st))
	assert.Equal(t, 1, srv.Applied("runExperiment"))
}
