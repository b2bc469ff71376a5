package facade

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/scmodel/scmgo/gen"
)

// Outcome classifies a run or job state.
type Outcome int

// Outcomes of a state value. Every outcome but Pending ends waiting.
const (
	Pending   Outcome = iota // still in progress: keep polling
	Succeeded                // finished well
	Failed                   // finished with a failure
	Stopped                  // a run stopped before finishing
	Cancelled                // a job cancelled before finishing
)

func (o Outcome) String() string {
	switch o {
	case Succeeded:
		return "succeeded"
	case Failed:
		return "failed"
	case Stopped:
		return "stopped"
	case Cancelled:
		return "cancelled"
	}
	return "pending"
}

// TerminalRule maps a state value to its outcome. [DefaultTerminalRule] is
// the rule of runs and jobs; replace it per run or job with
// [Run.WithTerminalRule] or [Job.WithTerminalRule].
type TerminalRule func(state string) Outcome

// terminalStates are the known terminal values by outcome, upper case.
// Servers disagree on spelling (the import status of a real server is DONE
// and CANCELED), so each outcome has its synonyms.
var terminalStates = map[string]Outcome{
	"DONE": Succeeded, "FINISHED": Succeeded, "COMPLETED": Succeeded, "SUCCEEDED": Succeeded, "SUCCESS": Succeeded,
	"FAILED": Failed, "ERROR": Failed,
	"CANCELED": Cancelled, "CANCELLED": Cancelled,
	"STOPPED": Stopped,
}

// DefaultTerminalRule is the terminal-state rule of runs and jobs. A state
// is terminal only when it is a known terminal value, compared ignoring
// case: DONE, FINISHED, COMPLETED, SUCCEEDED and SUCCESS succeeded; FAILED
// and ERROR failed; CANCELED and CANCELLED were cancelled; STOPPED stopped.
// Any other value, one never seen before included, means the work is still
// in progress: waiting goes on, bounded by the context and
// WaitOptions.MaxWait.
func DefaultTerminalRule(state string) Outcome {
	return terminalStates[strings.ToUpper(strings.TrimSpace(state))]
}

// knownStates are the values the spec lists for run and job states (a
// run's genericState, a job's status), upper case, with the terminal
// synonyms: a value outside them is logged once.
var knownStates = func() map[string]bool {
	known := map[string]bool{}
	for v := range terminalStates {
		known[v] = true
	}
	for _, v := range []gen.ExecutionStateGenericState{gen.ExecutionStateGenericStateIDLE, gen.ExecutionStateGenericStateRUNNING} {
		known[string(v)] = true
	}
	for _, v := range []gen.ImportJobStatus{gen.ImportJobStatusQUEUED, gen.ImportJobStatusRUNNING} {
		known[string(v)] = true
	}
	return known
}()

// stateLog remembers the state values a client has seen outside the known
// ones, so that each is logged once per operation.
type stateLog struct {
	seen sync.Map // "operation\x00VALUE" -> struct{}
}

// note logs at Warn, once per operation and value, a state value the SDK
// does not know.
func (l *stateLog) note(ctx context.Context, logger *slog.Logger, op, state string) {
	upper := strings.ToUpper(strings.TrimSpace(state))
	if knownStates[upper] {
		return
	}
	if _, dup := l.seen.LoadOrStore(op+"\x00"+upper, struct{}{}); dup {
		return
	}
	logger.LogAttrs(ctx, slog.LevelWarn, "scm: unknown state value, treated as in progress",
		slog.String("operation", op), slog.String("state", state))
}
