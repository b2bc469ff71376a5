package scmtemporal

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// histories are the recorded histories of ItemWorkflow (scmtemporal/e2e
// record): an item done, failed, unknown, cancelled, its worker killed
// mid-step, and queued behind another process's run.
func histories(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 6 {
		t.Fatalf("want the 6 recorded histories under testdata/histories, found %v", files)
	}
	return files
}

// replay replays a history through wf, registered as ItemWorkflow is.
func replay(t *testing.T, wf any, file string) error {
	t.Helper()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: WorkflowName})
	return r.ReplayWorkflowHistoryFromJSONFile(log.NewStructuredLogger(slog.New(slog.DiscardHandler)), file)
}

// Every recorded history replays through ItemWorkflow as it is: a change
// that would break a workflow under way fails here.
func TestRecordedHistoriesReplay(t *testing.T) {
	for _, file := range histories(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if err := replay(t, ItemWorkflow, file); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// extraRead is an edit of the workflow: one more activity after the run's
// evidence, as a change of the code could add.
func extraRead(ctx workflow.Context) error {
	return workflow.ExecuteActivity(shortContext(ctx), wire.ScenariosNamed, wire.NamedInput{ProjectID: 1, Name: "x"}).Get(ctx, nil)
}

// The replay test has teeth: the workflow with an activity added and not
// versioned fails to replay every recorded history (each got past the
// run's evidence); the same edit behind workflow.GetVersion replays them
// all, as the package documentation asks of every change.
func TestReplayCatchesAnUnversionedEdit(t *testing.T) {
	unversioned := func(ctx workflow.Context, in ItemInput) (ItemResult, error) {
		return itemWorkflow(ctx, in, extraRead)
	}
	versioned := func(ctx workflow.Context, in ItemInput) (ItemResult, error) {
		return itemWorkflow(ctx, in, func(ctx workflow.Context) error {
			if workflow.GetVersion(ctx, "extra-read", workflow.DefaultVersion, 1) == workflow.DefaultVersion {
				return nil
			}
			return extraRead(ctx)
		})
	}
	for _, file := range histories(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			err := replay(t, unversioned, file)
			if err == nil || !strings.Contains(err.Error(), "TMPRL1100") { // the SDK's code of a nondeterministic replay
				t.Errorf("an unversioned edit replayed: %v", err)
			}
			if err := replay(t, versioned, file); err != nil {
				t.Errorf("the edit behind GetVersion: %v", err)
			}
		})
	}
}
