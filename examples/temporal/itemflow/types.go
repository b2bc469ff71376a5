package itemflow

import (
	"path/filepath"
	"time"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/ids"
)

// ItemInput is one item of a plan, as the workflow takes it: paths are
// those the workers see.
type ItemInput struct {
	Name      string
	ProjectID ids.ProjectID

	// Workbook is imported as a new scenario named ScenarioName; empty
	// when ScenarioID names an existing scenario.
	Workbook          string
	ScenarioName      string
	Tables            []string
	Formulas          bool
	ImportExperiments bool
	ScenarioID        ids.ScenarioID

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
	ScenarioID         ids.ScenarioID
	RcID               ids.RcID
	RunID              ids.RunID
	ExperimentResultID ids.ExperimentResultID
	Outputs            []string
}

// ImportInput is the input of ImportScenario. Known are the scenarios that
// had the name before: a scenario of the name not among them is the
// import's.
type ImportInput struct {
	ProjectID         ids.ProjectID
	ScenarioName      string
	Workbook          string
	Tables            []string
	Formulas          bool
	ImportExperiments bool
	Known             []ids.ScenarioID
}

// ImportProgress is the heartbeat of ImportScenario: its job and progress.
type ImportProgress struct {
	JobID    ids.JobID
	Status   string
	Progress float64
}

// FindInput is the input of FindExperiment.
type FindInput struct {
	ProjectID      ids.ProjectID
	ScenarioID     ids.ScenarioID
	Experiment     string
	ExperimentName string
}

// Experiment is what FindExperiment returns: the experiment to run and
// the origin of the workflow's run, read before anything is started (the
// scenario's listed runs and whether a run had ended). Once it is in the
// workflow's history, every attempt of RunExperiment and StopExperiment
// tells the workflow's run from earlier ones by it.
type Experiment struct {
	RcID ids.RcID
	// Token is the run's resume token (facade.Run.ResumeToken).
	Token string
}

// RunInput is the input of RunExperiment: the resume token of the origin
// FindExperiment read.
type RunInput struct {
	Token string
}

// RunProgress is the heartbeat of RunExperiment. Token is the run's resume
// token; Sent says that a start was sent and may have taken effect,
// Started that it did. State is the run's state as last polled.
type RunProgress struct {
	Token   string
	Sent    bool
	Started bool
	State   string
}

// RunOutput is what RunExperiment returns: the run as its scenario lists
// it (its id, the runId of the convert operations, and its
// experimentResultId, the input of the dashboard exports) and its final
// state.
type RunOutput struct {
	RunID              ids.RunID
	ExperimentResultID ids.ExperimentResultID
	State              string
}

// StopInput is the input of StopExperiment: the resume token of the
// workflow's run.
type StopInput struct {
	Token string
}

// ExportInput is the input of ExportDashboard.
type ExportInput struct {
	ExperimentResultID ids.ExperimentResultID
	Path               string
}

// ExportProgress is the heartbeat of ExportDashboard.
type ExportProgress struct {
	Page, Total int
	Written     bool
}
