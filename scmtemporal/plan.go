package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/batch"
)

// PlanOptions say how [StartPlan] starts a plan's workflows.
type PlanOptions struct {
	// TaskQueue is the workers' task queue; empty means DefaultTaskQueue.
	TaskQueue string
	// IDPrefix begins each workflow's id, which ends with the item's name;
	// empty means "scm-<plan file name without extension>-".
	IDPrefix string
	// DataDir, when set, is the directory each item's result data is
	// written to, as <item>.csv, or with DataExt: ".csv", ".jsonl" or
	// ".ndjson", nothing else.
	DataDir string
	DataExt string
	// Item are the options of every item's workflow.
	Item Options
}

func (o PlanOptions) taskQueue() string {
	if o.TaskQueue == "" {
		return DefaultTaskQueue
	}
	return o.TaskQueue
}

func (o PlanOptions) idPrefix(plan *batch.Plan) string {
	if o.IDPrefix != "" {
		return o.IDPrefix
	}
	base := filepath.Base(plan.File)
	return "scm-" + strings.TrimSuffix(base, filepath.Ext(base)) + "-"
}

// ItemsFromPlan turns the items of a batch plan into workflow inputs, with
// absolute paths (which the workers must see: one machine, or shared
// storage). The plan, read from a file or built in code, is checked by
// batch.Plan.Check's rules, as batch.ReadPlan checks a file: names, the
// limits of texts and paths, exports under the plan's directory unless
// plan.AllowOutside, no file written by two items, the data files
// included (each under DataDir). A plan whose items share a run
// configuration (batch.Plan.SharedRunConfigurations) is refused: their
// workflows would run it at once, and the server's status could not tell
// their runs apart; `scm batch` queues such items.
func ItemsFromPlan(plan *batch.Plan, opts PlanOptions) ([]ItemInput, error) {
	if plan == nil {
		return nil, errors.New("scmtemporal: ItemsFromPlan: plan is nil")
	}
	if err := checkDataExt(opts.DataExt); err != nil {
		return nil, err
	}
	var files []batch.ItemFiles
	if opts.DataDir != "" {
		files = append(files, batch.ItemFiles{Dir: opts.DataDir, Ext: opts.dataExt(), Setting: "PlanOptions.DataDir"})
	}
	if err := plan.Check(files...); err != nil {
		return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: %w", err)
	}
	if notes := plan.SharedRunConfigurations(); len(notes) > 0 {
		return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: %s: items share a run configuration, whose runs overlapping workflows could not tell apart; run the plan with scm batch, which queues them, or split it: %s",
			plan.File, notes[0])
	}
	items := make([]ItemInput, 0, len(plan.Items))
	for _, it := range plan.Items {
		in, err := itemFromPlan(it, opts)
		if err != nil {
			return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: item %s: %w", it.Name, err)
		}
		items = append(items, in)
	}
	return items, nil
}

func itemFromPlan(it batch.Item, opts PlanOptions) (ItemInput, error) {
	in := ItemInput{Name: it.Name, ProjectID: it.Project, ScenarioName: it.ScenarioName, Tables: it.Tables,
		Formulas: it.Formulas, ImportExperiments: it.ImportExperiments, ScenarioID: it.Scenario,
		Experiment: it.Experiment, ExperimentName: it.ExperimentName, Options: opts.Item}
	var err error
	if in.Workbook, err = absolute(it.WorkbookPath); err != nil {
		return in, err
	}
	if in.Dashboard, err = absolute(it.DashboardPath); err != nil {
		return in, err
	}
	if opts.DataDir != "" {
		in.Data, err = absolute(filepath.Join(opts.DataDir, it.Name+opts.dataExt()))
	}
	return in, err
}

// dataExt is the extension of the data files.
func (o PlanOptions) dataExt() string {
	if o.DataExt == "" {
		return ".csv"
	}
	return o.DataExt
}

// checkDataExt refuses an extension that is not one of a format the
// activities write, alone: "/../../x.csv" names a format, and a file
// elsewhere.
func checkDataExt(ext string) error {
	if ext == "" || filepath.Ext("x"+ext) == ext && batch.FormatOf("x"+ext) != nil {
		return nil
	}
	return fmt.Errorf("scmtemporal: ItemsFromPlan: PlanOptions.DataExt %q: want .csv, .jsonl or .ndjson", ext)
}

func absolute(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	return filepath.Abs(path)
}

// PlanRun is a plan whose workflows were started.
type PlanRun struct {
	// Items are the plan's items as started, in the plan's order.
	Items  []StartedItem
	c      client.Client
	runs   []client.WorkflowRun
	inputs []ItemInput
}

// StartedItem is an item's workflow.
type StartedItem struct {
	Name       string
	WorkflowID string
	RunID      string
}

// StartPlan starts a workflow per item of the plan ([ItemWorkflow]), with
// an id made of the prefix and the item's name: started again, it attaches
// to the workflows under way, keeps those done, and starts again only an
// item whose workflow failed, was cancelled or timed out.
func StartPlan(ctx context.Context, c client.Client, plan *batch.Plan, opts PlanOptions) (*PlanRun, error) {
	items, err := ItemsFromPlan(plan, opts)
	if err != nil {
		return nil, err
	}
	pr := &PlanRun{c: c}
	prefix := opts.idPrefix(plan)
	for _, in := range items {
		wo := client.StartWorkflowOptions{ID: prefix + in.Name, TaskQueue: opts.taskQueue(),
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}
		run, err := c.ExecuteWorkflow(ctx, wo, ItemWorkflow, in)
		if err != nil {
			return pr, fmt.Errorf("scmtemporal: StartPlan: item %s: %w", in.Name, err)
		}
		pr.runs, pr.inputs = append(pr.runs, run), append(pr.inputs, in)
		pr.Items = append(pr.Items, StartedItem{Name: in.Name, WorkflowID: run.GetID(), RunID: run.GetRunID()})
	}
	return pr, nil
}

// Cancel asks every workflow of the plan to cancel: each stops waiting,
// and stops its run when its Options.StopOnCancel say so.
func (p *PlanRun) Cancel(ctx context.Context) error {
	var errs []error
	for _, r := range p.runs {
		if err := p.c.CancelWorkflow(ctx, r.GetID(), r.GetRunID()); err != nil {
			errs = append(errs, fmt.Errorf("cancelling %s: %w", r.GetID(), err))
		}
	}
	return errors.Join(errs...)
}

// Wait waits for every workflow of the plan and returns their summary, in
// the plan's order. An error of the wait itself (the service cutting its
// long poll, a connection lost) is not the item's: the wait goes on, up
// to maxWaitFailures such errors in a row. When ctx ends first, or the
// waits keep failing, it returns the summary with every item not seen
// ending as [ItemNotEnded], and the error.
func (p *PlanRun) Wait(ctx context.Context) (*Summary, error) {
	s := &Summary{}
	var waitErr error
	for i, r := range p.runs {
		out := ItemOutcome{StartedItem: p.Items[i], Result: ItemResult{Name: p.inputs[i].Name, ScenarioID: p.inputs[i].ScenarioID}, Status: ItemNotEnded}
		if waitErr == nil {
			var ended error
			if ended, waitErr = waitFor(ctx, r, &out.Result); waitErr == nil {
				out.Err, out.Status = ended, statusOf(ended)
			}
		}
		s.Items = append(s.Items, out)
	}
	return s, waitErr
}

// maxWaitFailures bounds the errors in a row of the wait for one workflow
// that are the wait's own, not the workflow's.
const maxWaitFailures = 10

// waitFor waits for a workflow's end and returns how it ended (nil: done;
// else the workflow's error). The second error is the wait's own: ctx
// ended, or the service kept failing the wait.
func waitFor(ctx context.Context, r client.WorkflowRun, res *ItemResult) (ended, waitErr error) {
	pause := time.Duration(0)
	for failures := 1; ; failures++ {
		err := r.Get(ctx, res)
		var svcErr serviceerror.ServiceError
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("scmtemporal: waiting for %s: %w", r.GetID(), ctx.Err())
		case err == nil || !errors.As(err, &svcErr):
			return err, nil
		case failures == maxWaitFailures:
			return nil, fmt.Errorf("scmtemporal: waiting for %s failed %d times in a row: %w", r.GetID(), failures, err)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("scmtemporal: waiting for %s: %w", r.GetID(), ctx.Err())
		case <-t.C:
		}
		pause = min(max(2*pause, time.Second), 30*time.Second)
	}
}

// ItemStatus is how an item's workflow ended.
type ItemStatus string

// The ends of an item.
const (
	ItemDone ItemStatus = "done"
	// ItemUnknown: whether a start whose answer was lost took effect cannot
	// be told; the error says what to check on the server.
	ItemUnknown   ItemStatus = "unknown"
	ItemFailed    ItemStatus = "failed"
	ItemCancelled ItemStatus = "cancelled"
	// ItemNotEnded: Wait returned before the item's workflow was seen to
	// end (its context ended, or the service kept failing the wait); the
	// workflow may still be running.
	ItemNotEnded ItemStatus = "not ended"
)

func statusOf(err error) ItemStatus {
	var appErr *temporal.ApplicationError
	switch {
	case err == nil:
		return ItemDone
	case temporal.IsCanceledError(err):
		return ItemCancelled
	case errors.As(err, &appErr) && appErr.Type() == ErrTypeStartUnknown:
		return ItemUnknown
	}
	return ItemFailed
}

// ItemOutcome is how an item ended: its result, or the error its
// workflow failed with (and of the result only the item's name and, when
// the plan names one, its scenario).
type ItemOutcome struct {
	StartedItem
	Status ItemStatus
	Result ItemResult
	Err    error
}

// Summary is how a plan's items ended, in the plan's order.
type Summary struct {
	Items []ItemOutcome
}

// Count is how many items ended with the status.
func (s *Summary) Count(status ItemStatus) int {
	n := 0
	for _, it := range s.Items {
		if it.Status == status {
			n++
		}
	}
	return n
}

// Err is nil when every item is done, else an error counting the others.
func (s *Summary) Err() error {
	if done := s.Count(ItemDone); done < len(s.Items) {
		return fmt.Errorf("%d of %d items did not finish (%d failed, %d unknown, %d cancelled, %d not seen to end)",
			len(s.Items)-done, len(s.Items), s.Count(ItemFailed), s.Count(ItemUnknown), s.Count(ItemCancelled), s.Count(ItemNotEnded))
	}
	return nil
}

// WriteTable writes the summary as a table: a row per item with its
// workflow, status, scenario, result, outputs and error.
func (s *Summary) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSTATUS\tSCENARIO\tRESULT\tOUTPUTS\tERROR")
	for _, it := range s.Items {
		msg := ""
		if it.Err != nil {
			msg = it.Err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", it.WorkflowID, it.Status, it.Result.ScenarioID, it.Result.ExperimentResultID,
			strings.Join(it.Result.Outputs, ", "), msg)
	}
	return tw.Flush()
}
