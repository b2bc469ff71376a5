package scmtemporal

import (
	"fmt"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ItemInput is one item of a plan, as its workflow ([ItemWorkflow]) takes
// it: paths are those the workers see. [ItemsFromPlan] makes them from a
// batch plan.
type ItemInput struct {
	Name      string
	ProjectID ids.ProjectID

	// Workbook is imported as a new scenario named ScenarioName; empty
	// when the item copies a scenario or runs an existing one.
	Workbook          string
	Tables            []string
	Formulas          bool
	ImportExperiments bool

	// CopyOf is a scenario copied as a new scenario of type CopyType
	// (GFA, NO or SIM) named ScenarioName, which the item then runs; zero
	// when the item imports a workbook or runs an existing scenario.
	CopyOf   ids.ScenarioID
	CopyType gen.ScenarioType

	// ScenarioName names the scenario an import or a copy makes.
	ScenarioName string
	// ScenarioID names an existing scenario to run; zero when the item
	// imports or copies one.
	ScenarioID ids.ScenarioID

	Experiment     gen.ExperimentType // the experiment type, such as SIMULATION
	ExperimentName string             // picks one of several experiments of the type

	// Dashboard is the workbook every dashboard page of the result is
	// exported to; empty exports nothing.
	Dashboard string
	// Data is the file the rows of the result are written to, in
	// resultdata's long layout keyed by the item (the batch's dataset
	// columns, batch.KeyColumns), as CSV (.csv) or JSON Lines (.jsonl,
	// .ndjson); empty writes none.
	Data string

	Options Options
}

// validate refuses an item whose scenario is not one of existing, imported
// or copied, naming the field.
func (in ItemInput) validate() error {
	sources := 0
	for _, set := range []bool{in.ScenarioID != 0, in.Workbook != "", in.CopyOf != 0} {
		if set {
			sources++
		}
	}
	var field, reason string
	switch {
	case sources != 1:
		field, reason = "ScenarioID", "exactly one of ScenarioID, Workbook and CopyOf must be set"
	case in.Workbook != "" || in.CopyOf != 0:
		if in.ScenarioName == "" {
			field, reason = "ScenarioName", "names the scenario an import or a copy makes: must not be empty"
		} else if in.CopyOf != 0 && in.CopyType == "" {
			field, reason = "CopyType", "the type of the copy (GFA, NO or SIM) must be set"
		}
	}
	if field == "" && in.Experiment == "" {
		field, reason = "Experiment", "the experiment type must be set"
	}
	if field == "" {
		return nil
	}
	return fmt.Errorf("scmtemporal: ItemWorkflow: item %q: ItemInput.%s: %s", in.Name, field, reason)
}

// Options are how an item's workflow works, the same for its every
// activity: they travel in the workflow's input.
type Options struct {
	// StopOnCancel stops the item's run on the server when its workflow is
	// cancelled, as `scm batch --stop-on-cancel` does; false leaves the run
	// to finish and only stops waiting for it.
	StopOnCancel bool
	// Poll paces the polling of jobs and runs; nil means the worker's
	// client's policy. Its MinInterval sizes the heartbeat timeout.
	Poll *facade.PollPolicy
	// HeartbeatTimeout is the heartbeat timeout of the activities that wait:
	// a worker silent for longer is taken for dead and the activity moves
	// to another worker. Zero means four of the poll policy's MinInterval
	// (the activities heartbeat at least that often), at least
	// MinHeartbeatTimeout.
	HeartbeatTimeout time.Duration
	// StaleWindow is facade.WaitOptions.StaleWindow: how long after a start
	// an end the server shows may still be the last run's. Zero means
	// facade.DefaultStaleWindow.
	StaleWindow time.Duration
	// SettleWindow is how long a retry of an import or a copy whose
	// earlier attempt may have sent it (its answer lost, or its worker
	// dead before the job id was heartbeated) looks for the scenario it
	// makes, before it stops the item as unknown. Zero means
	// DefaultSettleWindow.
	SettleWindow time.Duration
}

// DefaultSettleWindow is the SettleWindow of Options that set none.
const DefaultSettleWindow = 2 * time.Minute

func (o Options) settleWindow() time.Duration {
	if o.SettleWindow > 0 {
		return o.SettleWindow
	}
	return DefaultSettleWindow
}

// MinHeartbeatTimeout is the shortest heartbeat timeout that Options take
// by default: Temporal batches heartbeats within 0.8 of the timeout, and a
// worker under load needs a margin.
const MinHeartbeatTimeout = 10 * time.Second

// heartbeatTimeout is the heartbeat timeout of the activities that wait.
func (o Options) heartbeatTimeout() time.Duration {
	if o.HeartbeatTimeout > 0 {
		return o.HeartbeatTimeout
	}
	interval := facade.DefaultPollPolicy().MinInterval
	if o.Poll != nil && o.Poll.MinInterval > 0 {
		interval = o.Poll.MinInterval
	}
	return max(4*interval, MinHeartbeatTimeout)
}

// waitOptions are the facade's wait options of the activities that poll.
func (o Options) waitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: o.Poll, StaleWindow: o.StaleWindow}
}

// ItemResult is what a finished item produced.
type ItemResult struct {
	Name               string
	ScenarioID         ids.ScenarioID
	RcID               ids.RcID
	RunID              ids.RunID
	ExperimentResultID ids.ExperimentResultID
	// Outputs are the files written: the dashboard workbook, the data.
	Outputs []string
	// DataRows is how many rows of the result Data holds.
	DataRows int64
}

// NamedInput is the input of ScenariosNamed.
type NamedInput struct {
	ProjectID ids.ProjectID
	Name      string
}

// ImportInput is the input of ImportScenario. Known are the scenarios that
// had the name before ([Activities.ScenariosNamed], in the workflow's
// history before the import is sent): a scenario of the name not among
// them is the import's.
type ImportInput struct {
	ProjectID         ids.ProjectID
	ScenarioName      string
	Workbook          string
	Tables            []string
	Formulas          bool
	ImportExperiments bool
	Known             []ids.ScenarioID
	Options           Options
}

// CopyInput is the input of CopyScenario: Known as for ImportInput.
type CopyInput struct {
	ProjectID    ids.ProjectID
	ScenarioID   ids.ScenarioID
	Type         gen.ScenarioType
	ScenarioName string
	Known        []ids.ScenarioID
	Options      Options
}

// JobProgress is the heartbeat of ImportScenario and CopyScenario: the
// mark of an attempt that is to send ([SendMark]), the job once the server
// answered it, and its status and progress.
// NotSentBy is the attempt that failed knowing that its job did not reach
// the server (the SDK sends an attempt's last heartbeat with its failure):
// only the attempt right after it sends without settling first, so the
// details of an older attempt, kept when a later one's heartbeats were
// lost, are never taken for it.
type JobProgress struct {
	SendMark
	JobID     ids.JobID
	Status    string
	Progress  float64
	NotSentBy int32
	// SettlingSince is when the first attempt that settled began: every
	// later one ends its settling window there, so attempts that die one
	// after another while settling end it too, within SettleWindow.
	SettlingSince time.Time
}

// PrepareInput is the input of PrepareRun.
type PrepareInput struct {
	ProjectID      ids.ProjectID
	ScenarioID     ids.ScenarioID
	Experiment     gen.ExperimentType
	ExperimentName string
}

// Prepared is what PrepareRun returns: the experiment to run and the
// evidence of the run to come, read before anything is started, as a
// resume token (facade.Run.ResumeToken). Once it is in the workflow's
// history, every attempt of StartRun, WaitRun and StopRun tells the
// workflow's run from earlier ones by it.
type Prepared struct {
	RcID  ids.RcID
	Token string
}

// RunInput is the input of StartRun, WaitRun and StopRun: the resume token
// PrepareRun returned (or StartRun, which records when it sent the start).
type RunInput struct {
	Token   string
	Options Options
}

// Started is what StartRun returns: the run's resume token, with the time
// the start was sent when this attempt sent it.
type Started struct {
	Token string
	// Settled: an earlier attempt's start had taken effect
	// (facade.Run.Began), and this attempt sent nothing.
	Settled bool
}

// RunProgress is the heartbeat of WaitRun: the run's state as last polled.
type RunProgress struct {
	State string
	Polls int
}

// RunOutput is what WaitRun returns: the run as its scenario lists it (its
// id and its experimentResultId, the input of the dashboard exports) and
// its final state.
type RunOutput struct {
	RunID              ids.RunID
	ExperimentResultID ids.ExperimentResultID
	State              string
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

// DataInput is the input of WriteResultData: the result and the keys of
// its records.
type DataInput struct {
	Item               string
	ScenarioID         ids.ScenarioID
	RcID               ids.RcID
	ExperimentResultID ids.ExperimentResultID
	Path               string
}

// DataOutput is what WriteResultData returns.
type DataOutput struct {
	Path          string
	Rows, Records int64
}

// DataProgress is the heartbeat of WriteResultData.
type DataProgress struct {
	Page, Total int
	Rows        int64
}
