// Package wire holds what the activities of package scmtemporal take,
// return and heartbeat: the payloads that travel in a workflow's history
// and in Temporal's heartbeat details. They are the module's own protocol,
// not its API: a change of a field is a change of the workflow's history
// (see scmtemporal's package documentation on versioning).
package wire

import (
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// The activities' names, as registered and scheduled: prefixed, so that
// another worker's activity of the same method name on the task queue is
// never taken for one of them.
const (
	ScenariosNamed  = "scm.ScenariosNamed"
	ImportScenario  = "scm.ImportScenario"
	CopyScenario    = "scm.CopyScenario"
	PrepareRun      = "scm.PrepareRun"
	StartRun        = "scm.StartRun"
	WaitRun         = "scm.WaitRun"
	StopRun         = "scm.StopRun"
	ExportDashboard = "scm.ExportDashboard"
	WriteResultData = "scm.WriteResultData"
)

// Options are the item's options an activity needs (scmtemporal.Options
// as the workflow hands them on).
type Options struct {
	Poll         *facade.PollPolicy
	StaleWindow  time.Duration
	MaxRunLength time.Duration
	SettleWindow time.Duration
	MaxJobLength time.Duration
}

// WaitOptions are the facade's wait options of the activities that poll.
func (o Options) WaitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: o.Poll, StaleWindow: o.StaleWindow, MaxRunLength: o.MaxRunLength}
}

// NamedInput is the input of ScenariosNamed.
type NamedInput struct {
	ProjectID ids.ProjectID
	Name      string
}

// ImportInput is the input of ImportScenario. Known are the scenarios that
// had the name before (ScenariosNamed, in the workflow's history before the
// import is sent): a scenario of the name not among them is the import's.
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

// SendMark is what an activity that sends a state-changing call keeps in
// its heartbeat details, so that a retry knows whether any earlier attempt
// may have sent the call: see scmtemporal's package documentation.
type SendMark struct {
	Marked      bool      // the details follow the rule of marks
	MayHaveSent bool      // an attempt recorded that it was about to send
	MarkedAt    time.Time // when the first attempt marked
}

// JobProgress is the heartbeat of ImportScenario and CopyScenario: the
// mark, the job once the server answered it, and its status and progress.
// NotSentBy is the attempt that failed knowing that its job did not reach
// the server; SettlingSince is when the first attempt that settled began.
type JobProgress struct {
	SendMark
	JobID         ids.JobID
	Status        string
	Progress      float64
	NotSentBy     int32
	SettlingSince time.Time
}

// PrepareInput is the input of PrepareRun.
type PrepareInput struct {
	ProjectID      ids.ProjectID
	ScenarioID     ids.ScenarioID
	Experiment     gen.ExperimentType
	ExperimentName string
}

// Prepared is what PrepareRun returns: the experiment to run, the
// evidence of the run to come as a resume token, and whether the status
// showed an end as it was read (no run under way then, as far as the
// status had caught up).
type Prepared struct {
	RcID      ids.RcID
	Token     string
	EndBefore bool
}

// Subject is the run an item's token must be of.
type Subject struct {
	RcID       ids.RcID
	ScenarioID ids.ScenarioID
	Experiment gen.ExperimentType
}

// RunInput is the input of StartRun and WaitRun: the resume token
// PrepareRun returned (or StartRun, which records when it sent the start)
// and the run it must be of.
type RunInput struct {
	Token   string
	Subject Subject
	Options Options
}

// Started is what StartRun returns: the run's resume token, with the time
// the start was sent when this attempt sent it. Settled: an earlier
// attempt's start had taken effect (facade.ExperimentsService.Began), and this attempt
// sent nothing.
type Started struct {
	Token   string
	Settled bool
}

// StartProgress is the heartbeat of StartRun: its SendMark, NotSentBy as
// in JobProgress, and SettlingSince, when the first attempt that asked the
// server what an earlier one did began: a declared MaxRunLength counts
// from there, not from each retry.
type StartProgress struct {
	SendMark
	NotSentBy     int32
	SettlingSince time.Time
}

// StopInput is the input of StopRun: the run, whether its start is known
// to have taken effect (StartRun returned), and whether the status showed
// an end before it (Prepared.EndBefore).
type StopInput struct {
	Run       RunInput
	Started   bool
	EndBefore bool
}

// RunProgress is the heartbeat of WaitRun: the run's state as last polled.
type RunProgress struct {
	State string
	Polls int
}

// RunOutput is what WaitRun returns: the run as its scenario lists it and
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
