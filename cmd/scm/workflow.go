package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// addWorkflowCommands adds the commands for the common jobs.
func (a *app) addWorkflowCommands(root *cobra.Command) {
	root.AddCommand(a.projectsCommand(), a.scenariosCommand(), a.experimentsCommand(), a.importCommand(), a.runCommand(),
		a.statusCommand(), a.resultsCommand(), a.exportCommand(), a.batchCommand(), a.serveFakeCommand())
}

func (a *app) projectsCommand() *cobra.Command {
	var out *listOutput
	cmd := &cobra.Command{
		Use:     "projects [--format table|json|jsonl|csv] [-o PATH]",
		Short:   "List the projects you can access",
		Example: "  scm projects\n  scm projects --format json",
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
			l := listTable{items: list, header: []string{"ID", "NAME", "OPEN"}}
			for _, p := range list {
				l.add(numberCell(p.Id), textCell(p.Name), textCell(yesNo(p.CurrentUserId != nil)))
			}
			return out.write(l)
		},
	}
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

func (a *app) scenariosCommand() *cobra.Command {
	var (
		projectID ids.ProjectID
		out       *listOutput
	)
	cmd := &cobra.Command{
		Use:     "scenarios PROJECT [--format table|json|jsonl|csv] [-o PATH]",
		Short:   "List the scenarios of a project",
		Example: "  scm scenarios 1",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Scenarios.List(cmd.Context(), projectID)
			if err != nil {
				return err
			}
			l := listTable{items: list, header: []string{"ID", "NAME", "TYPE"}}
			for _, s := range list {
				l.add(numberCell(s.Id), textCell(scenarioName(s)), textCell(string(s.Type)))
			}
			return out.write(l)
		},
	}
	idArg(cmd, &projectID, "project")
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

func (a *app) experimentsCommand() *cobra.Command {
	var (
		projectID  ids.ProjectID
		scenarioID ids.ScenarioID
		out        *listOutput
	)
	cmd := &cobra.Command{
		Use:   "experiments SCENARIO --project PROJECT [--format table|json|jsonl|csv] [-o PATH]",
		Short: "List the run configurations of a scenario: an rcId per experiment type",
		Long: `experiments lists the experiments of a scenario, one run configuration each:
its rcId (the id scm run takes), its type, its name (an i18n key on a real
server), and its status and validation status. The server reads a scenario
within its project: --project names it (scm scenarios PROJECT lists a
project's scenarios).`,
		Example: "  scm experiments 103 --project 1",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			list, err := c.Experiments.List(cmd.Context(), projectID, scenarioID)
			if err != nil {
				return err
			}
			l := listTable{items: list, header: []string{"RCID", "TYPE", "NAME", "STATUS", "VALIDATION"}}
			for _, e := range list {
				l.add(numberCell(e.Id), textCell(string(e.Type)), textCell(orDash(e.Name)), textCell(orDash(string(e.Status))), textCell(orDash(string(e.ValidationStatus))))
			}
			return out.write(l)
		},
	}
	idArg(cmd, &scenarioID, "scenario")
	idVar(cmd, &projectID, "project", "the scenario's project (required)")
	_ = cmd.MarkFlagRequired("project")
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

// runStatus is what scm status writes as json, jsonl or csv.
type runStatus struct {
	RcID           ids.RcID            `json:"rcId"`
	Activity       string              `json:"activity"` // running, idle or unknown, by the rule the SDK's waits follow
	State          string              `json:"state"`    // the state the server shows (facade.RunStateValue)
	Line           string              `json:"-"`        // what the table shows
	ExecutionState *gen.ExecutionState `json:"executionState,omitempty"`
}

func (a *app) statusCommand() *cobra.Command {
	var (
		rcID ids.RcID
		out  *listOutput
	)
	cmd := &cobra.Command{
		Use:   "status RCID [--format table|json|jsonl|csv] [-o PATH]",
		Short: "Show whether a run configuration has a run under way",
		Long: `status says whether the running configuration RCID has a run under way, by
the rule the SDK's waits follow: "running" (with its progress when the server
reports some); "idle (last run FINISHED)", FAILED with the server's text, or
STOPPED; or "unknown: never run, or its first run under way", as a real server
shows both alike. A real server shows a run under way only as finished false
after an end, so status reads the configuration's scenario, the runs it lists
and the project that holds it (getProjects, getExperiments) to tell.`,
		Example: "  scm status 10303\n  scm status 10303 --format json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.readStatus(cmd.Context(), rcID)
			if err != nil {
				return err
			}
			switch out.format {
			case formatJSON, formatJSONL:
				return out.writeObject(s)
			case formatCSV:
				l := listTable{header: []string{"rcId", "activity", "state"}}
				l.add(numberCell(rcID), textCell(s.Activity), textCell(s.State))
				return out.write(l)
			}
			_, err = fmt.Fprintf(a.stdout, "rcId %d: %s\n", rcID, s.Line)
			return err
		},
	}
	idArg(cmd, &rcID, "")
	out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

// writeObject writes one object: indented for json, on one line for
// jsonl.
func (o *output) writeObject(v any) error {
	enc := json.NewEncoder(o.a.stdout)
	if o.format == formatJSON {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
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
