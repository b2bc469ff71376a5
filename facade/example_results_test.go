package facade_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"slices"

	"github.com/xuri/excelize/v2"

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
	ctx := context.Background()
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
	pages, err := c.Results.DashboardPages(ctx, run.ExperimentResultId)
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
	// ran 10303 result 5001
	// 1 Overview
	// 2 Costs
	// 3 Service
	// validation HAS_ERRORS 2 messages
}

// ExportDashboard writes every dashboard page of a result into one
// workbook, a sheet per page, reporting each page as it downloads.
func ExampleResultsService_ExportDashboard() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	run, err := c.Experiments.RunSync(ctx, 10303)
	if err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer
	progress := func(p facade.PageProgress) {
		if p.Done {
			fmt.Printf("page %d/%d %s written\n", p.Index, p.Total, p.Page.Name)
		}
	}
	err = c.Results.ExportDashboard(ctx, run.ExperimentResultId, &out, &facade.ExportDashboardOptions{Progress: progress})
	if err != nil {
		log.Fatal(err)
	}
	book, err := excelize.OpenReader(&out)
	if err != nil {
		log.Fatal(err)
	}
	defer book.Close()
	fmt.Println(book.GetSheetList())
	// Output:
	// page 1/3 Overview written
	// page 2/3 Costs written
	// page 3/3 Service written
	// [Overview Costs Service]
}
