package scmtemporal

import (
	"fmt"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
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
	// resultdata's long layout keyed by the item (batch.KeyColumns), in
	// the format its extension names (CSV, JSON Lines, or one of
	// Activities.DataFormats); empty writes none. A plan's dataset is
	// made of them ([PlanOptions].Data).
	Data string

	Options Options
}

// Options are how an item's workflow works, the same for its every
// activity: they travel in the workflow's input.
type Options struct {
	// StopOnCancel stops the item's run on the server when its workflow is
	// cancelled, as `scm batch --stop-on-cancel` does, where the run can
	// be told from another client's; false leaves the run to finish.
	StopOnCancel bool
	// Poll paces the polling of jobs and runs; nil means the worker's
	// client's policy. Its MinInterval sizes the heartbeat timeout.
	Poll *facade.PollPolicy
	// HeartbeatTimeout is the heartbeat timeout of the activities that
	// wait: a worker silent for longer is taken for dead and the activity
	// moves to another worker. Zero means four of the poll policy's
	// MinInterval, at least MinHeartbeatTimeout.
	HeartbeatTimeout time.Duration
	// StaleWindow is facade.WaitOptions.StaleWindow: how long after a
	// start the status may still show the last run's end. Zero means
	// facade.DefaultStaleWindow.
	StaleWindow time.Duration
	// MaxRunLength is facade.WaitOptions.MaxRunLength, the longest a run
	// of the item's experiment takes. Declared, a start that may have been
	// sent (its answer lost, or its attempt killed after its mark) and
	// that nothing shows once it and StaleWindow have passed is settled as
	// not begun and sent; zero stops the item as [ErrTypeStartUnknown]
	// instead, and nothing is sent again. Declare a bound, not an average.
	MaxRunLength time.Duration
	// SettleWindow is how long a retry of an import or a copy that may
	// have been sent looks for the scenario it makes, before it stops the
	// item as unknown. Zero means DefaultSettleWindow. It does not apply
	// to an import MaxJobLength settles.
	SettleWindow time.Duration
	// MaxJobLength is the longest an import or a copy takes from its send
	// until its scenario is listed. Declared, an import that may have been
	// sent (its answer lost, or its attempt killed after its mark) whose
	// scenario no listing shows once MaxJobLength has passed since the
	// first attempt that looked for it began is settled as not taken and
	// sent again, once, by the next attempt; zero stops the item as
	// [ErrTypeStartUnknown] after SettleWindow instead, and nothing is
	// sent again. It applies to imports of a workbook's experiments
	// (ItemInput.ImportExperiments), the only jobs a real server was seen
	// to list the scenario of under the name asked: a copy (listed as
	// "null", whatever its name) and an import without experiments (no
	// scenario) that took effect would read as not taken, and are still
	// settled within SettleWindow. Too short, and an import that took
	// effect is imported twice: declare a bound, not an average.
	MaxJobLength time.Duration

	// Each step's bound, across all its attempts (Temporal's
	// ScheduleToCloseTimeout): a failure that keeps coming back ends the
	// item once it has passed. Zero means the default named.
	ScenarioTimeout time.Duration // an import or a copy and its settling: DefaultScenarioTimeout plus MaxJobLength
	QueueTimeout    time.Duration // behind another client's run under way: DefaultQueueTimeout
	StartTimeout    time.Duration // the start and its settling: DefaultStartTimeout plus MaxRunLength
	RunTimeout      time.Duration // the wait for the run: DefaultRunTimeout
	OutputTimeout   time.Duration // the dashboard, and the result data, each: DefaultOutputTimeout
}

// The defaults of [Options]. The short steps that only read (the
// scenarios of a name, the run's evidence) have a minute an attempt and
// ten attempts.
const (
	DefaultSettleWindow    = 2 * time.Minute
	MinHeartbeatTimeout    = 10 * time.Second // Temporal batches heartbeats within 0.8 of the timeout: a loaded worker needs a margin
	DefaultScenarioTimeout = 12 * time.Hour
	DefaultQueueTimeout    = 72 * time.Hour
	DefaultStartTimeout    = time.Hour
	DefaultRunTimeout      = 72 * time.Hour
	DefaultOutputTimeout   = 2 * time.Hour
)

// check refuses options that are negative, naming the field.
func (o Options) check() (field string, reason string) {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"HeartbeatTimeout", o.HeartbeatTimeout}, {"StaleWindow", o.StaleWindow}, {"MaxRunLength", o.MaxRunLength},
		{"SettleWindow", o.SettleWindow}, {"MaxJobLength", o.MaxJobLength}, {"ScenarioTimeout", o.ScenarioTimeout}, {"QueueTimeout", o.QueueTimeout},
		{"StartTimeout", o.StartTimeout}, {"RunTimeout", o.RunTimeout}, {"OutputTimeout", o.OutputTimeout}} {
		if d.v < 0 {
			return "Options." + d.name, fmt.Sprintf("must not be negative, got %v", d.v)
		}
	}
	return "", ""
}

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

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (o Options) startTimeout() time.Duration {
	return or(o.StartTimeout, DefaultStartTimeout+o.MaxRunLength)
}

// scenarioTimeout is the bound of an import or a copy: a declared
// MaxJobLength adds the settling that ends in sending the job again.
// Without it, the bound is DefaultScenarioTimeout, as before it existed.
func (o Options) scenarioTimeout() time.Duration {
	return or(o.ScenarioTimeout, DefaultScenarioTimeout+o.MaxJobLength)
}

// wire is what the activities take of the options.
func (o Options) wire() wire.Options {
	return wire.Options{Poll: o.Poll, StaleWindow: o.StaleWindow, MaxRunLength: o.MaxRunLength, SettleWindow: o.SettleWindow,
		MaxJobLength: o.MaxJobLength}
}

// validate refuses an item whose scenario is not one of existing, imported
// or copied, or whose options are out of range, naming the field.
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
		field, reason = in.Options.check()
	}
	if field == "" {
		return nil
	}
	return fmt.Errorf("scmtemporal: ItemWorkflow: item %q: ItemInput.%s: %s", in.Name, field, reason)
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
	// DataRows is how many rows of the result Data holds, and DataRecords
	// how many of their values are not empty.
	DataRows, DataRecords int64
}
