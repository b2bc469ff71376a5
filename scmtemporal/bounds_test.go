package scmtemporal_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/scmtemporal"
)

// otherTeam is another team's activities on the same task queue, one of
// them named StartRun by its method, as the module's once were.
type otherTeam struct{ calls int }

func (o *otherTeam) StartRun(context.Context, string) (string, error) {
	o.calls++
	return "the other team's", nil
}

func otherWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	err := workflow.ExecuteActivity(ctx, "StartRun", "x").Get(ctx, &out)
	return out, err
}

// The module's activities are registered under names of their own
// (scm.StartRun, ...): on one worker with another team's activities, one
// of them StartRun, both register, and each workflow runs its own.
func TestActivityNamesDoNotCollide(t *testing.T) {
	for _, which := range []string{"ours", "theirs"} {
		t.Run(which, func(t *testing.T) {
			srv, clock := newFake(t)
			env := newWorkflowEnv(t, activities(t, srv, nil, clock))
			other := &otherTeam{}
			require.NotPanics(t, func() {
				env.RegisterActivity(other)
				env.RegisterWorkflow(otherWorkflow)
			}, "the other team's StartRun registers beside ours")
			if which == "ours" {
				res := env.result(t, item())
				assert.EqualValues(t, 5002, res.ExperimentResultID)
				assert.Zero(t, other.calls, "their StartRun was never called")
				assert.Equal(t, 1, env.attemptsOf("scm.StartRun"))
				return
			}
			env.ExecuteWorkflow(otherWorkflow)
			require.NoError(t, env.GetWorkflowError())
			var out string
			require.NoError(t, env.GetWorkflowResult(&out))
			assert.Equal(t, "the other team's", out)
			assert.Equal(t, 1, other.calls)
			assert.Zero(t, srv.Calls("runExperiment"), "ours was never called")
		})
	}
}

// An error a retry cannot mend ends the item at its first attempt,
// non-retryable: a 4xx (here 400 to the status read of PrepareRun), a
// refusal (a user without a license: runExperiment answers 500 "Access is
// denied"). One that may pass (a 500 of no known message, every time) is
// retried until its step's bound (Options.RunTimeout here) has passed:
// the item fails then, with the last attempt's error, after a bounded
// number of attempts, where it used to retry for ever.
func TestPermanentErrorsStopAndTransientOnesAreBounded(t *testing.T) {
	t.Run("a 4xx", func(t *testing.T) {
		srv, clock := newFake(t, fake.WithFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: 400, Times: 100}))
		env := newWorkflowEnv(t, activities(t, srv, nil, clock))
		appErr := itemError(t, env, item())
		assert.Equal(t, scmtemporal.ErrTypeRefused, appErr.Type())
		assert.Equal(t, 1, env.attemptsOf("scm.PrepareRun"))
	})
	t.Run("access is denied", func(t *testing.T) {
		srv, clock := newUnlicensedFake(t)
		env := newWorkflowEnv(t, activities(t, srv, nil, clock))
		appErr := itemError(t, env, item())
		assert.Equal(t, scmtemporal.ErrTypeRefused, appErr.Type())
		assert.Contains(t, appErr.Error(), "Access is denied")
		assert.Equal(t, 1, env.attemptsOf("scm.StartRun"))
		assert.Equal(t, 1, srv.Calls("runExperiment"))
	})
	t.Run("a 500 every time", func(t *testing.T) {
		srv, clock := newFake(t)
		env := newWorkflowEnv(t, activities(t, srv, nil, clock))
		var once sync.Once
		env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, err error) {
			if info.ActivityType.Name == "scm.StartRun" {
				once.Do(func() {
					srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: 500, Times: 1000})
				})
			}
		})
		in := item()
		in.Options.RunTimeout = 10 * time.Minute
		began := env.Now()
		env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
		require.True(t, env.IsWorkflowCompleted())
		err := env.GetWorkflowError()
		var actErr *temporal.ActivityError
		require.True(t, errors.As(err, &actErr), "%v", err)
		assert.Contains(t, err.Error(), "getExperimentStatus: injected fault: 500")
		n := env.attemptsOf("scm.WaitRun")
		assert.Greater(t, n, 3, "retried")
		assert.Less(t, n, 60, "within the bound: 10 minutes, 15 s apart at most")
		assert.LessOrEqual(t, env.Now().Sub(began), in.Options.RunTimeout+time.Minute, "ended within RunTimeout")
	})
}

// newUnlicensedFake is newFake whose user has no license: runs answer 500
// "Access is denied", as a real server does.
func newUnlicensedFake(t *testing.T) (*fake.Server, instantClock) {
	t.Helper()
	clock := instantClock{fake.NewVirtualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))}
	srv := fake.NewServer(fake.WithClock(clock))
	t.Cleanup(srv.Close)
	return srv, clock
}

// itemError runs the workflow and returns the non-retryable application
// error it failed with.
func itemError(t *testing.T, env *workflowEnv, in scmtemporal.ItemInput) *temporal.ApplicationError {
	t.Helper()
	env.ExecuteWorkflow(scmtemporal.WorkflowName, in)
	require.True(t, env.IsWorkflowCompleted())
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(env.GetWorkflowError(), &appErr), "%v", env.GetWorkflowError())
	assert.True(t, appErr.NonRetryable())
	return appErr
}
