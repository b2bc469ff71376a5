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

// importOutcome is what scm import excel writes as json or jsonl.
type importOutcome struct {
	JobID      ids.JobID       `json:"jobId"`
	Status     string          `json:"status,omitempty"`
	ScenarioID *ids.ScenarioID `json:"scenarioId,omitempty"`
}

func (a *app) importExcelCommand() *cobra.Command {
	var (
		projectID    ids.ProjectID
		file, name   string
		wait, cancel bool
		opts         facade.ImportOptions
		out          *output
	)
	cmd := &cobra.Command{
		Use:   "excel PROJECT FILE --name NAME [--wait] [--format table|json|jsonl] [-o PATH]",
		Short: "Import a workbook into a new scenario of a project",
		Long: `excel uploads a workbook (streamed, never held in memory) and starts an
import job into a new scenario of the project PROJECT. With --wait it shows
the job's progress and prints the new scenario's id. Ctrl-C stops waiting;
with --cancel-on-interrupt it also cancels the job. The new scenario exists
once the job is DONE; with --skip-experiments a real server imports the
tables and creates no scenario. --format json writes the job's id, its
state and the new scenario's id as one JSON object (jsonl: on one line).`,
		Example: "  scm import excel 1 network.xlsx --name Base --wait",
		Args: func(c *cobra.Command, args []string) error {
			return importArgs(c, args, &projectID, &file)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := os.Stat(file); err != nil {
				return usagef("import excel: %v", err)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			job, err := c.Imports.Excel(cmd.Context(), projectID, name, facade.UploadFile(file), &opts)
			if err != nil {
				return err
			}
			if out.format == formatTable || !wait {
				a.say(out.format, "Import job %d started.\n", job.JobID)
			}
			if !wait {
				return a.writeImport(out.format, importOutcome{JobID: job.JobID})
			}
			return a.waitJob(cmd, job, cancel, out.format)
		},
	}
	setAnnotation(cmd, annotationIDArg, ids.Name[ids.ProjectID]())
	f := cmd.Flags()
	idVar(cmd, &projectID, "project", "the projectId (former form of the argument)")
	_ = f.MarkDeprecated("project", "give the projectId as the first argument (scm import excel 1 network.xlsx --name Base --wait); it goes in the next release")
	f.StringVar(&name, "name", "", "name of the new scenario (required)")
	f.BoolVar(&wait, "wait", false, "wait until the job ends, showing its progress")
	f.BoolVar(&cancel, "cancel-on-interrupt", false, "with --wait: Ctrl-C also cancels the job")
	f.StringSliceVar(&opts.Tables, "tables", nil, "import only these tables (sheet names), comma separated")
	f.BoolVar(&opts.ContainsFormulas, "formulas", false, "the workbook contains formulas")
	f.BoolVar(&opts.SkipExperiments, "skip-experiments", false, "send needToImportExperiments=false (a real server then creates no scenario)")
	_ = cmd.MarkFlagRequired("name")
	out = a.withOutput(cmd, formatTable, formatJSON, formatJSONL)
	return a.withTimeLimits(cmd)
}

// importArgs takes the project and the workbook: PROJECT FILE, or FILE
// with --project, the former form.
func importArgs(c *cobra.Command, args []string, project *ids.ProjectID, file *string) error {
	if c.Flags().Changed("project") {
		if len(args) != 1 {
			return usagef("with --project, want one workbook file, have %d arguments", len(args))
		}
		*file = args[0]
		return nil
	}
	if len(args) != 2 {
		return usagef("want a projectId and a workbook file, have %d arguments", len(args))
	}
	id, err := ids.Parse[ids.ProjectID](args[0])
	if err != nil {
		return usageError{err}
	}
	*project, *file = id, args[1]
	return nil
}

// say writes a line of what happens: on standard output for a table, on
// standard error when standard output holds JSON.
func (a *app) say(f format, line string, args ...any) {
	w := a.stdout
	if f != formatTable {
		w = a.stderr
	}
	fmt.Fprintf(w, line, args...)
}

// writeImport writes an import's outcome as json or jsonl; a table said
// it already.
func (a *app) writeImport(f format, out importOutcome) error {
	if f == formatTable {
		return nil
	}
	return (&output{a: a, format: f}).writeObject(out)
}

func (a *app) waitJob(cmd *cobra.Command, job *facade.Job, cancel bool, f format) error {
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
		a.say(f, "Import job %d: %s, no scenario (the server made none: it does so only when the import takes experiments).\n", job.JobID, final.Status)
	} else {
		a.say(f, "Import job %d: %s, scenario %d.\n", job.JobID, final.Status, *final.ScenarioId)
	}
	return a.writeImport(f, importOutcome{JobID: job.JobID, Status: string(final.Status), ScenarioID: final.ScenarioId})
}
