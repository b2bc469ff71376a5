package facade

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

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
// # Which end and which result are this run's
//
// A real server answers getExperimentStatus right after a start with the
// last run's end, shows a run under way only as finished false (its
// genericState and step stay IDLE), and its runs list
// (getExperimentRunsForScenario) says nothing of the run configuration. A
// Run that knows its start therefore takes an end as its own only with
// evidence ([Run.EndEvidence]): the run was seen under way, the end differs
// from the one before the start, no run had ended before the start, or its
// scenario lists a run that was not listed before the start; for a run the
// server never lists (VARIATION), and for a failure or a stop, an end that
// persisted for [WaitOptions].StaleWindow. [Run.ResultID] returns only the
// result of the run this start made. [Run.Began] settles a start whose
// answer was lost: began, not begun, or [ErrStartUnknown].
//
// A Run made from its rcId alone ([Client.Run]) knows the state but not
// its start: its first end is taken as it is (it may be the last run's),
// and it has no result id of its own; [ExperimentsService.LatestRun] gives
// the newest listed.
type Run struct {
	rcID ids.RcID
	t    *tracker[runState]

	mu     sync.Mutex
	ev     evidence
	answer *gen.ApiRunExperiment // what runExperiment answered
	sent   bool                  // StartPrepared sent runExperiment
}

// RcID is the running configuration the run is of.
func (r *Run) RcID() ids.RcID { return r.rcID }

// StartAnswer is what runExperiment answered, nil when this Run did not
// send it, or its answer was lost.
func (r *Run) StartAnswer() *gen.ApiRunExperiment {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answer
}

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
	return &MissingFieldError{Operation: string(op), Model: "ExecutionState", Field: "finished, failed, terminal or state",
		Has: presentFields(s)}
}

func isTrue(b *bool) bool { return b != nil && *b }

// Run returns the run of a running configuration from its rcId alone, to
// poll or wait on: see [Run] for what it cannot know. It sends nothing until
// polled.
func (c *Client) Run(rcID ids.RcID) *Run {
	r := &Run{rcID: rcID}
	secrets := c.secretsOf(call{}, nil) // a run's messages never quote the client's API key
	r.t = &tracker[runState]{c: c, kind: "run", id: int64(rcID), rule: DefaultTerminalRule, pollOp: gen.OpGetExperimentStatus,
		accept: r.accept, window: DefaultStaleWindow, secrets: secrets,
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

// WithTerminalRule replaces the terminal-state rule of this run and
// returns it. Set it before polling.
func (r *Run) WithTerminalRule(rule TerminalRule) *Run {
	if rule != nil {
		r.t.setRule(rule)
	}
	return r
}

// Poll sends one status request and returns the state.
func (r *Run) Poll(ctx context.Context) (*gen.ExecutionState, error) {
	s, err := r.t.pollOnce(ctx)
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

// Wait polls until the run ends or ctx does; see [PollPolicy] for the pace.
// A run that failed or stopped returns its final state and a *StateError.
// opts may be nil.
func (r *Run) Wait(ctx context.Context, opts *WaitOptions) (*gen.ExecutionState, error) {
	s, err := r.t.wait(ctx, opts)
	return s.ExecutionState, err
}

// States yields each change of state or progress until the run ends, then
// the final state (with its *StateError if it did not finish well). Use it
// for progress bars. opts may be nil.
func (r *Run) States(ctx context.Context, opts *WaitOptions) iter.Seq2[*gen.ExecutionState, error] {
	return func(yield func(*gen.ExecutionState, error) bool) {
		for s, err := range r.t.states(ctx, opts) {
			if !yield(s.ExecutionState, err) {
				return
			}
		}
	}
}

// Polls returns how many status requests this Run has sent.
func (r *Run) Polls() int { return r.t.pollCount() }

// RunAndWait starts a run of a running configuration and waits for it to
// end. It returns the Run whenever runExperiment was sent, with its final
// state ([Run.State]) and its result ([Run.ResultID]), also with an error:
// a start whose answer was lost is settled with [Run.Began] before any
// wait, and is never sent again; one that did not take effect, or whose
// effect cannot be told ([ErrStartUnknown]), returns its error. opts may
// be nil.
func (c *Client) RunAndWait(ctx context.Context, rcID ids.RcID, opts *WaitOptions) (*Run, error) {
	run, err := c.Experiments.Start(ctx, rcID, nil)
	if errors.Is(err, ErrMayHaveBeenApplied) && run != nil {
		began, berr := run.Began(ctx, opts)
		switch {
		case berr != nil:
			return run, berr
		case !began:
			return run, fmt.Errorf("%w; the server shows that it did not take effect: no run was started", err)
		}
		err = nil
	}
	if err != nil {
		return run, err
	}
	_, err = run.Wait(ctx, opts)
	return run, err
}
