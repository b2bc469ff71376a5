package facade_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// The workflow of real clients: open a project by name, pick the
// SIMULATION of a simulation scenario, run it synchronously for its
// experimentResultId, and list the result's dashboard pages. A run whose
// scenario does not validate is a *facade.StateError with every message.
func ExampleExperimentsService_RunSync() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	project, err := c.Projects.OpenByName(ctx, "Retail Network", nil)
	if err != nil {
		log.Fatal(err)
	}
	scenarios, err := c.Scenarios.List(ctx, project.Id)
	if err != nil {
		log.Fatal(err)
	}
	sim := slices.IndexFunc(scenarios, func(s gen.ApiScenarioData) bool { return s.Type == gen.ScenarioTypeSIM })
	experiments, err := c.Experiments.List(ctx, project.Id, scenarios[sim].Id)
	if err != nil {
		log.Fatal(err)
	}
	i := slices.IndexFunc(experiments, func(e gen.ApiBasicRunConfiguration) bool { return e.Type == gen.ExperimentTypeSIMULATION })
	run, err := c.Experiments.RunSync(ctx, experiments[i].Id)
	if err != nil {
		log.Fatal(err)
	}
	pages, err := c.Dashboards.Pages(ctx, run.ExperimentResultId)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ran", experiments[i].Id, "result", run.ExperimentResultId)
	for _, p := range pages {
		fmt.Println(p.Id, p.Name)
	}
	_, err = c.Experiments.RunSync(ctx, 10403) // the simulation of scenario 104, which does not validate
	var invalid *facade.StateError
	if errors.As(err, &invalid) {
		fmt.Println(invalid.State, len(invalid.Details), "messages")
	}
	// Output:
	// ran 10303 result 5002
	// 5004 Overview
	// 5007 Costs
	// 5010 Service
	// validation HAS_ERRORS 297 messages
}

// Page finds a dashboard page of a result by its name; Pages lists them
// all. A dashboard page has an integer id, the pageId of ExportPage.
func ExampleDashboardsService_Page() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.Experiments.RunSync(ctx, 10303)
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.Dashboards.Page(ctx, run.ExperimentResultId, "Cost", &facade.NameMatchOptions{PartialMatch: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Id, page.Name)
	// Output: 5007 Costs
}

// A statistics page of a result, read by the rcId of its experiment, and
// the batches (whole answers of skip/take requests) behind Result.
func ExampleResultsService_ResultBatches() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.RunAndWait(ctx, 10101, nil); err != nil {
		log.Fatal(err)
	}
	for batch, err := range c.Results.ResultBatches(ctx, 10101, &facade.PageOptions{PageSize: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		for _, p := range batch.Pages {
			fmt.Printf("%s %q ", p.Page.Id, p.Page.Name)
		}
		fmt.Println("| a batch of", len(batch.Pages))
	}
	// Output:
	// 83001 "Overview" 83002 "Costs" | a batch of 2
	// 83003 "Service" | a batch of 1
}
