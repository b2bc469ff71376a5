package facade

import (
	"context"
	"iter"

	"github.com/scmodel/scmgo/gen"
)

// Run is the run of a running configuration, followed by polling
// getExperimentStatus. Start one with [ExperimentsService.Start], or resume
// one from its rcId alone with [Client.Run] (another process may have
// started it). A Run is safe for concurrent use.
type Run struct {
	RcID int64
	t    *tracker[runState]
}

// runState adapts gen.ExecutionState to the tracker.
type runState struct{ *gen.ExecutionState }

func (s runState) stateValue() string { return string(s.State) }
func (s runState) progressValue() *float64 {
	if s.ExecutionState == nil {
		return nil
	}
	return s.Progress
}
func (s runState) message() string {
	if s.ExecutionState == nil || s.Message == nil {
		return ""
	}
	return *s.Message
}
func (s runState) details() []string { return nil }

// Run returns the run of a running configuration, to poll or wait on. It
// sends nothing until polled.
func (c *Client) Run(rcID int64) *Run {
	r := &Run{RcID: rcID}
	r.t = &tracker[runState]{c: c, kind: "run", id: rcID, rule: DefaultTerminalRule, pollOp: gen.OpGetExperimentStatus,
		poll: func(ctx context.Context) (runState, error) {
			s, err := c.Experiments.Status(ctx, rcID)
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
// end. opts may be nil.
func (c *Client) RunAndWait(ctx context.Context, rcID int64, opts *WaitOptions) (*gen.ExecutionState, error) {
	run, err := c.Experiments.Start(ctx, rcID)
	if err != nil {
		return nil, err
	}
	return run.Wait(ctx, opts)
}
