package itemflow

import (
	"path/filepath"
	"time"

	"github.com/scmodel/scmgo/batch"
)

// ItemInput is one item of a plan, as the workflow takes it: paths are
// those the workers see.
type ItemInput struct {
	Name      string
	ProjectID int64

	// Workbook is imported as a new scenario named ScenarioName; empty
	// when ScenarioID names an existing scenario.
	Workbook          string
	ScenarioName      string
	Tables            []string
	Formulas          bool
	ImportExperiments bool
	ScenarioID        int64

	Experiment     string // the experiment type, such as SIMULATION
	ExperimentName string // picks one of several experiments of the type

	// Dashboard is the workbook every dashboard page is exported to;
	// empty exports nothing.
	Dashboard string

	// HeartbeatTimeout is the heartbeat timeout of the long activities:
	// a worker silent for longer is taken for dead and the activity is
	// retried elsewhere. Zero means DefaultHeartbeatTimeout.
	HeartbeatTimeout time.Duration
}

// DefaultHeartbeatTimeout is the heartbeat timeout of the long activities
// when ItemInput.HeartbeatTimeout is zero.
const DefaultHeartbeatTimeout = 30 * time.Second

// InputFromPlan turns an item of a batch plan into the workflow's input,
// with absolute paths.
func InputFromPlan(it batch.Item) (ItemInput, error) {
	in := ItemInput{Name: it.Name, ProjectID: it.Project, ScenarioName: it.ScenarioName, Tables: it.Tables,
		Formulas: it.Formulas, ImportExperiments: it.ImportExperiments, ScenarioID: it.Scenario,
		Experiment: string(it.Experiment), ExperimentName: it.ExperimentName}
	var err error
	if it.WorkbookPath != "" {
		if in.Workbook, err = filepath.Abs(it.WorkbookPath); err != nil {
			return in, err
		}
	}
	if it.DashboardPath != "" {
		if in.Dashboard, err = filepath.Abs(it.DashboardPath); err != nil {
			return in, err
		}
	}
	return in, nil
}

// ItemResult is what a finished item produced.
type ItemResult struct {
	Name               string
	ScenarioID         int64
	RcID               int64
	RunID              int64
	ExperimentResultID int64
	Outputs            []string
}

// ImportInput is the input of ImportScenario. Known are the scenarios that
// had the name before: a scenario of the name not among them is the
// import's.
type ImportInput struct {
	ProjectID         int64
	ScenarioName      string
	Workbook          string
	Tables            []string
	Formulas          bool
	ImportExperiments bool
	Known             []int64
}

// ImportProgress is the heartbeat of ImportScenario: its job and progress.
type ImportProgress struct {
	JobID    int64
	Status   string
	Progress float64
}

// FindInput is the input of FindExperiment.
type FindInput struct {
	ProjectID      int64
	ScenarioID     int64
	Experiment     string
	ExperimentName string
}

// Experiment is an experiment to run and its latest run before the
// workflow starts one (0 when it never ran): a later run is the
// workflow's.
type Experiment struct {
	RcID          int64
	PreviousRunID int64
}

// RunInput is the input of RunExperiment.
type RunInput struct {
	ScenarioID    int64
	RcID          int64
	PreviousRunID int64
}

// RunProgress is the heartbeat of RunExperiment: the run it started (or
// found started) and its progress.
type RunProgress struct {
	RcID     int64
	Started  bool
	RunID    int64
	State    string
	Progress float64
}

// RunOutput is what RunExperiment returns.
type RunOutput struct {
	RunID              int64
	ExperimentResultID int64
	State              string
}

// StopInput is the input of StopExperiment: the experiment, its scenario
// and its run before the workflow's.
type StopInput struct {
	ScenarioID    int64
	RcID          int64
	PreviousRunID int64
}

// ExportInput is the input of ExportDashboard.
type ExportInput struct {
	ExperimentResultID int64
	Path               string
}

// ExportProgress is the heartbeat of ExportDashboard.
type ExportProgress struct {
	Page, Total int
	Written     bool
}
