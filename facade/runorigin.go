package facade

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// RunOrigin is what a [Run] knows of its start, taken just before it:
// enough to tell this start's end and result from an earlier run's. A real
// server answers getExperimentStatus right after a start with the last
// run's end (finished true), and lists a run (getExperimentRunsForScenario)
// only once it has finished, under an id that says nothing of the run
// configuration. [ExperimentsService.Start] takes it; keep it (it encodes
// as JSON) to resume a run in another process with [Client.ResumeRun].
type RunOrigin struct {
	RcID       ids.RcID           `json:"rcId"`
	ScenarioID ids.ScenarioID     `json:"scenarioId"`
	Type       gen.ExperimentType `json:"type"`
	// Listed are the ids of the scenario's runs listed just before the
	// start: a run of Type not among them is this start's.
	Listed []ids.RunID `json:"listed"`
	// EndedBefore: the status read just before the start showed an ended
	// run, so an end read after the start may be that run's.
	EndedBefore bool `json:"endedBefore"`
	// Started is when the start was about to be sent (the end of the
	// reads before it), on the client's clock.
	Started time.Time `json:"started"`
}

// Listable reports whether a real server lists the runs of an experiment
// type (getExperimentRunsForScenario): every type but VARIATION, whose runs
// it never listed.
func Listable(t gen.ExperimentType) bool { return t != gen.ExperimentTypeVARIATION }

// ErrResultNotListed: the result of a run cannot be found among its
// scenario's runs: the server does not list runs of its type, or has not
// listed this start's run yet (it lists a run once it has finished).
var ErrResultNotListed = errors.New("the run's result is not listed")

// ErrNoOrigin: a [Run] made from an rcId alone ([Client.Run]) cannot tell
// its own result from an earlier run's.
var ErrNoOrigin = errors.New("the run's start is not known")

// How a wait that began at a start decided that a run's end is its own
// ([Run.EndEvidence]).
const (
	// EndSeenUnderWay: a read after the start showed the run not ended.
	EndSeenUnderWay = "seen under way"
	// EndNotEndedBefore: the status before the start showed no ended run,
	// so an end read after it is new.
	EndNotEndedBefore = "no run had ended before the start"
	// EndListed: the scenario lists a run of the type that was not listed
	// before the start.
	EndListed = "listed"
	// EndAssumed: the end persisted for WaitOptions.StaleWindow after the
	// start without any of the above, for a run the server does not list
	// or one that failed or stopped (which are not listed either).
	EndAssumed = "assumed after the stale window"
	// EndUnchecked: the Run was made from an rcId alone; its first end was
	// taken as it is.
	EndUnchecked = "not checked: the start is not known"
)

// DefaultStaleWindow is how long an end read after a start that nothing
// confirms may be the last run's; see [WaitOptions].StaleWindow.
const DefaultStaleWindow = 10 * time.Second

// evidence is what a Run has seen since its start.
type evidence struct {
	origin   *RunOrigin
	underWay bool
	entry    *gen.ApiBasicRun // this start's run, once listed
	endedBy  string
}

// accept decides whether a state read after the start is this run's end.
// It is called with every state polled; a state still in progress is
// noted, and never accepted.
func (r *Run) accept(ctx context.Context, s runState, o Outcome, window time.Duration) (bool, error) {
	r.mu.Lock()
	e := r.ev
	r.mu.Unlock()
	switch {
	case o == Pending:
		r.setEvidence(func(e *evidence) { e.underWay = true })
		return false, nil
	case e.origin == nil:
		return r.ended(EndUnchecked), nil
	case e.underWay:
		return r.ended(EndSeenUnderWay), nil
	case !e.origin.EndedBefore:
		return r.ended(EndNotEndedBefore), nil
	}
	if o == Succeeded && Listable(e.origin.Type) {
		entry, err := r.Entry(ctx)
		if err != nil || entry != nil {
			return err == nil && r.ended(EndListed), err
		}
		return false, nil // a listable run's success needs proof
	}
	if r.t.c.now().Sub(e.origin.Started) < window {
		return false, nil
	}
	r.t.c.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "scm: a run's end is taken as its own without proof",
		slog.Int64("rcId", int64(r.RcID)), slog.String("state", s.stateValue()), slog.Duration("after", window),
		slog.String("reason", "the server does not list this run, and never showed it under way"))
	return r.ended(EndAssumed), nil
}

func (r *Run) ended(by string) bool {
	r.setEvidence(func(e *evidence) { e.endedBy = by })
	return true
}

func (r *Run) setEvidence(f func(*evidence)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.ev)
}

// EndEvidence says how the wait decided that the run's end is its own:
// one of the End constants, "" before it did.
func (r *Run) EndEvidence() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ev.endedBy
}

// Origin returns what the Run knows of its start, nil for one made from
// its rcId alone.
func (r *Run) Origin() *RunOrigin {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ev.origin == nil {
		return nil
	}
	o := *r.ev.origin
	o.Listed = slices.Clone(o.Listed)
	return &o
}

// Entry returns this start's run as its scenario lists it, nil while it is
// not listed (a server lists a run once it has finished). It matches on
// the scenario, the type and newness: a run of the origin's type that was
// not listed before the start; when several are, the oldest. It is never an
// earlier run's.
func (r *Run) Entry(ctx context.Context) (*gen.ApiBasicRun, error) {
	r.mu.Lock()
	e := r.ev
	r.mu.Unlock()
	switch {
	case e.entry != nil:
		return e.entry, nil
	case e.origin == nil:
		return nil, fmt.Errorf("facade: run of rcId %d: %w: it was made from its rcId alone (Client.Run), and cannot tell its own result from an earlier run's; resume it with Client.ResumeRun, or take the newest listed with ExperimentsService.LatestRun", r.RcID, ErrNoOrigin)
	}
	runs, err := r.t.c.Experiments.Runs(ctx, e.origin.ScenarioID)
	if err != nil {
		return nil, err
	}
	entry := newRun(runs, e.origin)
	if entry != nil {
		r.setEvidence(func(e *evidence) { e.entry = entry })
	}
	return entry, nil
}

// newRun is the oldest run of the origin's scenario and type that was not
// listed before the start, nil when there is none.
func newRun(runs []gen.ApiBasicRun, o *RunOrigin) *gen.ApiBasicRun {
	var found *gen.ApiBasicRun
	for i, run := range runs {
		if run.ScenarioId == o.ScenarioID && run.Type == o.Type && !slices.Contains(o.Listed, run.Id) && (found == nil || run.Id < found.Id) {
			found = &runs[i]
		}
	}
	return found
}

// ResultID returns the experimentResultId of this start's run, the input
// of [DashboardsService.Pages] and [DashboardsService.ExportPage]: the
// rcId of its entry among the scenario's runs ([Run.Entry]), which a real
// server gives as the result's id. Call it once [Run.Wait] has returned.
//
// It fails matching [ErrResultNotListed] while the run is not listed, and
// at once for a VARIATION run, which the server never lists:
// [ExperimentsService.RunSync] answers a result id directly. A Run made
// from its rcId alone fails matching [ErrNoOrigin].
func (r *Run) ResultID(ctx context.Context) (ids.ExperimentResultID, error) {
	o := r.Origin()
	if o != nil && !Listable(o.Type) {
		return 0, fmt.Errorf("facade: run of rcId %d: %w: the server does not list %s runs, so their result id cannot be found; run it with ExperimentsService.RunSync, which answers it", r.RcID, ErrResultNotListed, o.Type)
	}
	entry, err := r.Entry(ctx)
	switch {
	case err != nil:
		return 0, err
	case entry == nil:
		return 0, fmt.Errorf("facade: run of rcId %d: %w: scenario %d lists no %s run that was not listed before the start (the server lists a run once it has finished)",
			r.RcID, ErrResultNotListed, o.ScenarioID, o.Type)
	}
	return entry.RcId, nil
}

// Prepare reads what a start of a running configuration must know to tell
// its run from earlier ones, before anything is started: the scenario and
// type (from opts, else from getExperimentRunConfiguration), the runs its
// scenario lists (getExperimentRunsForScenario) and the status
// (getExperimentStatus). [ExperimentsService.StartPrepared] then starts it.
// A program that records progress (a batch) records the origin between the
// two, so that a start whose answer was lost can be settled. opts may be
// nil.
//
//scm:helper
func (s *ExperimentsService) Prepare(ctx context.Context, rcID ids.RcID, opts *StartOptions) (*RunOrigin, error) {
	if err := check(gen.OpRunExperiment).rc(rcID).done(); err != nil {
		return nil, err
	}
	o := &RunOrigin{RcID: rcID}
	if opts != nil {
		o.ScenarioID, o.Type = opts.ScenarioID, opts.Type
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
	st, err := s.Status(ctx, rcID)
	if err != nil {
		return nil, err
	}
	o.EndedBefore = DefaultTerminalRule(RunStateValue(st)) != Pending
	o.Started = s.c.now()
	return o, nil
}

// fillFromConfiguration reads the scenario and type of a start's origin
// from its running configuration.
func (s *ExperimentsService) fillFromConfiguration(ctx context.Context, o *RunOrigin) error {
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
		return s.c.listed(&MissingFieldError{Operation: string(gen.OpGetExperimentRunConfiguration), Model: "ApiARunConfigurationWrapper",
			Field: "scenarioId", Has: presentFields(rc)})
	}
	return nil
}

// ResumeRun returns the run of a start whose origin was kept: its wait
// and result are told apart from earlier runs' as they were in the process
// that started it. It sends nothing until polled.
func (c *Client) ResumeRun(o RunOrigin) *Run {
	r := c.Run(o.RcID)
	o.Listed = slices.Clone(o.Listed)
	r.ev.origin = &o
	return r
}

// Began reports whether this run's start took effect, for a start whose
// answer was lost (its call failed matching [ErrMayHaveBeenApplied]): true
// once the run is listed ([Run.Entry]) or the status shows it under way, or
// shows an end when none had ended before the start; false once the status
// has shown only what it showed before the start for StaleWindow after the
// start. It polls the status meanwhile, at the pace of the policy. A Run
// made from its rcId alone cannot tell, and fails matching [ErrNoOrigin].
// opts may be nil; only its Policy and StaleWindow are read.
//
//scm:helper
func (r *Run) Began(ctx context.Context, opts *WaitOptions) (bool, error) {
	o := r.Origin()
	if o == nil {
		return false, fmt.Errorf("facade: run of rcId %d: %w: whether its start took effect cannot be told", r.RcID, ErrNoOrigin)
	}
	if err := opts.validate(string(gen.OpGetExperimentStatus)); err != nil {
		return false, err
	}
	p, window := r.t.policy(opts), opts.staleWindow()
	for n := 0; ; n++ {
		began, err := r.beganNow(ctx, o)
		if err != nil || began {
			return began, err
		}
		if !r.t.c.now().Before(o.Started.Add(window)) {
			return false, nil
		}
		if err := sleep(ctx, r.t.c.cfg.clock, min(p.next(estimator{}, n), o.Started.Add(window).Sub(r.t.c.now()))); err != nil {
			return false, err
		}
	}
}

// beganNow reads whether the start shows yet: listed, under way, or ended
// when nothing had ended before.
func (r *Run) beganNow(ctx context.Context, o *RunOrigin) (bool, error) {
	if Listable(o.Type) {
		if entry, err := r.Entry(ctx); err != nil || entry != nil {
			return entry != nil, err
		}
	}
	s, err := r.t.c.Experiments.Status(ctx, r.RcID)
	if err != nil {
		return false, err
	}
	state := RunStateValue(s)
	switch o := DefaultTerminalRule(state); {
	case o != Pending:
		return !r.Origin().EndedBefore, nil
	default:
		return !strings.EqualFold(state, string(gen.ExecutionStateGenericStateIDLE)), nil
	}
}
