package facade

import (
	"context"
	"fmt"
	"iter"

	"github.com/scmodel/scmgo/gen"
)

// Run is the run of a running configuration, followed by polling
// getExperimentStatus. Start one with [ExperimentsService.Start], or resume
// one from its rcId alone with [Client.Run] (another process may have
// started it). A Run is safe for concurrent use.
type Run struct {
	RcID int64
	// Start is what runExperiment answered; zero for a run resumed by its
	// rcId.
	Start gen.ApiRunExperiment
	t     *tracker[runState]
}

// runState adapts gen.ExecutionState to the tracker. A real server
// answers booleans (finished, failed, terminal) and no state string;
// [RunStateValue] turns them into one.
type runState struct{ *gen.ExecutionState }

func (s runState) stateValue() string { return RunStateValue(s.ExecutionState) }

// progressValue is the progress a server sends beside the state, if any: a
// real server sends none, and polling then backs off instead of estimating.
func (s runState) progressValue() *float64 {
	if s.ExecutionState == nil {
		return nil
	}
	return rawNumber(s.AdditionalProperties, "progress")
}

func (s runState) message() string {
	if s.ExecutionState == nil {
		return ""
	}
	if s.Text != nil {
		return *s.Text
	}
	return rawString(s.AdditionalProperties, "message")
}

func (s runState) details() []string { return nil }

// Run state values derived from the flags of an ExecutionState.
const (
	RunFinished = "FINISHED" // finished is true
	RunFailed   = "FAILED"   // failed is true
	RunStopped  = "STOPPED"  // terminal is true without finished or failed
)

// RunStateValue is the state of a run as one value, the one [Run] judges
// with its [TerminalRule]: [RunFailed] when failed is true, [RunFinished]
// when finished is, [RunStopped] when only terminal is; else the state
// string a server may send instead of the flags, else genericState (IDLE,
// RUNNING, ...), which means the run goes on. It is "" for nil.
func RunStateValue(s *gen.ExecutionState) string {
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
	if v := rawString(s.AdditionalProperties, "state"); v != "" {
		return v
	}
	return string(s.GenericState)
}

// checkRunState stops a wait on an answer that cannot say whether the run
// is over: none of finished, failed and terminal, and no state string.
func checkRunState(op gen.OperationID, s *gen.ExecutionState) error {
	if s.Failed != nil || s.Finished != nil || s.Terminal != nil || rawString(s.AdditionalProperties, "state") != "" {
		return nil
	}
	return &MissingFieldError{Operation: string(op), Model: "ExecutionState", Field: "finished, failed, terminal or state",
		Has: presentFields(s)}
}

func isTrue(b *bool) bool { return b != nil && *b }

// Run returns the run of a running configuration, to poll or wait on. It
// sends nothing until polled.
func (c *Client) Run(rcID int64) *Run {
	r := &Run{RcID: rcID}
	r.t = &tracker[runState]{c: c, kind: "run", id: rcID, rule: DefaultTerminalRule, pollOp: gen.OpGetExperimentStatus,
		poll: func(ctx context.Context) (runState, error) {
			s, err := c.Experiments.Status(ctx, rcID)
			if err == nil {
				err = c.listed(checkRunState(gen.OpGetExperimentStatus, s))
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

// ResultID returns the experimentResultId of the run configuration's
// latest run, the input of [DashboardsService.Pages] and
// [DashboardsService.ExportPage]: it reads the run configuration for its
// scenario, then the scenario's runs ([ExperimentsService.LatestRun]). Call
// it once [Run.Wait] has returned; [ExperimentsService.RunSync] answers the
// id directly.
func (r *Run) ResultID(ctx context.Context) (int64, error) {
	c := r.t.c
	rc, err := c.Experiments.RunConfiguration(ctx, r.RcID)
	if err != nil {
		return 0, err
	}
	scenarioID := deref(rc.ScenarioId)
	if scenarioID == 0 {
		return 0, c.listed(&MissingFieldError{Operation: string(gen.OpGetExperimentRunConfiguration), Model: "ApiARunConfigurationWrapper",
			Field: "scenarioId", Has: presentFields(rc)})
	}
	latest, err := c.Experiments.LatestRun(ctx, scenarioID, r.RcID)
	if err != nil {
		return 0, err
	}
	if latest == nil {
		return 0, fmt.Errorf("facade: %s: scenario %d lists no run of rcId %d", gen.OpGetExperimentRunsForScenario, scenarioID, r.RcID)
	}
	return latest.Id, nil
}

// Polls returns how many status requests this Run has sent.
func (r *Run) Polls() int { return r.t.pollCount() }

// RunAndWait starts a run of a running configuration and waits for it to
// end. opts may be nil.
func (c *Client) RunAndWait(ctx context.Context, rcID int64, opts *WaitOptions) (*gen.ExecutionState, error) {
	run, err := c.Experiments.Start(ctx, rcID, nil)
	if err != nil {
		return nil, err
	}
	return run.Wait(ctx, opts)
}
