package scmtemporal_test

import (
	"fmt"
	"log/slog"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal"
)

// An item's workflow on Temporal's test environment (a worker registers
// the same way: scmtemporal.Register(w, acts)), against the fake server,
// whose runs here end at once: the item's scenario, run configuration,
// run and result.
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
	env.ExecuteWorkflow(scmtemporal.ItemWorkflow, scmtemporal.ItemInput{Name: "simulation", ProjectID: 1, ScenarioID: 103,
		Experiment: gen.ExperimentTypeSIMULATION})

	var res scmtemporal.ItemResult
	if err := env.GetWorkflowResult(&res); err != nil {
		panic(err)
	}
	fmt.Printf("item %s: scenario %d, rcId %d, run %d, experimentResultId %d\n", res.Name, res.ScenarioID, res.RcID, res.RunID, res.ExperimentResultID)
	// Output: item simulation: scenario 103, rcId 10303, run 5001, experimentResultId 5002
}
