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

	_, _ = c.RunExperimentWithResponse(ctx, &gen.RunExperimentParams{RcId: 10101})
	for range 2 {
		clock.Advance(30 * time.Second)
		st, _ := c.GetExperimentStatusWithResponse(ctx, &gen.GetExperimentStatusParams{RcId: 10101})
		fmt.Println(st.JSON200.State, *st.JSON200.Progress)
	}
	again, _ := c.RunExperimentWithResponse(ctx, &gen.RunExperimentParams{RcId: 10101})
	fmt.Println(again.StatusCode())

	srv.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultStatus, Status: 503, RetryAfter: "1"})
	st, _ := c.GetExperimentStatusWithResponse(ctx, &gen.GetExperimentStatusParams{RcId: 10101})
	fmt.Println(st.StatusCode(), *st.JSON5XX.Message)
	fmt.Println(srv.Calls("getExperimentStatus"), srv.Applied("runExperiment"))
	// Output:
	// RUNNING 50
	// FINISHED 100
	// 200
	// 503 getExperimentStatus: injected fault: 503 Service Unavailable
	// 3 2
}
