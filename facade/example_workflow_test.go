package facade_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/xuri/excelize/v2"
)

// PageOptions: page size, prefetch, and resuming with StartAt, the count of
// items already seen.
func ExamplePageOptions() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	seen := 0
	for _, err := range c.LastMile.Orders(ctx, 10109, &facade.PageOptions{PageSize: 10, Prefetch: 3}) {
		if err != nil {
			log.Fatal(err)
		}
		if seen++; seen == 15 {
			break // stops the prefetching requests too
		}
	}
	fmt.Println("seen", seen)

	var indexes []int64
	for row, err := range c.LastMile.Orders(ctx, 10109, &facade.PageOptions{PageSize: 10, StartAt: seen, MaxItems: 12}) {
		if err != nil {
			log.Fatal(err)
		}
		indexes = append(indexes, row.Index)
	}
	fmt.Println("resumed", indexes)
	// Output:
	// seen 15
	// resumed [15 16 17 18 19 20 21 22 23 24 25 26]
}

// ExportPage streams one dashboard page of a result as a workbook: here to
// a file, then opened to list its sheets, one per chart of the page.
func ExampleDashboardsService_ExportPage() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	run, err := c.Experiments.RunSync(ctx, 10101)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "scm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "overview.xlsx")
	if err := exportTo(ctx, c, run.ExperimentResultId, path); err != nil {
		log.Fatal(err)
	}
	book, err := excelize.OpenFile(path)
	if err != nil {
		log.Fatal(err)
	}
	defer book.Close()
	for _, sheet := range book.GetSheetList() {
		fmt.Println(sheet)
	}
	// Output:
	// Overview table 1
	// Overview line 2
}

// exportTo writes the first dashboard page of a result to a file at path.
func exportTo(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, path string) error {
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return err
	}
	download, err := c.Dashboards.ExportPage(ctx, resultID, pages[0].Id)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		download.Close()
		return err
	}
	_, err = download.WriteTo(f) // copies and closes the download
	return errors.Join(err, f.Close())
}

// siteCapacity is a variable parameter of the seeded world with a table:
// the period of site 103, of a link data type.
var siteCapacity = facade.ParameterRef{ObjectTypeID: "SiteData_SIM_FULL", ObjectID: "103", ParameterID: "period"}

// Create refuses, before sending the creation, when nothing is selected in
// the variation's table; UpdateSelection stores a selection first.
func ExampleVariationsService_Create() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	const rcID = 10105 // the variation experiment of Baseline
	variation := siteCapacity.Variation(gen.VariationTypeLINKLIST, nil)

	_, err := c.Variations.Create(ctx, rcID, variation)
	fmt.Println(errors.Is(err, facade.ErrConflict), srv.Calls("createVariableParameter"))

	selection := gen.ApiBaseIndexSelectionValueRequest{Selected: ptr(true),
		Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{0, 2}}}}
	if _, err := c.Variations.UpdateSelection(ctx, rcID, ids.NewVariation, siteCapacity, selection); err != nil {
		log.Fatal(err)
	}
	created, err := c.Variations.Create(ctx, rcID, variation)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*created.Id, srv.Calls("createVariableParameter"))
	// Output:
	// true 0
	// 3001 1
}

// CreateNew creates a variation in one call, as real clients do: here the
// demand quantity of one customer as a number range. A variation of a table
// type would also need selected cells (TableSelection).
func ExampleVariationsService_CreateNew() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	types, err := c.Variations.ObjectTypes(ctx, 101)
	if err != nil {
		log.Fatal(err)
	}
	demand := types.List[0].Id // DemandData_SIM_FULL
	quantity := facade.ParameterRef{ObjectTypeID: demand, ObjectID: "1", ParameterID: "quantity"}
	req := gen.ApiVariationCreateRequest{RcId: 10105, ApiVariation: quantity.Variation(gen.VariationTypeNUMBERRANGE,
		&gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(100.0), Max: ptr(200.0), Step: ptr(50.0)}})}
	created, err := c.Variations.CreateNew(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*created.Id, created.ObjectType.Id, created.Object.Id, created.Parameter.Id, created.VariationType.Id)
	// Output:
	// 3001 DemandData_SIM_FULL 1 quantity NUMBER_RANGE
}

// AddOnlyShipments adds exactly the given shipments, whatever was selected
// before: the generated shipments start selected.
func ExampleLastMileService_AddOnlyShipments() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	const rcID = 10109 // the last mile optimization of Baseline
	if _, err := c.LastMile.SelectOrders(ctx, rcID, []int64{0, 1, 2, 3, 4, 5}); err != nil {
		log.Fatal(err)
	}
	if _, err := c.RunAndWait(ctx, rcID, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("selected before:", selectedShipments(ctx, c, rcID))

	if err := c.LastMile.AddOnlyShipments(ctx, rcID, []int64{0, 2}, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("selected and added:", selectedShipments(ctx, c, rcID))
	tables, _ := srv.ScenarioTables(101) // no operation answers a scenario's tables
	fmt.Println("rows in the scenario's Shipments table:", tables["Shipments"])
	// Output:
	// selected before: [0 1 2 3 4 5]
	// selected and added: [0 2]
	// rows in the scenario's Shipments table: 2
}

func selectedShipments(ctx context.Context, c *facade.Client, rcID ids.RcID) []int64 {
	var selected []int64
	for row, err := range c.LastMile.Shipments(ctx, rcID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		if row.Selected != nil && *row.Selected {
			selected = append(selected, row.Index)
		}
	}
	return selected
}

// UpdateRunConfiguration stores a changed configuration. Changing one
// field with a merge keeps every other one, including fields this SDK does
// not model (here solverHint, as a newer server might hold).
func ExampleExperimentsService_UpdateRunConfiguration() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	storeSolverHint(ctx, c, 10101)

	cfg, err := c.Experiments.RunConfiguration(ctx, 10101)
	if err != nil {
		log.Fatal(err)
	}
	if err := cfg.RunConfiguration.MergeApiGfaRunConfiguration(gen.ApiGfaRunConfiguration{NumberOfSites: ptr[int32](5)}); err != nil {
		log.Fatal(err)
	}
	kept, err := c.Experiments.UpdateRunConfiguration(ctx, 10101, *cfg)
	if err != nil {
		log.Fatal(err)
	}
	gfa, err := kept.RunConfiguration.AsApiGfaRunConfiguration()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("numberOfSites", *gfa.NumberOfSites)
	fmt.Println("demandCoverage", *gfa.DemandCoverage)
	hint, _ := gfa.AdditionalProperties.Get("solverHint")
	fmt.Println("solverHint", string(hint))
	// Output:
	// numberOfSites 5
	// demandCoverage 0.95
	// solverHint "fast"
}

// storeSolverHint stores a field of the GFA configuration that the
// generated model does not know.
func storeSolverHint(ctx context.Context, c *facade.Client, rcID ids.RcID) {
	cfg, err := c.Experiments.RunConfiguration(ctx, rcID)
	if err != nil {
		log.Fatal(err)
	}
	if err := cfg.RunConfiguration.UnmarshalJSON([]byte(`{"numberOfSites":3,"demandCoverage":0.95,"solverHint":"fast"}`)); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Experiments.UpdateRunConfiguration(ctx, rcID, *cfg); err != nil {
		log.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
