package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/scmodel/scmgo/batch"
)

// PlanOptions say how [StartPlan] starts a plan's workflows.
type PlanOptions struct {
	// TaskQueue is the workers' task queue; empty means DefaultTaskQueue.
	TaskQueue string
	// IDPrefix begins each workflow's id, which ends with the item's name;
	// empty means "scm-<plan file name without extension>-".
	IDPrefix string
	// Data is the plan's dataset, as `scm batch --data` writes it: one
	// file of every item's result rows, in the format of DataFormat, nil
	// meaning the one its extension names (batch.FormatOf: .csv, .jsonl).
	// Each item writes its part, <Data>.parts/<item><ext>, where the
	// workers see it (with the format among their Activities.DataFormats);
	// [PlanRun.Wait] writes the dataset from the parts of the items done.
	Data       string
	DataFormat *batch.DataFormat
	// Item are the options of every item's workflow.
	Item Options
	// Progress, when set, is called by [PlanRun.Wait] with the summary so
	// far each time an item ends (items not yet seen to end are
	// ItemNotEnded), one call at a time.
	Progress func(*Summary)
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

// dataFormat is the format of the plan's dataset, nil when it has none.
func (o PlanOptions) dataFormat() (*batch.DataFormat, error) {
	if o.Data == "" {
		return nil, nil
	}
	f := o.DataFormat
	if f == nil {
		if f = batch.FormatOf(o.Data); f == nil {
			return nil, fmt.Errorf("scmtemporal: PlanOptions.Data %s: the extension %q names no format built in (.csv, .jsonl, .ndjson); set PlanOptions.DataFormat", o.Data, filepath.Ext(o.Data))
		}
	}
	if f.Name == "" || f.Ext == "" || f.NewWriter == nil || f.Concat == nil || filepath.Ext("x"+f.Ext) != f.Ext {
		return nil, errors.New("scmtemporal: PlanOptions.DataFormat needs a Name, an Ext (a dot and letters), a NewWriter and a Concat")
	}
	return f, nil
}

// ItemsFromPlan turns the items of a batch plan into workflow inputs, with
// absolute paths (which the workers must see: one machine, or shared
// storage mounted at the same path). The plan, read from a file or built
// in code, is checked by batch.Plan.Check's rules, as batch.ReadPlan
// checks a file, the dataset's parts included. A plan whose items share a
// run configuration (batch.Plan.SharedRunConfigurations) is refused: their
// workflows would run it at once, and the server's status could not tell
// their runs apart; `scm batch` queues such items.
func ItemsFromPlan(plan *batch.Plan, opts PlanOptions) ([]ItemInput, error) {
	if plan == nil {
		return nil, errors.New("scmtemporal: ItemsFromPlan: plan is nil")
	}
	parts, err := opts.partsDir()
	if err != nil {
		return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: %w", err)
	}
	if err := checkPlan(plan, parts); err != nil {
		return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: %w", err)
	}
	items := make([]ItemInput, 0, len(plan.Items))
	for _, it := range plan.Items {
		in, err := itemFromPlan(it, opts, parts)
		if err != nil {
			return nil, fmt.Errorf("scmtemporal: ItemsFromPlan: item %s: %w", it.Name, err)
		}
		items = append(items, in)
	}
	return items, nil
}

// checkPlan checks the plan, with the parts of its dataset when it has one.
func checkPlan(plan *batch.Plan, parts *batch.ItemFiles) error {
	var files []batch.ItemFiles
	if parts != nil {
		files = append(files, *parts)
	}
	if err := plan.Check(files...); err != nil {
		return err
	}
	if parts != nil {
		if err := namesDifferInCase(plan); err != nil {
			return err
		}
	}
	if notes := plan.SharedRunConfigurations(); len(notes) > 0 {
		return fmt.Errorf("%s: items share a run configuration, whose runs overlapping workflows could not tell apart; run the plan with scm batch, which queues them, or split it: %s",
			plan.File, notes[0])
	}
	return nil
}

// namesDifferInCase refuses items whose names differ only in case: on a
// file system that ignores case, their parts of the dataset would be one
// file.
func namesDifferInCase(plan *batch.Plan) error {
	seen := map[string]batch.Item{}
	for _, it := range plan.Items {
		if other, ok := seen[strings.ToLower(it.Name)]; ok && other.Name != it.Name {
			return fmt.Errorf("%s:%d: item %q and item %q at line %d differ only in case: their parts of the dataset would be one file where case is ignored; rename one",
				plan.File, it.Line, it.Name, other.Name, other.Line)
		}
		seen[strings.ToLower(it.Name)] = it
	}
	return nil
}

// partsDir is where the items write their parts of the dataset, nil when
// the plan has none.
func (o PlanOptions) partsDir() (*batch.ItemFiles, error) {
	f, err := o.dataFormat()
	if f == nil || err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(o.Data)
	if err != nil {
		return nil, err
	}
	return &batch.ItemFiles{Dir: abs + ".parts", Ext: f.Ext, Setting: "PlanOptions.Data"}, nil
}

func itemFromPlan(it batch.Item, opts PlanOptions, parts *batch.ItemFiles) (ItemInput, error) {
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
	if parts != nil {
		in.Data = filepath.Join(parts.Dir, it.Name+parts.Ext)
	}
	return in, nil
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
	opts   PlanOptions
	plan   *batch.Plan
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
	pr := &PlanRun{c: c, opts: opts, plan: plan}
	prefix := opts.idPrefix(plan)
	for _, in := range items {
		wo := client.StartWorkflowOptions{ID: prefix + in.Name, TaskQueue: opts.taskQueue(),
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}
		run, err := c.ExecuteWorkflow(ctx, wo, WorkflowName, in)
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
