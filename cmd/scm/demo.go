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
through the SDK, narrating each step: user and license, projects, a workbook
import, scenarios, experiments and their run configuration, a run with its
progress, results and a table paged through, a page exported to an .xlsx file
in the working directory, a variation, last mile optimization, and the end of
the session. With --base-url (and --api-key) it walks the same steps against
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
		{"Projects", d.projects},
		{"Import a workbook into a new scenario", d.importWorkbook},
		{"Scenarios of the project", d.scenarios},
		{"Experiments and a run configuration", d.experiments},
		{"Run the simulation and wait", d.run},
		{"Results: values, pages, charts and a table", d.results},
		{"Export a result page as a workbook", d.export},
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
	fmt.Fprintf(d.stdout, "\nDemo finished in %s: imported scenario %d, ran a simulation, paged through %d table rows,\n",
		time.Since(d.start).Round(100*time.Millisecond), d.scenarioID, d.rows)
	fmt.Fprintf(d.stdout, "exported %s, created variation %d, added %d of %d generated shipments.\n",
		d.exported, d.variationID, d.added, d.generated)
}

func (d *demo) user() error {
	u, err := d.c.User.Current(d.ctx)
	if err != nil {
		return err
	}
	d.say("Signed in as %s (%s).", u.Username, deref(u.FullName))
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
		d.say("Project %d  %s", p.ProjectId, p.Name)
	}
	opened, err := d.c.Projects.Open(d.ctx, list[0].ProjectId)
	if err != nil {
		return err
	}
	d.projectID = opened.ProjectId
	d.say("Opened project %d (%s).", opened.ProjectId, opened.Name)
	return nil
}

func (d *demo) scenarios() error {
	list, err := d.c.Scenarios.List(d.ctx, d.projectID)
	if err != nil {
		return err
	}
	for _, s := range list {
		mark := ""
		if s.ScenarioId == d.scenarioID {
			mark = "  <- just imported"
		}
		d.say("Scenario %-5d %-24s %s%s", s.ScenarioId, s.Name, derefType(s.Type), mark)
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

func derefType(t *gen.ScenarioType) string {
	if t == nil {
		return "?"
	}
	return string(*t)
}
