package facade

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// origin is what a start records just before runExperiment is sent: enough
// to decide later whether it took effect, and which end and which result
// are its own. A real server answers getExperimentStatus right after a
// start with the last run's end, shows a run under way only as finished
// false (genericState and step stay IDLE), and lists a run
// (getExperimentRunsForScenario) only once it has finished, under an id
// that says nothing of the run configuration. It travels as a resume token
// ([Run.ResumeToken]).
type origin struct {
	RcID       ids.RcID
	ScenarioID ids.ScenarioID
	Type       gen.ExperimentType
	// Listed are the ids of the scenario's runs listed just before the
	// start: a run of Type not among them is this start's.
	Listed []ids.RunID
	// Before is the status read just before the start.
	Before priorStatus
	// Started is when the start was about to be sent (the end of the
	// reads before it), on the client's clock; StartPrepared moves it to
	// the send.
	Started time.Time
	// Server is the server the start was made on (serverOf), "" for the
	// evidence of a token of an earlier version, which named none.
	Server string
}

// priorStatus is the status of the running configuration as read just
// before a start.
type priorStatus struct {
	// Ended: it showed an ended run (finished, failed or terminal).
	Ended bool
	// Outcome is that end's outcome, and Text its text (cut to
	// maxEvidenceText bytes). KindKnown is false for evidence of the first
	// token shape, which recorded only whether an end showed.
	Outcome   Outcome
	Text      string
	KindKnown bool
	// Marked: genericState or step was other than IDLE (a server that
	// shows a run under way there).
	Marked bool
}

// maxEvidenceText bounds the status text kept as evidence.
const maxEvidenceText = 256

// priorOf is the evidence of a status read before a start.
func priorOf(s *gen.ExecutionState) priorStatus {
	o := DefaultTerminalRule(string(RunStateValue(s)))
	p := priorStatus{Ended: o != Pending, KindKnown: true, Marked: marked(s)}
	if p.Ended {
		p.Outcome, p.Text = o, textcut.Cut(deref(s.Text), maxEvidenceText)
	}
	return p
}

// marked reports a genericState or step other than IDLE: extra evidence
// of a run under way, for a server that shows one there. A real server
// was only ever recorded sending IDLE.
func marked(s *gen.ExecutionState) bool {
	idle := func(v string) bool {
		return v == "" || strings.EqualFold(v, string(gen.ExecutionStateGenericStateIDLE))
	}
	return !idle(string(s.GenericState)) || !idle(string(s.Step))
}

// listable reports whether a real server lists the runs of an experiment
// type (getExperimentRunsForScenario): every type but VARIATION, whose runs
// it never listed.
func listable(t gen.ExperimentType) bool { return t != gen.ExperimentTypeVARIATION }

// EndEvidence is how a wait that began at a start decided that a run's end
// is its own ([RunEvidence].End).
type EndEvidence string

// The evidence of a run's end. Besides it, an end is a start's only once
// settled (see [Run]): a read at least WaitOptions.StaleWindow after the
// one that first showed it still shows an end, with no run under way read
// in between; and the success of a run the server lists is its own only
// when the scenario lists exactly one run of its type that was not listed
// before the start.
const (
	// EndSeenUnderWay: a read after the start showed a run under way.
	EndSeenUnderWay EndEvidence = "seen under way"
	// EndNotEndedBefore: the status before the start showed no ended run,
	// so an end read after it is new.
	EndNotEndedBefore EndEvidence = "no run had ended before the start"
	// EndChanged: the status shows an end other than the one it showed
	// before the start (another outcome, or another text).
	EndChanged EndEvidence = "an end other than before the start"
	// EndListed: the scenario lists a run of the type that was not listed
	// before the start.
	EndListed EndEvidence = "listed"
	// EndAssumed: the start is known to have taken effect (its answer came,
	// or [ExperimentsService.Began] said so), and the status showed the same end as
	// before it, settled: that end is this run's, for a run the server
	// does not list (VARIATION), or one that failed or stopped while no new
	// run is listed. It is the weakest evidence.
	EndAssumed EndEvidence = "assumed after the stale window"
	// EndUnchecked: the Run was made from an rcId alone; its first end was
	// taken as it is.
	EndUnchecked EndEvidence = "not checked: the start is not known"
)

// DefaultStaleWindow is how long after a start the status may still show
// what it showed before it; see [WaitOptions].StaleWindow.
const DefaultStaleWindow = 10 * time.Second

// evidence is what a Run has seen since its start.
type evidence struct {
	origin   *origin
	weak     string // why the origin's evidence is weaker, "" when it is not
	underWay bool   // a read after the start showed a run under way
	// endSeen is when the end the status shows was first read, zero while
	// it shows none (a read under way clears it); endShown is that end.
	endSeen  time.Time
	endShown string
	entry    *gen.ApiBasicRun // this start's run, once decided (a listed success)
	endedBy  EndEvidence      // "" until the end is decided
}

// reading is what one status read after a start shows, judged against the
// status before it. Run.Wait and ExperimentsService.Began both judge by it.
type reading struct {
	outcome  Outcome // of the state read
	underWay bool    // a run is under way
	newEnd   EndEvidence
}

// read judges a status read after the start of o. A status not ended shows
// a run under way when an end showed before the start (a real server
// replaces the end by finished false once a run is under way), or when
// genericState or step leave IDLE where they had not ([RunActivity]). An
// end is new when none showed before the start, or when it is another end
// than that one; the same end proves nothing.
func (o *origin) read(s *gen.ExecutionState) reading {
	r := reading{outcome: DefaultTerminalRule(string(RunStateValue(s)))}
	before := o.Before
	switch {
	case r.outcome == Pending:
		r.underWay = RunActivity(s, before.Ended) == ActivityUnderWay && (before.Ended || !before.Marked)
	case !before.Ended:
		r.newEnd = EndNotEndedBefore
	case before.KindKnown && (r.outcome != before.Outcome || textcut.Cut(deref(s.Text), maxEvidenceText) != before.Text):
		r.newEnd = EndChanged
	}
	return r
}

// endKey names an end as the status shows it, to tell one end from
// another.
func endKey(s *gen.ExecutionState) string {
	return string(RunStateValue(s)) + "\x00" + textcut.Cut(deref(s.Text), maxEvidenceText)
}

// newRuns are the runs of the origin's scenario and type that were not
// listed before the start, oldest first.
func newRuns(runs []gen.ApiBasicRun, o *origin) []gen.ApiBasicRun {
	var found []gen.ApiBasicRun
	for _, run := range runs {
		if run.ScenarioId == o.ScenarioID && run.Type == o.Type && !slices.Contains(o.Listed, run.Id) {
			found = append(found, run)
		}
	}
	slices.SortFunc(found, func(a, b gen.ApiBasicRun) int { return cmp.Compare(a.Id, b.Id) })
	return found
}

// listedSince reads the scenario's runs and returns those of the origin's
// type not listed before the start.
func (r *Run) listedSince(ctx context.Context, o *origin) ([]gen.ApiBasicRun, error) {
	runs, err := r.t.c.Experiments.Runs(ctx, o.ScenarioID)
	if err != nil {
		return nil, err
	}
	return newRuns(runs, o), nil
}

// ResultID returns the experimentResultId of this start's run, the input
// of [DashboardsService.Pages] and [DashboardsService.ExportPage]: the
// rcId of its entry among the scenario's runs ([RunEvidence].Entry),
// which a real server gives as the result's id. Call it once [Run.Wait]
// has returned; it sends nothing.
//
// A run that failed or stopped has no result: ResultID returns its
// [*StateError] ([ErrFailed]). It fails with a [*ValidationError] before
// the wait decided the run's end, at once for a VARIATION run, which the
// server never lists ([ExperimentsService.RunSync] answers a result id
// directly), and for a Run made from its rcId alone.
func (r *Run) ResultID() (ids.ExperimentResultID, error) {
	const op = "Run.ResultID"
	o, ev := r.origin(), EvidenceOf(r)
	switch {
	case o == nil:
		return 0, r.noOrigin(op, "it cannot tell its own result from an earlier run's; resume it from its token (Client.ResumeRunFromToken), or take the newest listed with ExperimentsService.LatestRun")
	case !listable(o.Type):
		return 0, &ValidationError{Operation: op, Field: "run", Reason: fmt.Sprintf("rcId %d runs %s, which the server never lists, so its result id cannot be found; run it with ExperimentsService.RunSync, which answers it", r.rcID, o.Type)}
	case ev.Entry != nil:
		return ev.Entry.RcId, nil
	case ev.End == "":
		return 0, &ValidationError{Operation: op, Field: "run", Reason: fmt.Sprintf("the end of rcId %d is not decided yet: wait for it (Run.Wait), which takes an end as this start's only once it is settled and scenario %d lists exactly one new %s run",
			r.rcID, o.ScenarioID, o.Type)}
	}
	if _, err := r.Result(); err != nil {
		return 0, err // a run that failed or stopped: its *StateError
	}
	return 0, fmt.Errorf("facade: run of rcId %d: %w: the run ended without a listed result", r.rcID, ErrFailed)
}

// noOrigin is the error of a Run made from its rcId alone asked what only
// its start's evidence can tell.
func (r *Run) noOrigin(op, why string) error {
	return &ValidationError{Operation: op, Field: "run", Reason: fmt.Sprintf("made from rcId %d alone (Client.Run), it has no start's evidence: %s", r.rcID, why)}
}

// Prepare reads what a start of a running configuration must know to tell
// its run from earlier ones, before anything is started: the scenario and
// type (from opts, else from getExperimentRunConfiguration), the runs its
// scenario lists (getExperimentRunsForScenario) and the status
// (getExperimentStatus). It returns the Run not yet started;
// [ExperimentsService.StartPrepared] starts it. A program that records
// progress (a batch) keeps [Run.ResumeToken] between the two, so that a
// start whose answer was lost can be settled ([ExperimentsService.Began]) in another
// process. opts may be nil.
//
// It refuses, with an error matching [ErrRunUnderWay] and nothing sent,
// while the configuration has a run under way ([RunActivity]: the status
// shows finished false after an end, or marks a run; or it shows no end
// and the evidence of [ExperimentsService.Activity], with opts.ProjectID,
// says an end showed before). A status that cannot tell
// ([ActivityUnknown]: the configuration never ran, or its first run is
// under way) is recorded as showing no end: the Run's wait then takes no
// end as its own before it is settled, like any other.
//
//scm:helper
func (s *ExperimentsService) Prepare(ctx context.Context, rcID ids.RcID, opts *StartOptions) (*Run, error) {
	if err := check(gen.OpRunExperiment).rc(rcID).done(); err != nil {
		return nil, err
	}
	o := &origin{RcID: rcID, Server: s.c.server()}
	var projectID ids.ProjectID
	if opts != nil {
		o.ScenarioID, o.Type, projectID = opts.ScenarioID, opts.Type, opts.ProjectID
	}
	if o.ScenarioID == 0 || o.Type == "" {
		if err := s.fillFromConfiguration(ctx, o); err != nil {
			return nil, err
		}
	}
	runs, err := s.Runs(ctx, o.ScenarioID)
	if err != nil {
		return nil, err
	}
	o.Listed = make([]ids.RunID, 0, len(runs))
	for _, run := range runs {
		o.Listed = append(o.Listed, run.Id)
	}
	st, err := s.readStatus(ctx, rcID)
	if err != nil {
		return nil, err
	}
	switch a, err := s.activityBeside(ctx, st, runs, o, projectID); {
	case err != nil:
		return nil, err
	case a == ActivityUnderWay:
		return nil, s.c.underWayRefusal(rcID, st)
	}
	o.Before = priorOf(st)
	o.Started = s.c.now()
	return s.c.runFrom(o, ""), nil
}

// fillFromConfiguration reads the scenario and type of a start's origin
// from its running configuration.
func (s *ExperimentsService) fillFromConfiguration(ctx context.Context, o *origin) error {
	rc, err := s.RunConfiguration(ctx, o.RcID)
	if err != nil {
		return err
	}
	if o.ScenarioID == 0 {
		o.ScenarioID = deref(rc.ScenarioId)
	}
	if o.Type == "" {
		o.Type = rc.Type
	}
	if o.ScenarioID == 0 {
		return s.c.listed(&MalformedError{Operation: string(gen.OpGetExperimentRunConfiguration), Model: "ApiARunConfigurationWrapper",
			Field: "scenarioId", Has: presentFields(rc)})
	}
	return nil
}

// runFrom returns the run of a start whose origin is known; weak says why
// that evidence is weaker than a start of this release records.
func (c *Client) runFrom(o *origin, weak string) *Run {
	r := c.Run(o.RcID)
	o.Listed = slices.Clone(o.Listed)
	r.ev.origin, r.ev.weak = o, weak
	r.t.setBegan(o.Started)
	return r
}

// origin returns a copy of what the Run knows of its start, nil for one
// made from its rcId alone.
func (r *Run) origin() *origin {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ev.origin == nil {
		return nil
	}
	o := *r.ev.origin
	o.Listed = slices.Clone(o.Listed)
	return &o
}
