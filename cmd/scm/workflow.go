package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

// addWorkflowCommands adds the commands for the common jobs.
func (a *app) addWorkflowCommands(root *cobra.Command) {
	root.AddCommand(a.projectsCommand(), a.scenariosCommand(), a.experimentsCommand(), a.importCommand(), a.runCommand(),
		a.statusCommand(), a.resultsCommand(), a.exportCommand(), a.batchCommand(), a.serveFakeCommand())
}

func (a *app) projectsCommand() *cobra.Command {
	return a.withTimeLimits(&cobra.Command{
		Use:     "projects",
		Short:   "List the projects you can access",
		Example: "  scm projects",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Projects.List(cmd.Context())
			if err != nil {
				return err
			}
			tw := a.table("ID", "NAME", "OPEN")
			for _, p := range list {
				fmt.Fprintf(tw, "%d\t%s\t%s\n", p.Id, p.Name, yesNo(p.CurrentUserId != nil))
			}
			return tw.Flush()
		},
	})
}

func (a *app) scenariosCommand() *cobra.Command {
	var projectID ids.ProjectID
	cmd := &cobra.Command{
		Use:     "scenarios --project ID",
		Short:   "List the scenarios of a project",
		Example: "  scm scenarios --project 1",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Scenarios.List(cmd.Context(), projectID)
			if err != nil {
				return err
			}
			tw := a.table("ID", "NAME", "TYPE")
			for _, s := range list {
				fmt.Fprintf(tw, "%d\t%s\t%s\n", s.Id, scenarioName(s), s.Type)
			}
			return tw.Flush()
		},
	}
	idVar(cmd, &projectID, "project", "project id (required)")
	_ = cmd.MarkFlagRequired("project")
	return a.withTimeLimits(cmd)
}

func (a *app) experimentsCommand() *cobra.Command {
	var (
		projectID  ids.ProjectID
		scenarioID ids.ScenarioID
	)
	cmd := &cobra.Command{
		Use:   "experiments --project ID --scenario ID",
		Short: "List the run configurations of a scenario: an rcId per experiment type",
		Long: `experiments lists the experiments of a scenario, one run configuration each:
its rcId (the id scm run takes), its type, its name (an i18n key on a real
server), and its status and validation status.`,
		Example: "  scm experiments --project 1 --scenario 103",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Experiments.List(cmd.Context(), projectID, scenarioID)
			if err != nil {
				return err
			}
			tw := a.table("RCID", "TYPE", "NAME", "STATUS", "VALIDATION")
			for _, e := range list {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.Id, e.Type, orDash(e.Name), orDash(string(e.Status)), orDash(string(e.ValidationStatus)))
			}
			return tw.Flush()
		},
	}
	idVar(cmd, &projectID, "project", "project id (required)")
	idVar(cmd, &scenarioID, "scenario", "scenario id (required)")
	_ = cmd.MarkFlagRequired("project")
	_ = cmd.MarkFlagRequired("scenario")
	return a.withTimeLimits(cmd)
}

func (a *app) statusCommand() *cobra.Command {
	var rcID ids.RcID
	return a.withTimeLimits(&cobra.Command{
		Use:     "status RCID",
		Short:   "Show the state of a run",
		Example: "  scm status 10303",
		Args:    oneID(&rcID),
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			st, err := c.Experiments.Status(cmd.Context(), rcID)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "rcId %d: %s\n", rcID, facade.RunStateValue(st))
			return nil
		},
	})
}

// table starts a tab-aligned table with a header line.
func (a *app) table(header ...string) *tabwriter.Writer {
	tw := tabwriter.NewWriter(a.stdout, 2, 8, 2, ' ', 0)
	for i, h := range header {
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, h)
	}
	fmt.Fprintln(tw)
	return tw
}
