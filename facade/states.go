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
// the rule of runs and jobs; [WithTerminalRule] replaces it for a client's.
type TerminalRule func(state string) Outcome

// WithTerminalRule replaces the terminal-state rule that the runs and jobs
// of the client judge their states by (Wait, States, Poll, Done, Result):
// for a server whose states the default does not know. It is given a
// run's [RunStateValue] and a job's status. The evidence a run's start
// keeps is still read by [DefaultTerminalRule]: it is the server's flags,
// whatever the rule. nil means DefaultTerminalRule.
func WithTerminalRule(rule TerminalRule) Option {
	return func(c *config) error {
		c.terminalRule = rule
		if rule == nil {
			c.terminalRule = DefaultTerminalRule
		}
		return nil
	}
}

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
	if state = strings.TrimSpace(state); len(state) > maxKnownStateLen {
		return Pending // no known value is so long: a huge one is not upper-cased on every poll
	}
	return terminalStates[strings.ToUpper(state)]
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
// ones, so that each is logged once per operation: at most
// Limits.MaxUnknownStates of them, each cut to Limits.MaxReportedLen, so a
// server sending a new value on every poll costs bounded memory and log.
// Values past the limit are counted, neither kept nor logged.
type stateLog struct {
	limits  Limits
	mu      sync.Mutex
	seen    map[string]struct{} // "operation\x00VALUE", the value cut
	dropped int                 // new values past MaxUnknownStates
}

func newStateLog(l Limits) *stateLog { return &stateLog{limits: l.withDefaults()} }

// note logs at Warn, once per operation and value, a state value the SDK
// does not know, cut to MaxReportedLen and without secrets; past
// MaxUnknownStates values, it
// counts them and says so once.
func (l *stateLog) note(ctx context.Context, logger *slog.Logger, op, state string, secrets *secretSet) {
	state = strings.TrimSpace(state)
	if len(state) <= maxKnownStateLen && knownStates[strings.ToUpper(state)] {
		return
	}
	shown := secrets.scrubCut(state, l.limits.MaxReportedLen)
	switch l.remember(op + "\x00" + strings.ToUpper(shown)) {
	case stateNew:
		logger.LogAttrs(ctx, slog.LevelWarn, "scm: unknown state value, treated as in progress",
			slog.String("operation", op), slog.String("state", shown))
	case stateFirstDropped:
		logger.LogAttrs(ctx, slog.LevelWarn, "scm: unknown state values past the limit are counted, neither kept nor logged",
			slog.String("operation", op), slog.String("limit", "Limits.MaxUnknownStates"), slog.Int("max", l.limits.MaxUnknownStates))
	}
}

// What remember did with a state value.
const (
	stateSeen         = iota // kept already
	stateNew                 // kept now
	stateFirstDropped        // the first one past MaxUnknownStates, counted
	stateDropped             // a later one past MaxUnknownStates, counted
)

// remember keeps key, within MaxUnknownStates keys, or counts it.
func (l *stateLog) remember(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, dup := l.seen[key]; dup {
		return stateSeen
	}
	if len(l.seen) >= l.limits.MaxUnknownStates {
		if l.dropped++; l.dropped == 1 {
			return stateFirstDropped
		}
		return stateDropped
	}
	if l.seen == nil {
		l.seen = map[string]struct{}{}
	}
	l.seen[key] = struct{}{}
	return stateNew
}

// unknownStates returns the unknown state values kept and those counted
// past Limits.MaxUnknownStates.
func (l *stateLog) unknownStates() (kept, dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen), l.dropped
}

// maxKnownStateLen is longer than every known state value.
const maxKnownStateLen = 32
