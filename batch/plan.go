package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Plan is a batch: the items to run, read from a YAML file by [ReadPlan].
type Plan struct {
	// File is the plan's path as given; the state file goes beside it.
	File string
	// Dir is the plan's directory: relative paths in the plan are
	// relative to it.
	Dir string
	// Project is the default project of the items; zero when not given.
	Project ids.ProjectID
	// Output is the directory of the exports as written in the plan,
	// relative to Dir; empty means Dir itself.
	Output string
	// AllowOutside lets exports be written outside Dir (an output or a
	// dashboard path that leaves it); false refuses such a plan
	// ([ErrOutside]). A plan file sets it with allowOutside: true.
	AllowOutside bool
	// MaxRunLength and StaleWindow are the bounds the plan declares for
	// its items' runs (maxRunLength, staleWindow): the longest a run takes,
	// and how long the server's status may lag behind a start. An item's
	// own hold over them, and they over [Options]'. Zero: not declared.
	// See facade.WaitOptions for what each buys.
	MaxRunLength, StaleWindow time.Duration
	Items                     []Item
	// Notes are remarks on the plan that are not mistakes: items that
	// share a run configuration, whose runs queue.
	Notes []PlanNote

	outputLine int // the line of output
}

// Item is one what-if variant: a scenario (imported from a workbook, or an
// existing one), the experiment to run on it and what to export.
type Item struct {
	// Name identifies the item in the plan, the state file and the summary.
	Name string
	// Line is the item's line in the plan file.
	Line int
	// Project is the item's project, or the plan's.
	Project ids.ProjectID

	// Workbook is the workbook to import as a new scenario, as written in
	// the plan; WorkbookPath is where it is. Empty when Scenario is set.
	Workbook, WorkbookPath string
	// ScenarioName names the imported scenario; it defaults to Name.
	ScenarioName string
	// Tables are the sheets to import; empty means all.
	Tables []string
	// Formulas says the workbook contains formulas.
	Formulas bool
	// ImportExperiments imports the workbook's experiments too; for a
	// workbook, true unless the plan says otherwise, as the scenario needs
	// them to run.
	ImportExperiments bool

	// Scenario is an existing scenario to run; zero when Workbook is set.
	Scenario ids.ScenarioID

	// Experiment is the type of the experiment to run, and ExperimentName
	// its name when the scenario has several of that type.
	Experiment     gen.ExperimentType
	ExperimentName string

	// MaxRunLength and StaleWindow are the bounds the item declares
	// (maxRunLength, staleWindow), else its plan's ([ReadPlan] copies
	// them); zero: not declared. They change nothing the item asks for:
	// a resumed batch may declare others.
	MaxRunLength, StaleWindow time.Duration

	// Dashboard is the workbook every dashboard page of the result is
	// exported to, relative to the plan's directory; DashboardPath is where
	// it is. Empty when nothing is exported.
	Dashboard, DashboardPath string

	digest string
	// lines are the lines of the item's fields, by their key in the plan
	// ("name", "export.dashboard"), for errors.
	lines map[string]int
}

// Imports reports whether the item imports its scenario from a workbook.
func (it Item) Imports() bool { return it.Workbook != "" }

// Digest fingerprints what the item asks for, so that a state file is not
// resumed for an item that has changed since.
func (it Item) Digest() string { return it.digest }

func (it *Item) setDigest() {
	key := struct {
		Project                     ids.ProjectID
		Workbook, ScenarioName      string
		Tables                      []string
		Formulas, ImportExperiments bool
		Scenario                    ids.ScenarioID
		Experiment                  gen.ExperimentType
		ExperimentName, Dashboard   string
	}{it.Project, it.Workbook, it.ScenarioName, it.Tables, it.Formulas, it.ImportExperiments, it.Scenario,
		it.Experiment, it.ExperimentName, filepath.ToSlash(it.Dashboard)}
	b, _ := json.Marshal(key)
	sum := sha256.Sum256(b)
	it.digest = hex.EncodeToString(sum[:8])
}

// StatePath is the state file of the plan: beside it, named after it, with
// the extension .state.json (plan.yaml has plan.state.json).
func (p *Plan) StatePath() string {
	base := strings.TrimSuffix(filepath.Base(p.File), filepath.Ext(p.File))
	return filepath.Join(p.Dir, base+".state.json")
}

// ReadPlan reads and checks a plan file. Every mistake is reported, each as a
// [*PlanError] with its line and field, before anything is sent; the
// workbooks must exist. The rules of the items are [Plan.Check]'s; a file
// larger than [MaxPlanBytes] is refused ([ErrPlanTooLarge]).
func ReadPlan(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("batch: reading the plan: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPlanBytes+1))
	if err != nil {
		return nil, fmt.Errorf("batch: reading the plan: %w", err)
	}
	return ParsePlan(path, data)
}

// ParsePlan parses and checks the plan data read from path; see [ReadPlan].
func ParsePlan(path string, data []byte) (*Plan, error) {
	if len(data) > MaxPlanBytes {
		return nil, &PlanError{File: path, Reason: fmt.Sprintf("larger than batch.MaxPlanBytes (%d bytes): a plan this large is no plan a person wrote", MaxPlanBytes), Err: ErrPlanTooLarge}
	}
	p := &Plan{File: path, Dir: filepath.Dir(path)}
	r := &planReader{file: path}
	r.plan(p, data)
	if len(r.errs) > 0 {
		return nil, r.err()
	}
	return p, nil
}

// PlanError is a mistake in a plan: where it is and what is wrong.
type PlanError struct {
	File   string // empty for a plan built in code without one
	Line   int    // 1-based; 0 when the whole file is at fault, or the plan was built in code
	Field  string // the field's path, such as items[2].experiment
	Reason string
	// Err is the kind of mistake, one of the package's named errors
	// (ErrTooLong, ErrOutside, ...); nil for the others.
	Err error
}

func (e *PlanError) Error() string {
	where := e.File
	if e.Line > 0 {
		where += fmt.Sprintf(":%d", e.Line)
	}
	parts := make([]string, 0, 3)
	for _, s := range []string{where, e.Field, e.Reason} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

// Unwrap returns the kind of mistake, for errors.Is.
func (e *PlanError) Unwrap() error { return e.Err }
