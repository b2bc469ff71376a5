package scmtemporal

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// WorkflowName is the name [ItemWorkflow] is registered and started under.
const WorkflowName = "scm.ItemWorkflow"

// NewWorker returns a worker of the task queue on c with [ItemWorkflow]
// and the activities registered ([Register]); run it with its Run or
// Start. The activities confirm their marks through c, the client the
// worker runs on.
func NewWorker(c client.Client, taskQueue string, acts *Activities, opts worker.Options) (worker.Worker, error) {
	if c == nil {
		return nil, errors.New("scmtemporal: NewWorker: the Temporal client is nil")
	}
	if taskQueue == "" {
		taskQueue = DefaultTaskQueue
	}
	w := worker.New(c, taskQueue, opts)
	if err := register(w, acts, true); err != nil {
		return nil, err
	}
	return w, nil
}

// Register registers [ItemWorkflow] and the activities of acts (a copy of
// it) with a worker, or any worker.Registry such as Temporal's test
// environment, under names that begin with "scm." (scm.ItemWorkflow,
// scm.StartRun, ...), so that another worker's StartRun on the task queue
// is never taken for this one. On a worker, an attempt that is to send a
// state-changing call has the Temporal service confirm its mark first,
// through the client the worker runs on; elsewhere (the test environment,
// which records heartbeats in process) every retry asks the server what
// the attempt before it did. It panics on a nil acts or acts.Client, as
// the SDK's registration panics on what it cannot register.
func Register(r worker.Registry, acts *Activities) {
	if err := register(r, acts, onWorker(r)); err != nil {
		panic(err)
	}
}

// onWorker reports whether the registry is a worker, whose activities have
// the client it runs on (activity.GetClient) to confirm marks.
func onWorker(r worker.Registry) bool {
	_, ok := r.(worker.Worker)
	return ok
}

func register(r worker.Registry, acts *Activities, confirm bool) error {
	if acts == nil || acts.Client == nil {
		return fmt.Errorf("scmtemporal: Register: %s", map[bool]string{true: "the activities are nil", false: "Activities.Client is nil"}[acts == nil])
	}
	a := *acts
	a.confirm = confirm
	if a.confirmer == nil {
		a.confirmer = workerClient
	}
	r.RegisterWorkflowWithOptions(ItemWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	for name, fn := range a.byName() {
		r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
	return nil
}

// byName are the activities by the names they are registered under.
func (a *Activities) byName() map[string]any {
	return map[string]any{
		wire.ScenariosNamed:  a.scenariosNamed,
		wire.ImportScenario:  a.importScenario,
		wire.CopyScenario:    a.copyScenario,
		wire.PrepareRun:      a.prepareRun,
		wire.StartRun:        a.startRun,
		wire.WaitRun:         a.waitRun,
		wire.StopRun:         a.stopRun,
		wire.ExportDashboard: a.exportDashboard,
		wire.WriteResultData: a.writeResultData,
	}
}
