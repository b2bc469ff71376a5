package scmtemporal_test

import (
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal"
)

// An item's workflow on Temporal's test environment (a worker registers
// the same way: scmtemporal.Register(w, acts), or scmtemporal.NewWorker),
// against the fake server, whose runs here end at once and whose status
// never lags, so that a run's end is settled within a short stale window:
// the item's scenario, run configuration, run and result.
func Example() {
	srv := fake.NewServer(fake.WithLicense(), fake.WithRunDuration(0), fake.WithStatusLag(0))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey))
	if err != nil {
		panic(err)
	}

	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	scmtemporal.Register(env, &scmtemporal.Activities{Client: c})
	opts := scmtemporal.Options{StaleWindow: 20 * time.Millisecond, Poll: &facade.PollPolicy{MinInterval: 10 * time.Millisecond}}
	env.ExecuteWorkflow(scmtemporal.WorkflowName, scmtemporal.ItemInput{Name: "simulation", ProjectID: 1, ScenarioID: 103,
		Experiment: gen.ExperimentTypeSIMULATION, Options: opts})

	var res scmtemporal.ItemResult
	if err := env.GetWorkflowResult(&res); err != nil {
		panic(err)
	}
	fmt.Printf("item %s: scenario %d, rcId %d, run %d, experimentResultId %d\n", res.Name, res.ScenarioID, res.RcID, res.RunID, res.ExperimentResultID)
	// Output: item simulation: scenario 103, rcId 10303, run 5001, experimentResultId 5002
}
