package facade

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Run is the run of a running configuration, followed by polling
// getExperimentStatus. Start one with [ExperimentsService.Start] (or
// [ExperimentsService.Prepare] and [ExperimentsService.StartPrepared]);
// resume one in any process from its [Run.ResumeToken] with
// [Client.ResumeRunFromToken], or from its rcId alone with [Client.Run]
// (another process may have started it). A Run is safe for concurrent use.
//
// # Which end and which result are this start's
//
// A start sends runExperiment once, and a Run that knows its start returns
// the end and the result of the run that start made, never another's. A
// real server answers getExperimentStatus right after a start with the
// last run's end (for a while: the status lag), shows a run under way only
// as finished false (its genericState and step stay IDLE), lists a run
// (getExperimentRunsForScenario) only once it has finished, and its list
// names no run configuration. Another client may start the same
// configuration, and a server may refuse a second start, queue it behind
// the run under way, or run it beside. So the wait takes an end as this
// start's only when all of these hold:
//
//  1. evidence that the end is new ([RunEvidence].End): a run was seen
//     under way since the start, or the end differs from the one before
//     the start (another outcome or text), or no end showed before it, or
//     the scenario lists a run that was not listed before it;
//  2. the end is settled: a status read at least [WaitOptions].StaleWindow
//     after the read that first showed it still shows an end, with no run
//     under way read in between (in a queue, the next run shows under way
//     by then). This costs one StaleWindow after the end;
//  3. for the success of a run the server lists, the scenario lists
//     exactly one run of its type that was not listed before the start
//     (while it lists none, the wait goes on: a server lists a run once it
//     has finished): with two or more the wait ends with a
//     [*StartUnknownError] (Ambiguous, matching [ErrStartUnknown]), never
//     taking the oldest; a failure or stop while a new run is listed ends
//     so too.
//
// For a run the server never lists (VARIATION), and for a failure or a
// stop with no new run listed, an end settled with no other evidence is
// taken as this start's ([EndAssumed], logged at Warn): the weaker rule,
// which cannot tell a queued run of another client that ended alike. Once
// decided, the end and the entry stay with the Run ([RunEvidence].Entry,
// [Run.ResultID]) and travel in its resume token. [ExperimentsService.Began] settles a
// start whose answer was lost: began, not begun (only on evidence, with
// [WaitOptions].MaxRunLength), or [ErrStartUnknown]. A start the server
// refused because a run is under way ([ErrRunUnderWay]) is never waited
// on.
//
// [WaitOptions].StopOnCancel stops the configuration's run under way: the
// server's stopExperiment names no run. After a start whose answer came,
// on a server that refuses a second start, that run is this start's; on a
// server that queues or runs beside a second start, another client's
// start made within the status lag before this one (which no read can
// see) cannot be told from it while it is under way, and may be stopped.
//
// A Run made from its rcId alone ([Client.Run]) knows the state but not
// its start: its first end is taken as it is (it may be the last run's),
// and it has no result id of its own; [ExperimentsService.LatestRun] gives
// the newest listed.
type Run struct {
	rcID ids.RcID
	t    *tracker[runState]

	mu      sync.Mutex
	ev      evidence
	answer  *gen.ApiRunExperiment // what runExperiment answered
	sent    bool                  // StartPrepared sent runExperiment
	refused error                 // the server refused the start: a run is under way (ErrRunUnderWay)
}

// refusal is the server's refusal of the Run's start, nil when it was not
// refused.
func (r *Run) refusal() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refused
}

// settleDue is how long until the end the status shows is settled for a
// wait with window, 0 when no end is being settled.
func (r *Run) settleDue(window time.Duration) time.Duration {
	r.mu.Lock()
	seen, decided := r.ev.endSeen, r.ev.endedBy != ""
	r.mu.Unlock()
	if seen.IsZero() || decided {
		return 0
	}
	return seen.Add(window).Sub(r.t.c.now())
}

// RcID is the running configuration the run is of.
func (r *Run) RcID() ids.RcID { return r.rcID }

// runState adapts gen.ExecutionState to the tracker. A real server
// answers booleans (finished, failed, terminal) and no state string;
// [RunStateValue] turns them into one.
type runState struct{ *gen.ExecutionState }

func (s runState) stateValue() string { return string(RunStateValue(s.ExecutionState)) }

// progressValue is the progress a server sends beside the state, if any: a
// real server sends none, and polling then backs off instead of estimating.
func (s runState) progressValue() *float64 {
	if s.ExecutionState == nil {
		return nil
	}
	if p, ok, err := extra.Get[float64](s.AdditionalProperties, "progress"); ok && err == nil {
		return &p
	}
	return nil
}

func (s runState) message() string {
	if s.ExecutionState == nil {
		return ""
	}
	if s.Text != nil {
		return *s.Text
	}
	m, _, _ := extra.Get[string](s.AdditionalProperties, "message")
	return m
}

func (s runState) details() []string { return nil }

// Run state values derived from the flags of an ExecutionState.
const (
	RunFinished RunState = "FINISHED" // finished is true
	RunFailed   RunState = "FAILED"   // failed is true
	RunStopped  RunState = "STOPPED"  // terminal is true without finished or failed
)

// RunState is the state of a run as one value ([RunStateValue]): one of
// the Run constants for an ended run, else the state string a server sent
// or its genericState (IDLE, RUNNING, ...).
type RunState string

// RunStateValue is the state of a run as one value, the one [Run] judges
// with its [TerminalRule]: [RunFailed] when failed is true, [RunFinished]
// when finished is, [RunStopped] when only terminal is; else the state
// string a server may send instead of the flags, else genericState (IDLE,
// RUNNING, ...), which means the run goes on. It is "" for nil.
func RunStateValue(s *gen.ExecutionState) RunState {
	switch {
	case s == nil:
		return ""
	case isTrue(s.Failed):
		return RunFailed
	case isTrue(s.Finished):
		return RunFinished
	case isTrue(s.Terminal):
		return RunStopped
	}
	if v, _, _ := extra.Get[string](s.AdditionalProperties, "state"); v != "" {
		return RunState(v)
	}
	return RunState(s.GenericState)
}

// checkRunState stops a wait on an answer that cannot say whether the run
// is over: none of finished, failed and terminal, and no state string.
func checkRunState(op gen.OperationID, s *gen.ExecutionState) error {
	if state, _, _ := extra.Get[string](s.AdditionalProperties, "state"); s.Failed != nil || s.Finished != nil || s.Terminal != nil || state != "" {
		return nil
	}
	return &MalformedError{Operation: string(op), Model: "ExecutionState", Field: "finished, failed, terminal or state",
		Has: presentFields(s)}
}

func isTrue(b *bool) bool { return b != nil && *b }

// Run returns the run of a running configuration from its rcId alone, to
// poll or wait on: see [Run] for what it cannot know. It sends nothing until
// polled.
func (c *Client) Run(rcID ids.RcID) *Run {
	r := &Run{rcID: rcID}
	secrets := c.secretsOf(call{}, nil) // a run's messages never quote the client's API key
	r.t = &tracker[runState]{c: c, kind: "run", id: int64(rcID), rule: c.cfg.terminalRule, pollOp: gen.OpGetExperimentStatus,
		accept: r.accept, due: r.settleDue, polled: &waitSettings{window: DefaultStaleWindow}, secrets: secrets,
		poll: func(ctx context.Context) (runState, error) {
			s, err := c.Experiments.Status(ctx, rcID)
			if err == nil {
				err = c.listed(checkRunState(gen.OpGetExperimentStatus, s))
			}
			if err == nil && s.Text != nil {
				*s.Text = secrets.scrub(*s.Text)
			}
			return runState{s}, err
		},
		stop: func(ctx context.Context) error {
			_, err := c.Experiments.Stop(ctx, rcID)
			return err
		}}
	return r
}

// Poll sends one status request and returns the state. It judges the
// state as a wait would, with DefaultStaleWindow: [Run.Done] says whether
// the end is decided.
func (r *Run) Poll(ctx context.Context) (*gen.ExecutionState, error) {
	s, err := r.t.pollOnce(ctx, r.t.polled)
	return s.ExecutionState, err
}

// Done reports whether the last state seen is terminal.
func (r *Run) Done() bool { return r.t.done() }

// State returns the last state seen, nil before the first poll.
func (r *Run) State() *gen.ExecutionState {
	s, _, _ := r.t.snapshot()
	return s.ExecutionState
}

// Result returns the final state, with a *StateError when the run did not
// finish well, or an error when it is not done yet.
func (r *Run) Result() (*gen.ExecutionState, error) {
	s, err := r.t.result()
	return s.ExecutionState, err
}

// Wait polls until the run ends or ctx does; see [PollPolicy] for the pace,
// and [Run] for when an end is this start's. A run that failed or stopped
// returns its final state and a *StateError. A Run whose start the server
// refused returns that refusal ([ErrRunUnderWay]) at once. opts may be nil.
func (r *Run) Wait(ctx context.Context, opts *WaitOptions) (*gen.ExecutionState, error) {
	if err := r.refusal(); err != nil {
		return nil, err
	}
	s, err := r.t.wait(ctx, opts)
	return s.ExecutionState, err
}

// States yields each change of state or progress until the run ends, then
// the final state (with its *StateError if it did not finish well). Use it
// for progress bars. A Run whose start the server refused yields that
// refusal ([ErrRunUnderWay]). opts may be nil.
func (r *Run) States(ctx context.Context, opts *WaitOptions) iter.Seq2[*gen.ExecutionState, error] {
	return func(yield func(*gen.ExecutionState, error) bool) {
		if err := r.refusal(); err != nil {
			yield(nil, err)
			return
		}
		for s, err := range r.t.states(ctx, opts) {
			if !yield(s.ExecutionState, err) {
				return
			}
		}
	}
}

// RunAndWait starts a run of a running configuration and waits for it to
// end. It returns the Run whenever runExperiment took effect or may have,
// with its final state ([Run.State]) and its result ([Run.ResultID]), also
// with an error: a start whose answer was lost is settled with [ExperimentsService.Began]
// before any wait, and is never sent again; one that did not take effect,
// or whose effect cannot be told ([ErrStartUnknown]), returns its error. A
// start refused because the configuration has a run under way returns an
// error matching [ErrRunUnderWay] and no Run: that run is not this
// start's, and nothing waits on it. opts may be nil; its MaxRunLength lets
// Began rule a lost start out.
func (c *Client) RunAndWait(ctx context.Context, rcID ids.RcID, opts *WaitOptions) (*Run, error) {
	if err := opts.validate(string(gen.OpRunExperiment)); err != nil {
		return nil, err
	}
	run, err := c.Experiments.Start(ctx, rcID, nil)
	if errors.Is(err, ErrMayHaveBeenApplied) && run != nil {
		began, berr := c.Experiments.Began(ctx, run, opts)
		switch {
		case berr != nil:
			return run, berr
		case !began:
			return run, fmt.Errorf("%w; the server shows that it did not take effect: no run was listed, under way or ended within WaitOptions.MaxRunLength (%v) and StaleWindow after it", err, opts.maxRunLength())
		}
		err = nil
	}
	if err != nil {
		return run, err
	}
	_, err = run.Wait(ctx, opts)
	return run, err
}
