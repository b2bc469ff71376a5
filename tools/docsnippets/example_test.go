package docsnippets

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// Example_batchDoc is the snippet of package batch's documentation: a plan
// read, a runner over it, and the summary of the items done, against the
// fake in a directory of its own, on an instant clock (a run's end is
// taken one stale window after it shows).
func Example_batchDoc() {
	srv, clk := faketest.StartInstantServer(fake.WithRunDuration(100 * time.Millisecond))
	defer srv.Close()
	c, _ := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	defer inTempDir()()
	yaml := "project: 1\nitems:\n  - {name: simulation, scenario: 103, experiment: SIMULATION}\n"
	if err := os.WriteFile("plan.yaml", []byte(yaml), 0o644); err != nil {
		log.Fatal(err)
	}

	plan, err := batch.ReadPlan("plan.yaml")
	r, err := batch.NewRunner(c, plan, &batch.Options{Parallel: 4})
	summary, err := r.Run(ctx)

	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(summary.Count(batch.Done), "of", len(summary.Items), "done")
	// Output: 1 of 1 done
}

// inTempDir moves the process into a new directory and returns what moves
// it back and removes the directory.
func inTempDir() func() {
	wd, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "docsnippets")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		log.Fatal(err)
	}
	return func() {
		_ = os.Chdir(wd)
		_ = os.RemoveAll(dir)
	}
}
