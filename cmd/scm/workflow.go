package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/ids"
)

// addWorkflowCommands adds the commands for the common jobs.
func (a *app) addWorkflowCommands(root *cobra.Command) {
	root.AddCommand(a.projectsCommand(), a.scenariosCommand(), a.experimentsCommand(), a.importCommand(), a.runCommand(),
		a.statusCommand(), a.resultsCommand(), a.exportCommand(), a.batchCommand(), a.serveFakeCommand())
}

func (a *app) projectsCommand() *cobra.Command {
	var format *string
	cmd := &cobra.Command{
		Use:     "projects [--format table|json]",
		Short:   "List the projects you can access",
		Example: "  scm projects\n  scm projects --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkListFormat(*format); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Projects.List(cmd.Context())
			if err != nil {
				return err
			}
			return a.printList(*format, list, func() error {
				tw := a.table("ID", "NAME", "OPEN")
				for _, p := range list {
					fmt.Fprintf(tw, "%d\t%s\t%s\n", p.Id, p.Name, yesNo(p.CurrentUserId != nil))
				}
				return tw.Flush()
			})
		},
	}
	format = listFormat(cmd)
	return a.withTimeLimits(cmd)
}

func (a *app) scenariosCommand() *cobra.Command {
	var (
		projectID ids.ProjectID
		format    *string
	)
	cmd := &cobra.Command{
		Use:     "scenarios --project ID [--format table|json]",
		Short:   "List the scenarios of a project",
		Example: "  scm scenarios --project 1",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkListFormat(*format); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Scenarios.List(cmd.Context(), projectID)
			if err != nil {
				return err
			}
			return a.printList(*format, list, func() error {
				tw := a.table("ID", "NAME", "TYPE")
				for _, s := range list {
					fmt.Fprintf(tw, "%d\t%s\t%s\n", s.Id, scenarioName(s), s.Type)
				}
				return tw.Flush()
			})
		},
	}
	format = listFormat(cmd)
	idVar(cmd, &projectID, "project", "project id (required)")
	_ = cmd.MarkFlagRequired("project")
	return a.withTimeLimits(cmd)
}

func (a *app) experimentsCommand() *cobra.Command {
	var (
		projectID  ids.ProjectID
		scenarioID ids.ScenarioID
		format     *string
	)
	cmd := &cobra.Command{
		Use:   "experiments --project ID --scenario ID [--format table|json]",
		Short: "List the run configurations of a scenario: an rcId per experiment type",
		Long: `experiments lists the experiments of a scenario, one run configuration each:
its rcId (the id scm run takes), its type, its name (an i18n key on a real
server), and its status and validation status.`,
		Example: "  scm experiments --project 1 --scenario 103",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkListFormat(*format); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Experiments.List(cmd.Context(), projectID, scenarioID)
			if err != nil {
				return err
			}
			return a.printList(*format, list, func() error {
				tw := a.table("RCID", "TYPE", "NAME", "STATUS", "VALIDATION")
				for _, e := range list {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.Id, e.Type, orDash(e.Name), orDash(string(e.Status)), orDash(string(e.ValidationStatus)))
				}
				return tw.Flush()
			})
		},
	}
	format = listFormat(cmd)
	idVar(cmd, &projectID, "project", "project id (required)")
	idVar(cmd, &scenarioID, "scenario", "scenario id (required)")
	_ = cmd.MarkFlagRequired("project")
	_ = cmd.MarkFlagRequired("scenario")
	return a.withTimeLimits(cmd)
}

func (a *app) statusCommand() *cobra.Command {
	var rcID ids.RcID
	return a.withTimeLimits(&cobra.Command{
		Use:   "status RCID",
		Short: "Show whether a run configuration has a run under way",
		Long: `status says whether the running configuration RCID has a run under way, by
the rule the SDK's waits follow: "running" (with its progress when the server
reports some); "idle (last run FINISHED)", FAILED with the server's text, or
STOPPED; or "unknown: never run, or its first run under way", as a real server
shows both alike. A real server shows a run under way only as finished false
after an end, so status reads the configuration's scenario, the runs it lists
and the project that holds it (getProjects, getExperiments) to tell.`,
		Example: "  scm status 10303",
		Args:    oneID(&rcID),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.showStatus(cmd.Context(), rcID)
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

// listFormat adds --format to a list command: table (the default) or json,
// the list as the server answered it.
func listFormat(cmd *cobra.Command) *string {
	format := new(string)
	cmd.Flags().StringVar(format, "format", "table", "table, or json: the list as the server answered it")
	return format
}

// checkListFormat refuses a --format a list command does not write, before
// anything is sent.
func checkListFormat(format string) error {
	if format != "table" && format != "json" {
		return usagef("--format %q: want table or json", format)
	}
	return nil
}

// printList writes a list as JSON (an indented array) or as table writes it.
func (a *app) printList(format string, items any, table func() error) error {
	if format == "table" {
		return table()
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(items)
}
