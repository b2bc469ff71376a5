package facade_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// A state-changing call whose response is lost after the server applied
// it: the facade does not send it again, and the error matches
// ErrMayHaveBeenApplied, so the caller knows to look before retrying.
func ExampleRequestError() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	srv.InjectFault("copyScenario", fake.Fault{Kind: fake.FaultDropAfterHandler})

	_, err := c.Scenarios.Copy(ctx, 101, gen.ScenarioTypeGFA, &facade.NewScenarioOptions{Name: "Copy"})
	var reqErr *facade.RequestError
	fmt.Println(errors.As(err, &reqErr), errors.Is(err, facade.ErrMayHaveBeenApplied))
	fmt.Println("sent", srv.Calls("copyScenario"), "applied", srv.Applied("copyScenario"))
	// Output:
	// true true
	// sent 1 applied 1
}

// Operations that do not change state are retried on 408, 429, 5xx and
// connection errors, honouring Retry-After up to MaxRetryAfter.
func ExampleRetryPolicy() {
	srv, _, clock := setupClock()
	defer srv.Close()
	c := connect(srv, clock, facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 3, MaxRetryAfter: 10 * time.Second}))
	srv.InjectFault("getScenarios", fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable, RetryAfter: "2", Times: 2})

	start := clock.Now()
	scenarios, err := c.Scenarios.List(context.Background(), 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(scenarios[0].Id, *scenarios[0].Name)
	fmt.Println("requests", srv.Calls("getScenarios"), "waited", clock.Now().Sub(start))
	// Output:
	// 301 Spare Parts Baseline
	// requests 3 waited 4s
}
