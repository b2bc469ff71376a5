package facade_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/xuri/excelize/v2"
)

// everyTenSeconds polls at a fixed pace, so the progress lines below are
// the same on every run.
var everyTenSeconds = &facade.WaitOptions{Policy: &facade.PollPolicy{MinInterval: 10 * time.Second, MaxInterval: 10 * time.Second}}

// RunAndWait starts a run and waits for its end, and the Run it returns
// gives the result of this run; the fake's runs last 10 s of its virtual
// clock. The server reports no progress, so the pause between polls
// follows the run's age: 2 s while it is under 40 s old.
func ExampleClient_RunAndWait() {
	srv, c, clock := setupClock()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := clock.Now()
	run, err := c.RunAndWait(ctx, 10101, nil)
	if err != nil {
		log.Fatal(err)
	}
	resultID, err := run.ResultID()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(facade.RunStateValue(run.State()), resultID)
	// The run takes 10 s: its end is seen within 2 s, and taken as this
	// start's once a read a stale window (10 s) later still shows it.
	fmt.Println("settled within 22 s of the start:", clock.Now().Sub(start) <= 22*time.Second)
	// Output:
	// FINISHED 5002
	// settled within 22 s of the start: true
}

// ImportExcelAndWait uploads a workbook, streamed from its file, as a new
// scenario and waits for the import job.
func ExampleClient_ImportExcelAndWait() {
	srv, c := setup()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "scm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "customers.xlsx")
	if err := writeCustomersWorkbook(path); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	status, err := c.ImportExcelAndWait(ctx, 1, "Imported customers", facade.UploadFile(path), nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(status.Status, *status.ScenarioId)
	printScenario(ctx, c, 1, *status.ScenarioId)
	// Output:
	// DONE 1001
	// 1001 Imported customers
}

// writeCustomersWorkbook saves a one-sheet workbook of two customers.
func writeCustomersWorkbook(path string) error {
	book := excelize.NewFile()
	defer book.Close()
	if err := book.SetSheetName("Sheet1", "Customers"); err != nil {
		return err
	}
	for i, row := range [][]any{{"id", "name"}, {1, "Acme"}, {2, "Globex"}} {
		if err := book.SetSheetRow("Customers", fmt.Sprintf("A%d", i+1), &row); err != nil {
			return err
		}
	}
	return book.SaveAs(path)
}

// printScenario prints the id and name of a scenario of a project.
func printScenario(ctx context.Context, c *facade.Client, projectID ids.ProjectID, scenarioID ids.ScenarioID) {
	scenarios, err := c.Scenarios.List(ctx, projectID)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range scenarios {
		if s.Id == scenarioID && s.Name != nil {
			fmt.Println(s.Id, *s.Name)
		}
	}
}

// CopyScenarioAndWait copies a scenario as another type and waits for the
// copy job; the new scenario exists once the job finished. Like the real
// server, the fake names a copy null whatever newName says, and lists it as
// "null": follow a copy by its id.
func ExampleClient_CopyScenarioAndWait() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	status, err := c.CopyScenarioAndWait(ctx, 101, gen.ScenarioTypeSIM, &facade.NewScenarioOptions{Name: "Baseline as simulation"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(status.Status, *status.ScenarioId)
	printScenario(ctx, c, 1, *status.ScenarioId)
	// Output:
	// DONE 1001
	// 1001 null
}

// Client.Run resumes a run from its rcId alone: here a second client, as
// another process would, waits for a run the first one started.
func ExampleClient_Run() {
	srv, starter, clock := setupClock()
	defer srv.Close()
	ctx := context.Background()
	if _, err := starter.Experiments.Start(ctx, 10303, nil); err != nil {
		log.Fatal(err)
	}

	waiter := connect(srv, clock)
	run := waiter.Run(10303)
	fmt.Println("state before polling:", run.State())
	state, err := run.Wait(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.RcID(), facade.RunStateValue(state), run.Done())
	// Output:
	// state before polling: <nil>
	// 10303 FINISHED true
}

// Client.Job resumes an import or copy job from its jobId alone.
func ExampleClient_Job() {
	srv, starter, clock := setupClock()
	defer srv.Close()
	ctx := context.Background()
	started, err := starter.Scenarios.Copy(ctx, 301, gen.ScenarioTypeNO, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("job", started.JobID)

	waiter := connect(srv, clock)
	status, err := waiter.Job(started.JobID).Wait(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(status.Status, *status.ScenarioId)
	// Output:
	// job 4001
	// DONE 1001
}

// States yields each change of state (and of progress, for a server that
// reports it), for a progress display. A real server shows a run under way
// as IDLE with finished false, and right after a start still shows the
// last run's end: that end is not yielded, as it is not this run's.
func ExampleRun_States() {
	srv, c, _ := setupClock(fake.WithRunDuration(time.Minute))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.RunAndWait(ctx, 10101, nil); err != nil { // an earlier run
		log.Fatal(err)
	}
	run, err := c.Experiments.Start(ctx, 10101, nil)
	if err != nil {
		log.Fatal(err)
	}
	for state, err := range run.States(ctx, everyTenSeconds) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(facade.RunStateValue(state), *state.Finished)
	}
	fmt.Println(facade.EvidenceOf(run).End)
	// Output:
	// IDLE false
	// FINISHED true
	// seen under way
}

// States of a job: a copy that the fake runs in 30 s.
func ExampleJob_States() {
	srv, c, _ := setupClock(fake.WithImportDuration(30 * time.Second))
	defer srv.Close()
	ctx := context.Background()
	job, err := c.Scenarios.Copy(ctx, 101, gen.ScenarioTypeGFA, nil)
	if err != nil {
		log.Fatal(err)
	}
	for status, err := range job.States(ctx, everyTenSeconds) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-8s %3.0f%%\n", status.Status, *status.Progress)
	}
	// Output:
	// QUEUED     0%
	// RUNNING   33%
	// RUNNING   67%
	// DONE     100%
}
