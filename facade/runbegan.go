package facade

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// ErrStartUnknown: whether a start whose answer was lost took effect (a
// run's runExperiment, an import, a copy) cannot be told from what the
// server shows. Nothing in the SDK, the CLI or a batch sends the start
// again on it: the error says what to check on the server, and the user
// decides. A [*StartUnknownError] matches it.
var ErrStartUnknown = errors.New("whether the start took effect cannot be told")

// StartUnknownError is a start whose effect the server's state cannot
// tell. It matches [ErrStartUnknown].
type StartUnknownError struct {
	Operation string // runExperiment, importExcel, copyScenario, ...
	Subject   string // what was started: "rcId 10303", "scenario \"Plan B\""
	Reason    string // why the evidence cannot tell
	Check     string // what the user can check on the server before starting again
}

func (e *StartUnknownError) Error() string {
	return fmt.Sprintf("facade: %s of %s: %v: %s; check on the server: %s", e.Operation, e.Subject, ErrStartUnknown, e.Reason, e.Check)
}

// Is matches [ErrStartUnknown].
func (e *StartUnknownError) Is(target error) bool { return target == ErrStartUnknown }

// accept decides whether a state read after the start is this run's end.
// It is called with every state polled; a state still in progress is
// noted (as this run under way when it shows so), and never accepted.
// A wait assumes the start took effect: its answer came, or [Run.Began]
// said so.
func (r *Run) accept(ctx context.Context, s runState, o Outcome, window time.Duration) (bool, error) {
	r.mu.Lock()
	e := r.ev
	r.mu.Unlock()
	if e.origin == nil {
		return o != Pending && r.ended(EndUnchecked), nil
	}
	rd := e.origin.read(s.ExecutionState)
	switch {
	case o == Pending:
		if rd.underWay {
			r.setEvidence(func(e *evidence) { e.underWay = true })
		}
		return false, nil
	case e.underWay:
		return r.ended(EndSeenUnderWay), nil
	case rd.newEnd != "":
		return r.ended(rd.newEnd), nil
	}
	if o == Succeeded && listable(e.origin.Type) {
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
		slog.Int64("rcId", int64(r.rcID)), slog.String("state", r.t.redacted(s.stateValue())), slog.Duration("after", window),
		slog.String("reason", "the server does not list this run, and never showed it under way"))
	return r.ended(EndAssumed), nil
}

func (r *Run) ended(by EndEvidence) bool {
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
func (r *Run) EndEvidence() EndEvidence {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ev.endedBy
}

// Began answers, for a start whose answer was lost (its call failed
// matching [ErrMayHaveBeenApplied], or the process died while it was
// sent), whether it took effect, with one of three answers:
//
//   - true: this start's run is listed ([Run.Entry]), or the status shows
//     it under way (finished false where an end showed before the start,
//     or genericState or step leaving IDLE), or shows an end that is new:
//     none showed before the start, or another one did;
//   - false: the start did not take effect: StaleWindow after the start,
//     the status still shows the same successful end as before it, and
//     the scenario lists no new run of this type (a finished run of a
//     type the server lists is listed);
//   - an error matching [ErrStartUnknown] ([*StartUnknownError], saying
//     what to check on the server) when the evidence cannot tell: the same
//     failed or stopped end as before the start (such runs are not
//     listed), the same end of a VARIATION run (never listed), no end
//     before the start and none after it (a run under way shows the same),
//     or evidence of an earlier release's token that does not say which
//     end showed before the start.
//
// It polls meanwhile, at the pace of the policy, until it can answer or
// StaleWindow has passed since the start and since it was called (a
// status read may lag behind a start sent after its evidence was taken).
// A Run made from its rcId alone cannot tell, and fails matching
// [ErrNoOrigin]. Never start the run again on anything but false. opts
// may be nil; only its Policy and StaleWindow are read.
//
//scm:helper
func (r *Run) Began(ctx context.Context, opts *WaitOptions) (bool, error) {
	o := r.origin()
	if o == nil {
		return false, fmt.Errorf("facade: run of rcId %d: %w: whether its start took effect cannot be told", r.rcID, ErrNoOrigin)
	}
	if err := opts.validate(string(gen.OpGetExperimentStatus)); err != nil {
		return false, err
	}
	// The window runs from the start, and from now: the start may have
	// been sent after its evidence was taken (a token kept between Prepare
	// and StartPrepared), and a status read now may still lag behind it.
	p, deadline := r.t.policy(opts), later(o.Started, r.t.c.now()).Add(opts.staleWindow())
	for n := 0; ; n++ {
		began, decided, err := r.beganNow(ctx, o, deadline)
		if err != nil || decided {
			return began, err
		}
		now := r.t.c.now()
		if err := sleep(ctx, r.t.c.cfg.clock, min(p.next(estimator{}, n, now.Sub(o.Started)), deadline.Sub(now))); err != nil {
			return false, err
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// beganNow reads the listing and the status once and decides, when the
// evidence allows, whether the start took effect. Past the deadline (the
// stale window after the start) it always decides.
func (r *Run) beganNow(ctx context.Context, o *origin, deadline time.Time) (began, decided bool, err error) {
	if listable(o.Type) {
		if entry, err := r.Entry(ctx); err != nil || entry != nil {
			return entry != nil, err == nil, err
		}
	}
	s, err := r.t.c.Experiments.Status(ctx, r.rcID)
	if err == nil {
		err = r.t.c.listed(checkRunState(gen.OpGetExperimentStatus, s))
	}
	if err != nil {
		return false, false, err
	}
	rd := o.read(s)
	switch {
	case rd.underWay:
		r.setEvidence(func(e *evidence) { e.underWay = true })
		return true, true, nil
	case rd.newEnd != "":
		return true, true, nil
	case r.t.c.now().Before(deadline):
		return false, false, nil
	case rd.outcome == Succeeded && listable(o.Type) && o.Before.KindKnown:
		return false, true, nil
	}
	return false, true, r.unknown(o, rd)
}

// unknown is the error of a start that the evidence cannot settle.
func (r *Run) unknown(o *origin, rd reading) error {
	var reason string
	switch {
	case rd.outcome == Pending:
		reason = "the status shows no end, as it did before the start: a real server shows a run under way and one never started alike"
	case !o.Before.KindKnown:
		reason = "its evidence (a resume token of an earlier release) does not say which end the status showed before the start"
	case !listable(o.Type):
		reason = fmt.Sprintf("the status shows the same end as before the start, and the server never lists %s runs", o.Type)
	default:
		reason = fmt.Sprintf("the status shows the same %s end as before the start, and the server does not list such runs", rd.outcome)
	}
	return &StartUnknownError{Operation: string(gen.OpRunExperiment), Subject: fmt.Sprintf("rcId %d", o.RcID), Reason: reason,
		Check: fmt.Sprintf("whether scenario %d lists a %s run besides the %d it listed before the start at %s (getExperimentRunsForScenario), or what the experiment's status shows once such a run would have ended; start it again only if no run began",
			o.ScenarioID, o.Type, len(o.Listed), o.Started.UTC().Format(time.RFC3339))}
}
