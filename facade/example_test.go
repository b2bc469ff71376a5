package facade_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// setup starts a fake server on a virtual clock and a client for it.
func setup() (*fake.Server, *facade.Client) {
	srv, c, _ := setupClock()
	return srv, c
}

// setupClock is setup that also returns the instant clock (its waits
// advance it at once, so the examples wait for runs without sleeping), to
// connect more clients or to read how much time the waits took.
func setupClock(opts ...fake.Option) (*fake.Server, *facade.Client, faketest.InstantClock) {
	srv, clock := faketest.StartInstantServer(opts...)
	return srv, connect(srv, clock), clock
}

// connect makes another client of the fake, on the same clock.
func connect(srv *fake.Server, clock faketest.InstantClock, opts ...facade.Option) *facade.Client {
	base := []facade.Option{facade.WithAPIKey(srv.APIKey), facade.WithClock(clock)}
	c, err := facade.New(srv.URL, append(base, opts...)...)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

func ExampleNew() {
	srv := fake.NewServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey))
	if err != nil {
		log.Fatal(err)
	}
	user, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(user.Username)
	// Output: demo
}

// NewFromEnv reads the base URL and the key from the environment, as a
// program deployed with SCM_BASE_URL and SCM_API_KEY set would.
func ExampleNewFromEnv() {
	srv := fake.NewServer()
	defer srv.Close()
	defer restoreEnv("SCM_BASE_URL", "SCM_API_KEY", "SCM_API_KEY_PREFIX")()
	os.Setenv("SCM_BASE_URL", srv.URL)
	os.Setenv("SCM_API_KEY", srv.APIKey)
	os.Unsetenv("SCM_API_KEY_PREFIX")

	c, err := facade.NewFromEnv(facade.WithUserAgent("inventory-report/2"))
	if err != nil {
		log.Fatal(err)
	}
	user, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(user.Username)

	os.Unsetenv("SCM_BASE_URL")
	_, err = facade.NewFromEnv()
	fmt.Println(err)
	// Output:
	// demo
	// facade: NewFromEnv: SCM_BASE_URL is not set
}

// restoreEnv returns a function that puts the named variables back as
// they are now.
func restoreEnv(names ...string) func() {
	saved := map[string]*string{}
	for _, name := range names {
		if v, ok := os.LookupEnv(name); ok {
			saved[name] = &v
		} else {
			saved[name] = nil
		}
	}
	return func() {
		for name, v := range saved {
			if v == nil {
				os.Unsetenv(name)
			} else {
				os.Setenv(name, *v)
			}
		}
	}
}

func ExampleProjectsService_List() {
	srv, c := setup()
	defer srv.Close()
	projects, err := c.Projects.List(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range projects {
		fmt.Println(p.Id, p.Name)
	}
	// Output:
	// 1 Retail Network
	// 2 Retail Network Archive
	// 3 Spare Parts
}

// FindByName looks projects up by name without opening any: OpenByName
// would change the project the server holds open for the user.
func ExampleProjectsService_FindByName() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	exact, err := c.Projects.FindByName(ctx, "Retail Network", nil)
	if err != nil {
		log.Fatal(err)
	}
	partial, err := c.Projects.FindByName(ctx, "Retail", &facade.NameMatchOptions{PartialMatch: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(exact), exact[0].Id, len(partial))
	fmt.Println("opened by the lookup:", exact[0].CurrentUserId != nil)
	// Output:
	// 1 1 2
	// opened by the lookup: false
}

func ExampleScenariosService_List() {
	srv, c := setup()
	defer srv.Close()
	scenarios, err := c.Scenarios.List(context.Background(), 3)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range scenarios {
		fmt.Println(s.Id, *s.Name, s.Type) // names may be null, as a copy's is
	}
	// Output: 301 Spare Parts Baseline NO
}

func ExampleImportsService_TablesMeta() {
	srv, c := setup()
	defer srv.Close()
	tables, err := c.Imports.TablesMeta(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tables), tables[0].Id)
	// Output: 8 Customers
}

func ExampleExperimentsService_List() {
	srv, c := setup()
	defer srv.Close()
	experiments, err := c.Experiments.List(context.Background(), 1, 101)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(experiments[0].Id, experiments[0].Type)
	// Output: 10101 GFA
}

// Paging: the rows of a table chart, five at a time, with two pages
// fetched concurrently ahead of the loop.
func ExampleResultsService_ChartTableRows() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	if _, err := c.RunAndWait(ctx, 10101, nil); err != nil {
		log.Fatal(err)
	}
	n := 0
	for row, err := range c.Results.ChartTableRows(ctx, 10101, 101, &facade.PageOptions{PageSize: 5, Prefetch: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
		if row.Index == 49 {
			fmt.Println("last row", row.Index)
		}
	}
	fmt.Println(n, "rows")
	// Output:
	// last row 49
	// 50 rows
}

func ExampleVariationsService_ObjectTypes() {
	srv, c := setup()
	defer srv.Close()
	types, err := c.Variations.ObjectTypes(context.Background(), 101)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range types.List {
		fmt.Println(t.Id)
	}
	// Output:
	// DemandData_SIM_FULL
	// SiteData_SIM_FULL
	// ProductData_SIM_FULL
}

func ExampleLastMileService_Orders() {
	srv, c := setup()
	defer srv.Close()
	n := 0
	for _, err := range c.LastMile.Orders(context.Background(), 10109, nil) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "orders")
	// Output: 40 orders
}

func ExampleUserService_Current() {
	srv, c := setup()
	defer srv.Close()
	user, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(user.Username)
	// Output: demo
}

// Wait for a run, on the fake's virtual clock.
func ExampleRun_Wait() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	run, err := c.Experiments.Start(ctx, 10101, nil)
	if err != nil {
		log.Fatal(err)
	}
	state, err := run.Wait(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(facade.RunStateValue(state), facade.EvidenceOf(run).Polls <= 20)
	// Output: FINISHED true
}

// Errors: a typed *APIError with errors.Is sentinels, and a run that failed.
func ExampleAPIError() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	// Like the real server, the fake answers an unknown id with 500 and a
	// message naming it: it matches ErrNotFound (not ErrServer: the message
	// classes it), and is not tried again.
	_, err := c.Scenarios.List(ctx, 999)
	var apiErr *facade.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Operation, apiErr.StatusCode, errors.Is(err, facade.ErrServer), errors.Is(err, facade.ErrNotFound), len(apiErr.Attempts))
		fmt.Println(err)
	}
	_, err = c.RunAndWait(ctx, 10403, nil) // the runs of scenario 104 fail
	fmt.Println(errors.Is(err, facade.ErrFailed))
	_, err = c.Scenarios.Copy(ctx, 101, gen.ScenarioType("XLS"), nil)
	fmt.Println(errors.Is(err, facade.ErrValidation))
	// Output:
	// getScenarios 500 false true 1
	// facade: getScenarios: projectId 999: no such project (500 Internal Server Error)
	// true
	// true
}

// Find looks up the rcId of a scenario's experiment of a type: the id that
// runs it, as an ids.RcID that no other kind of id can stand for.
func ExampleExperimentsService_Find() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rcID, err := c.Experiments.Find(ctx, 1, 103, gen.ExperimentTypeSIMULATION, "")
	if err != nil {
		log.Fatal(err)
	}
	state, err := c.Experiments.Status(ctx, rcID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rcID, facade.RunStateValue(state))
	_, err = c.Experiments.Find(ctx, 1, 103, gen.ExperimentTypeGFA, "")
	fmt.Println(err)
	// Output:
	// 10303 IDLE
	// facade: scenario 103 has no GFA experiment
}

// Named, read before an import, tells the import's scenario from older
// ones of the same name: SettleByName finds it once the import is done, as
// a program does that lost the import's answer.
func ExampleScenariosService_SettleByName() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	before, err := c.Scenarios.Named(ctx, 1, "Simulation") // names are not unique
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("before:", before)
	if _, err := c.CopyScenarioAndWait(ctx, 103, gen.ScenarioTypeSIM, nil, nil); err != nil {
		log.Fatal(err)
	}
	lost := facade.LostScenarioJob{Operation: "importExcel", Subject: "workbook simulation.xlsx", Project: 1, Name: "Simulation", Known: before}
	_, err = c.Scenarios.SettleByName(ctx, lost)
	fmt.Println("a copy settles it:", !errors.Is(err, facade.ErrStartUnknown)) // a copy is named null

	dir, err := os.MkdirTemp("", "scm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "simulation.xlsx")
	if err := writeCustomersWorkbook(path); err != nil {
		log.Fatal(err)
	}
	status, err := c.ImportExcelAndWait(ctx, 1, "Simulation", facade.UploadFile(path), nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	id, err := c.Scenarios.SettleByName(ctx, lost)
	fmt.Println(id, err, id == *status.ScenarioId)
	// Output:
	// before: [103 105]
	// a copy settles it: false
	// 1002 <nil> true
}
