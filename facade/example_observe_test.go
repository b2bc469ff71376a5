package facade_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// callPrinter prints each call and the end of each wait; NopObserver
// does nothing with the rest.
type callPrinter struct{ facade.NopObserver }

func (callPrinter) CallEnd(_ context.Context, call facade.CallInfo, r facade.CallResult) {
	fmt.Printf("%s: %d attempt(s), error: %v\n", call.Operation, r.Attempts, r.Err != nil)
}

func (callPrinter) WaitEnd(_ context.Context, w facade.WaitInfo, r facade.WaitResult) {
	fmt.Printf("%s %d ended %s\n", w.Kind, w.ID, r.State)
}

// WithObserver is told of every call, attempt, retry, wait and poll; the
// module github.com/scmodel/scmgo/scmotel makes OpenTelemetry spans and
// metrics of them.
func ExampleWithObserver() {
	srv, _, clock := setupClock()
	defer srv.Close()
	c := connect(srv, clock, facade.WithObserver(callPrinter{}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Start looks up the run's scenario and last run, then starts it.
	run, err := c.Experiments.Start(ctx, 10101, nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := run.Wait(ctx, &facade.WaitOptions{Policy: &facade.PollPolicy{MinInterval: 30e9, MaxInterval: 30e9}}); err != nil {
		log.Fatal(err)
	}
	// The wait reads the run under way, then its end, then, a stale window
	// later, the end still there and the one new run its scenario lists.
	// Output:
	// getExperimentRunConfiguration: 1 attempt(s), error: false
	// getExperimentRunsForScenario: 1 attempt(s), error: false
	// getExperimentStatus: 1 attempt(s), error: false
	// runExperiment: 1 attempt(s), error: false
	// getExperimentStatus: 1 attempt(s), error: false
	// getExperimentStatus: 1 attempt(s), error: false
	// getExperimentStatus: 1 attempt(s), error: false
	// getExperimentRunsForScenario: 1 attempt(s), error: false
	// run 10101 ended FINISHED
}
