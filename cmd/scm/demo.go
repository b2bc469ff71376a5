package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// demo walks the whole workflow through the facade and narrates it.
type demo struct {
	*app
	c     *facade.Client
	ctx   context.Context
	start time.Time
	step  int

	projectID, scenarioID int64
	rcID, resultID        int64 // the simulation and the result of its run
	pages                 int
	rows                  int
	exported              string
	variationID           int64
	added, generated      int
}

const demoSteps = 11

func (a *app) demoCommand() *cobra.Command {
	runFor, importFor := 3*time.Second, 2*time.Second
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Walk the whole workflow against an embedded fake server (or --base-url)",
		Long: `demo starts an in-memory modelling server and walks the whole workflow
through the SDK, narrating each step the way real clients use the server: user
and license, a project opened by name, a workbook imported and polled until
DONE, scenarios, experiments (the SIMULATION picked and its run configuration
changed), a synchronous run that answers its experimentResultId, results and a
table paged through, every dashboard page exported into one .xlsx file in the
working directory, a variation, last mile optimization, and the end of the
session. With --base-url (and --api-key) it walks the same steps against
that server instead.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("base-url") {
				srv := fake.NewServer(fake.WithRunDuration(runFor), fake.WithImportDuration(importFor))
				defer srv.Close()
				a.baseURL, a.apiKey, a.keyPrefix = srv.URL, srv.APIKey, ""
				fmt.Fprintf(a.stdout, "Started an in-memory modelling server at %s\n", srv.URL)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			d := &demo{app: a, c: c, ctx: cmd.Context(), start: time.Now()}
			return d.walk()
		},
	}
	cmd.Flags().DurationVar(&runFor, "run-duration", runFor, "how long a run takes on the embedded server")
	cmd.Flags().DurationVar(&importFor, "import-duration", importFor, "how long an import takes on the embedded server")
	return cmd
}

func (d *demo) walk() error {
	steps := []struct {
		title string
		do    func() error
	}{
		{"Who am I, and a license", d.user},
		{"Open a project by name", d.projects},
		{"Import a workbook into a new scenario", d.importWorkbook},
		{"Scenarios of the project", d.scenarios},
		{"Experiments: pick the SIMULATION and change its run configuration", d.experiments},
		{"Run the simulation synchronously", d.run},
		{"Results: values, dashboard pages, charts and a table", d.results},
		{"Export every dashboard page into one workbook", d.export},
		{"A variation, following the rules", d.variation},
		{"Last mile optimization: only the selected are added", d.lastMile},
		{"Drop the license and close the project", d.finish},
	}
	for _, s := range steps {
		d.step++
		fmt.Fprintf(d.stdout, "\n[%d/%d] %s\n", d.step, demoSteps, s.title)
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
	fmt.Fprintf(d.stdout, "\nDemo finished in %s: imported scenario %d, ran a simulation (result %d), paged through %d table rows,\n",
		time.Since(d.start).Round(100*time.Millisecond), d.scenarioID, d.resultID, d.rows)
	fmt.Fprintf(d.stdout, "exported %d dashboard pages to %s, created variation %d, added %d of %d generated shipments.\n",
		d.pages, d.exported, d.variationID, d.added, d.generated)
}

func (d *demo) user() error {
	u, err := d.c.User.Current(d.ctx)
	if err != nil {
		return err
	}
	d.say("Signed in as %s (%s %s).", u.Username, u.FirstName, u.LastName)
	lic, err := d.c.User.RequestLicense(d.ctx)
	if err != nil {
		return err
	}
	d.say("Requested a license: granted=%t, type %s.", lic.Granted, deref(lic.LicenseType))
	return nil
}

func (d *demo) projects() error {
	list, err := d.c.Projects.List(d.ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("the server lists no projects")
	}
	for _, p := range list {
		d.say("Project %d  %s", p.Id, p.Name)
	}
	opened, err := d.c.Projects.OpenByName(d.ctx, list[0].Name, nil)
	if err != nil {
		return err
	}
	d.projectID = opened.Id
	d.say("Opened project %q by its whole name (fullMatch=true): id %d.", opened.Name, opened.Id)
	return nil
}

func (d *demo) scenarios() error {
	list, err := d.c.Scenarios.List(d.ctx, d.projectID)
	if err != nil {
		return err
	}
	for _, s := range list {
		mark := ""
		if s.Id == d.scenarioID {
			mark = "  <- just imported"
		}
		d.say("Scenario %-5d %-24s %s%s", s.Id, scenarioName(s), s.Type, mark)
	}
	return nil
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
