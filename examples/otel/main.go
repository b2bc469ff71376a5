// Command otel runs the demo workflow of scm against the in-memory fake
// server, with the client observed by the module
// github.com/scmodel/scmgo/scmotel, and prints the trace it made as a tree:
// each span with its main attributes, and its events.
//
// Run it in examples/otel, a module of its own outside the repository's
// go.work, built alone as its users build it:
//
//	GOWORK=off go run .
//
// The workflow: the user, the projects, the first opened by name, a scenario imported
// from a database (its job waited for), a run of the simulation waited for
// (its first status request answered 503 once, so a retry shows), the
// result of the run, and every dashboard page exported into one workbook.
// The fake runs on an instant clock, so the waits take no time, and the
// tree is the same on every run; a real program would give its own
// TracerProvider and MeterProvider, exporting over OTLP (see the package
// documentation of github.com/scmodel/scmgo/scmotel).
package main

import (
	"context"
	"io"
	"log"
	"os"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmotel"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run walks the workflow and prints its trace tree to w.
func run(ctx context.Context, w io.Writer) error {
	srv, clock := faketest.StartInstantServer(fake.WithFault("getExperimentStatus",
		fake.Fault{Kind: fake.FaultStatus, Status: 503, RetryAfter: "1"}))
	defer srv.Close()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())
	every := 5 * time.Second // a steady pace, so the tree has the same polls every time
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock),
		facade.WithPollPolicy(facade.PollPolicy{MinInterval: every, MaxInterval: every}),
		scmotel.WithTelemetry(scmotel.WithTracerProvider(tp)))
	if err != nil {
		return err
	}
	defer c.CloseIdleConnections()
	if err := workflow(ctx, c); err != nil {
		return err
	}
	printTree(w, spans.GetSpans())
	return nil
}

// workflow is the demo's steps, each a call or a wait of the client.
func workflow(ctx context.Context, c *facade.Client) error {
	if _, err := c.User.Current(ctx); err != nil {
		return err
	}
	projects, err := c.Projects.List(ctx)
	if err != nil {
		return err
	}
	project, err := c.Projects.OpenByName(ctx, projects[0].Name, nil)
	if err != nil {
		return err
	}
	if err := importFromDatabase(ctx, c, project.Id); err != nil {
		return err
	}
	run, err := c.Experiments.Start(ctx, 10101, nil)
	if err != nil {
		return err
	}
	if _, err := run.Wait(ctx, nil); err != nil {
		return err
	}
	resultID, err := run.ResultID()
	if err != nil {
		return err
	}
	return dashboard.Export(ctx, c, resultID, io.Discard, nil)
}

// importFromDatabase imports the database's first scenario into the
// project and waits for the job. The password never shows in the trace.
func importFromDatabase(ctx context.Context, c *facade.Client, projectID ids.ProjectID) error {
	host, user, password, typ := "db.internal", "scm", "db-secret", "POSTGRESQL"
	conn := gen.DBConnectionProperties{Host: &host, User: &user, Password: &password, Type: &typ}
	offered, err := c.Imports.DatabaseScenarios(ctx, conn)
	if err != nil {
		return err
	}
	jobs, err := c.Imports.Database(ctx, projectID, "Imported", []string{offered.List[0].Name}, conn, nil)
	if err != nil {
		return err
	}
	_, err = jobs[0].Wait(ctx, nil)
	return err
}
