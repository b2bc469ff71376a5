package fake_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/scmodel/scmgo/facade"
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

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
	// IDLE false
	// IDLE true
	// Statistics 5001
	// 503 getExperimentStatus: injected fault: 503 Service Unavailable
	// 3 1
}

// Example_readme is the snippet of docs/fake.md: a run on a
// virtual clock, finished without sleeping, and its experimentResultId.
func Example_readme() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	clock := fake.NewVirtualClock(time.Now())
	srv := fake.NewServer(fake.WithClock(clock), fake.WithLicense(), fake.WithRunDuration(time.Minute))
	defer srv.Close()
	c, _ := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	run, _ := c.Experiments.Start(ctx, 10303, nil)     // the SIMULATION of scenario 103
	clock.Advance(2 * time.Minute)                     // no sleeping: the run has finished
	run.Poll(ctx)                                      // its end shows,
	clock.Advance(facade.DefaultStaleWindow)           // and still shows a stale window later:
	state, _ := run.Poll(ctx)                          // it is this start's
	resultID, _ := run.ResultID()                      // its experimentResultId
	fmt.Println(facade.RunStateValue(state), resultID) // FINISHED 5002
	// Output: FINISHED 5002
}

// Example_packageDoc is the snippet of the package documentation: a server
// on a virtual clock, its base URL and its key.
func Example_packageDoc() {
	clock := fake.NewVirtualClock(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	srv := fake.NewServer(fake.WithClock(clock), fake.WithLicense())
	defer srv.Close()
	// srv.URL ends in /api/v1; send srv.APIKey in the Authorization header.
	fmt.Println(strings.HasSuffix(srv.URL, "/api/v1"), srv.APIKey)
	// Output: true scm-demo-key
}
