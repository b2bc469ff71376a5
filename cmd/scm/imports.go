package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

func (a *app) importCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import scenarios",
		Args:  noArgs,
	}
	cmd.AddCommand(a.importExcelCommand())
	return cmd
}

func (a *app) importExcelCommand() *cobra.Command {
	var (
		projectID    ids.ProjectID
		name         string
		wait, cancel bool
		opts         facade.ImportOptions
	)
	cmd := &cobra.Command{
		Use:   "excel FILE --project ID --name NAME [--wait]",
		Short: "Import a workbook into a new scenario",
		Long: `excel uploads a workbook (streamed, never held in memory) and starts an
import job into a new scenario. With --wait it shows the job's progress and
prints the new scenario's id. Ctrl-C stops waiting; with --cancel-on-interrupt
it also cancels the job. The new scenario exists once the job is DONE; with
--skip-experiments a real server imports the tables and creates no scenario.`,
		Example: "  scm import excel network.xlsx --project 1 --name Base --wait",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("import excel: want one workbook file, have %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := os.Stat(args[0]); err != nil {
				return usagef("import excel: %v", err)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			job, err := c.Imports.Excel(cmd.Context(), projectID, name, facade.UploadFile(args[0]), &opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Import job %d started.\n", job.JobID)
			if !wait {
				return nil
			}
			return a.waitJob(cmd, job, cancel)
		},
	}
	f := cmd.Flags()
	idVar(cmd, &projectID, "project", "project id (required)")
	f.StringVar(&name, "name", "", "name of the new scenario (required)")
	f.BoolVar(&wait, "wait", false, "wait until the job ends, showing its progress")
	f.BoolVar(&cancel, "cancel-on-interrupt", false, "with --wait: Ctrl-C also cancels the job")
	f.StringSliceVar(&opts.Tables, "tables", nil, "import only these tables (sheet names), comma separated")
	f.BoolVar(&opts.ContainsFormulas, "formulas", false, "the workbook contains formulas")
	f.BoolVar(&opts.SkipExperiments, "skip-experiments", false, "send needToImportExperiments=false (a real server then creates no scenario)")
	_ = cmd.MarkFlagRequired("project")
	_ = cmd.MarkFlagRequired("name")
	return a.withTimeLimits(cmd)
}

func (a *app) waitJob(cmd *cobra.Command, job *facade.Job, cancel bool) error {
	ctx := cmd.Context()
	opts := interactivePoll()
	opts.StopOnCancel = cancel
	defer a.announceStop(ctx, cancel, "Cancelling import job %s...", job.JobID)()
	if err := a.showJob(ctx, job, opts); err != nil {
		return a.waitError(ctx, "import job", job.JobID, cancel, err)
	}
	final, err := job.Result()
	if err != nil {
		return err
	}
	if final.ScenarioId == nil {
		fmt.Fprintf(a.stdout, "Import job %d: %s, no scenario (the server made none: it does so only when the import takes experiments).\n", job.JobID, final.Status)
		return nil
	}
	fmt.Fprintf(a.stdout, "Import job %d: %s, scenario %d.\n", job.JobID, final.Status, *final.ScenarioId)
	return nil
}
