package fake_test

import (
	"context"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// Example runs an experiment on a virtual clock: the run advances only when
// the test moves time, so nothing sleeps.
func Example() {
	clock := fake.NewVirtualClock(time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC))
	srv := fake.NewServer(fake.WithClock(clock), fake.WithLicense(), fake.WithRunDuration(time.Minute))
	defer srv.Close()
	c, _ := gen.NewClientWithResponses(srv.URL, gen.WithRequestEditorFn(bearer(srv.APIKey)))
	ctx := context.Background()

	started, _ := c.RunExperimentWithResponse(ctx, &gen.RunExperimentParams{RcId: 10303}) // the SIMULATION of scenario 103
	fmt.Println(started.JSON200.AnimationModelId, started.JSON200.ExperimentTypeId)
	for range 2 {
		clock.Advance(30 * time.Second)
		st, _ := c.GetExperimentStatusWithResponse(ctx, &gen.GetExperimentStatusParams{RcId: 10303})
		fmt.Println(st.JSON200.GenericState, *st.JSON200.Finished)
	}
	runs, _ := c.GetExperimentRunsForScenarioWithResponse(ctx, &gen.GetExperimentRunsForScenarioParams{ScenarioId: 103})
	fmt.Println((*runs.JSON200)[0].Name, (*runs.JSON200)[0].Id)

	srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: 503, RetryAfter: "1"})
	st, _ := c.GetExperimentStatusWithResponse(ctx, &gen.GetExperimentStatusParams{RcId: 10303})
	fmt.Println(st.StatusCode(), *st.JSON5XX.Message)
	fmt.Println(srv.Calls("getExperimentStatus"), srv.Applied("runExperiment"))
	// Output:
	// 10303 SIMULATION
	// RUNNING false
	// IDLE true
	// Statistics 5001
	// 503 getExperimentStatus: injected fault: 503 Service Unavailable
	// 3 1
}
