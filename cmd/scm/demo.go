package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// demo walks the whole workflow through the facade and narrates it.
type demo struct {
	*app
	c, runC  *facade.Client // runC answers a synchronous run however long it takes
	ctx      context.Context
	start    time.Time
	step     int
	embedded bool // the server is the in-memory fake the demo started

	me          *gen.ApiUserData
	projectID   ids.ProjectID
	projectName string
	openBefore  ids.ProjectID // the project the user had open before the demo, 0 for none
	tookLicense bool          // the demo requested the license it holds: it drops it at the end

	importedID       ids.ScenarioID         // the scenario the import made
	created          []ids.ScenarioID       // the scenarios the demo made, in order
	source           gen.ApiScenarioData    // the first SIM scenario of the project
	scenarioID       ids.ScenarioID         // the SIM scenario (the demo's copy, unless read-only)
	rcID             ids.RcID               // its SIMULATION
	resultID         ids.ExperimentResultID // the result of the simulation's run, 0 when none
	pages, rows      int
	exported         string
	param            facade.ParameterRef // a parameter that varies by NUMBER_RANGE
	variationID      ids.VariationID
	lastMileScenario gen.ApiScenarioData // the scenario of the last mile optimization (the demo's copy, unless read-only)
	lastMileRcID     ids.RcID
	orders           int
	added, generated int
}

func (a *app) demoCommand() *cobra.Command {
	runFor, importFor := 3*time.Second, 2*time.Second
	var yes bool
	cmd := &cobra.Command{
		Use:   "demo [--base-url URL [--yes]] [--read-only]",
		Short: "Walk the whole workflow against an embedded fake server (or --base-url)",
		Long: `demo starts an in-memory modelling server and walks the workflow of real
clients through the SDK, narrating each step: the user, a project opened by
name, a workbook imported and polled until DONE, scenarios, experiments (the
SIMULATION's run configuration changed), a synchronous run that answers its
experimentResultId (a license is requested when the run needs one), results,
dashboard pages and a table paged through, every dashboard page exported into
one .xlsx file in the working directory, a NUMBER_RANGE variation created in
one call, last mile optimization, and the end of the session.

With --base-url (and --api-key) it walks the same steps against that server.
It changes only what it creates: a scenario imported from a workbook, and a
copy of each scenario it works on (the first SIM scenario, and the first
with a last mile optimization); the run configuration it changes, the run,
the variation and the shipments are the copies', never the originals'. It
leaves those new scenarios for you to look at, and lists them at the end.
It puts back what it changed of your session: it drops only a license it
requested, and closes the project it opened unless you had it open (or
reopens the one you had). demo first lists each change and what it changes,
and asks on a terminal; --yes answers for you, and without a terminal and
without --yes it refuses (exit 2). --read-only walks only the steps that
read (the operations the spec marks as not changing state; the others are
never sent), reading the results of the simulation's latest finished run.
--timeout bounds the whole demo.`,
		Example: `  scm demo
  scm demo --read-only`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := &demo{app: a, ctx: cmd.Context(), start: time.Now(), embedded: !cmd.Flags().Changed("base-url")}
			if d.embedded {
				srv := fake.NewServer(fake.WithRunDuration(runFor), fake.WithImportDuration(importFor))
				defer srv.Close()
				a.baseURL, a.apiKey, a.keyPrefix = srv.URL, srv.APIKey, ""
				fmt.Fprintf(a.stdout, "Started an in-memory modelling server at %s\n", srv.URL)
			}
			if _, err := a.base(); err != nil {
				return err // before the list of changes, which shows the server
			}
			steps := d.steps()
			if err := d.confirm(steps, yes); err != nil {
				return err
			}
			if err := d.connect(); err != nil {
				return err
			}
			return d.walk(steps)
		},
	}
	f := cmd.Flags()
	f.DurationVar(&runFor, "run-duration", runFor, "how long a run takes on the embedded server")
	f.DurationVar(&importFor, "import-duration", importFor, "how long an import takes on the embedded server")
	f.BoolVar(&yes, "yes", false, "change the server of --base-url without asking")
	f.BoolVar(&a.readOnly, "read-only", false, "walk only the steps that read: send no operation that changes state")
	a.noFollowFlag(cmd)
	return a.withTimeLimits(cmd)
}

// connect makes the demo's clients: runC waits for a synchronous run as
// long as it takes (unless --request-timeout says otherwise).
func (d *demo) connect() error {
	var err error
	if d.c, err = d.client(); err != nil {
		return err
	}
	d.runC, err = d.runClient()
	return err
}

// demoStep is a step of the demo and the operations it may send.
type demoStep struct {
	title   string
	ops     []gen.OperationID
	changes string // what it changes on the server, "" for a step that only reads
	mode    stepMode
	do      func() error
}

// stepMode says in which walks a step takes part.
type stepMode int

const (
	always       stepMode = iota
	fullOnly              // skipped by --read-only
	readOnlyOnly          // stands in for a step that changes state
)

// changesState reports whether any operation of the step changes state.
func (s demoStep) changesState() bool {
	for _, id := range s.ops {
		if op, ok := gen.LookupOperation(id); !ok || op.ChangesState {
			return true
		}
	}
	return false
}

// selected is the steps of this walk: all but the read-only stand-ins, or
// with --read-only only the steps that send nothing that changes state.
func (d *demo) selected(all []demoStep) []demoStep {
	var out []demoStep
	for _, s := range all {
		switch {
		case d.readOnly && (s.mode == fullOnly || s.changesState()):
		case !d.readOnly && s.mode == readOnlyOnly:
		default:
			out = append(out, s)
		}
	}
	return out
}

func (d *demo) walk(steps []demoStep) error {
	for _, s := range steps {
		d.step++
		fmt.Fprintf(d.stdout, "\n[%d/%d] %s\n", d.step, len(steps), s.title)
		if err := s.do(); err != nil {
			return fmt.Errorf("demo step %d (%s): %w", d.step, s.title, err)
		}
	}
	d.summary()
	return nil
}

func (d *demo) say(format string, args ...any) {
	fmt.Fprintf(d.stdout, "  "+format+"\n", args...)
}

func (d *demo) summary() {
	took := time.Since(d.start).Round(100 * time.Millisecond)
	if d.readOnly {
		fmt.Fprintf(d.stdout, "\nDemo finished in %s, reading only: result %d, %d table rows paged through, %d dashboard pages exported to %s.\n",
			took, d.resultID, d.rows, d.pages, orDash(d.exported))
		return
	}
	fmt.Fprintf(d.stdout, "\nDemo finished in %s: imported scenario %d, ran the simulation %d (result %d), paged through %d table rows,\n",
		took, d.importedID, d.rcID, d.resultID, d.rows)
	fmt.Fprintf(d.stdout, "exported %d dashboard pages to %s, created variation %d, added %d of %d generated shipments.\n",
		d.pages, d.exported, d.variationID, d.added, d.generated)
	fmt.Fprintf(d.stdout, "It changed only the scenarios it created, which it leaves for you to look at: %s.\n", idList(d.created))
}

// idList is ids as "1001, 1002 and 1003".
func idList(scenarios []ids.ScenarioID) string {
	s := make([]string, len(scenarios))
	for i, id := range scenarios {
		s[i] = id.String()
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// scenarioName is a scenario's name, "(null)" when the server gave none.
func scenarioName(s gen.ApiScenarioData) string {
	if s.Name == nil {
		return "(null)"
	}
	return *s.Name
}
