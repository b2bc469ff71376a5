package facade_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// The workflow of real clients: open a project by name, pick the
// SIMULATION of a scenario, run it synchronously for its
// experimentResultId, and list the result's dashboard pages.
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
	experiments, err := c.Experiments.List(ctx, project.Id, scenarios[0].Id)
	if err != nil {
		log.Fatal(err)
	}
	i := slices.IndexFunc(experiments, func(e gen.ApiBasicRunConfiguration) bool { return e.Type == gen.ExperimentTypeSIMULATION })
	run, err := c.Experiments.RunSync(ctx, experiments[i].Id)
	if err != nil {
		log.Fatal(err) // a *facade.StateError when the run could not start
	}
	pages, err := c.Results.DashboardPages(ctx, run.ExperimentResultId)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ran", experiments[i].Id, "result", run.ExperimentResultId)
	for _, p := range pages {
		fmt.Println(p.Id, p.Name)
	}
	// Output:
	// ran 10103 result 7001
	// 1 Overview
	// 2 Costs
	// 3 Service
}

// ExportDashboard writes every dashboard page of a result into one
// workbook, a sheet per page, reporting each page as it downloads.
func ExampleResultsService_ExportDashboard() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	run, err := c.Experiments.RunSync(ctx, 10103)
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
