package scmtemporal

import (
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/facade"
)

// Register confirms marks through the worker's own client on a worker, and
// only there: Temporal's test environment has no client of a service.
// NewWorker refuses a nil client and registers on the worker it makes.
func TestMarksAreConfirmedOnAWorkerOnly(t *testing.T) {
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "q", worker.Options{})
	if !onWorker(w) {
		t.Error("a worker is not taken for one")
	}
	var suite testsuite.WorkflowTestSuite
	if onWorker(suite.NewTestWorkflowEnvironment()) {
		t.Error("the test environment is taken for a worker")
	}
	fc, err := facade.New("http://127.0.0.1:1/api/v1", facade.WithAPIKey("k"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWorker(nil, "", &Activities{Client: fc}, worker.Options{}); err == nil {
		t.Error("NewWorker took a nil client")
	}
	if _, err := NewWorker(c, "", &Activities{}, worker.Options{}); err == nil || err.Error() != "scmtemporal: Register: Activities.Client is nil" {
		t.Errorf("NewWorker took activities without a client: %v", err)
	}
	if _, err := NewWorker(c, "", &Activities{Client: fc}, worker.Options{}); err != nil {
		t.Error(err)
	}
}
