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
// server shows, or (Ambiguous) it took effect but which run is its own
// cannot be told. Nothing in the SDK, the CLI or a batch sends the start
// again on it: the error says what to check on the server, and the user
// decides. A [*StartUnknownError] matches it.
var ErrStartUnknown = errors.New("whether the start took effect cannot be told")

// StartUnknownError is a start whose effect, or whose run, the server's
// state cannot tell. It matches [ErrStartUnknown].
type StartUnknownError struct {
	Operation string // runExperiment, importExcel, copyScenario, ...
	Subject   string // what was started: "rcId 10303", "scenario \"Plan B\""
	Reason    string // why the evidence cannot tell
	Check     string // what the user can check on the server before starting again
	// Ambiguous: the start took effect, but which of the runs its scenario
	// lists since is its own cannot be told: two or more runs of its type
	// that were not listed before it (another client started the
	// configuration, or another configuration of the type on the scenario
	// ran), or a failure or stop of this run while a new run is listed.
	// The SDK never takes the oldest, and nothing starts the run again.
	Ambiguous bool
}

// Texts of the two kinds of [StartUnknownError].
const (
	startUnknownText = "whether the start took effect cannot be told"
	runAmbiguousText = "which run is this start's cannot be told"
)

func (e *StartUnknownError) Error() string {
	what := startUnknownText
	if e.Ambiguous {
		what = runAmbiguousText
	}
	return fmt.Sprintf("facade: %s of %s: %s: %s; check on the server: %s", e.Operation, e.Subject, what, e.Reason, e.Check)
}

// Is matches [ErrStartUnknown].
func (e *StartUnknownError) Is(target error) bool { return target == ErrStartUnknown }

// accept decides whether a state read after the start is this run's end.
// It is called with every state polled, with the stale window of the wait
// that polled it; a state still in progress is noted (as a run under way
// when it shows one), and never accepted. A wait assumes the start took
// effect: its answer came, or [ExperimentsService.Began] said so. See [Run] for the rules.
func (r *Run) accept(ctx context.Context, s runState, o Outcome, window time.Duration) (bool, error) {
	r.mu.Lock()
	e := r.ev
	r.mu.Unlock()
	switch {
	case e.origin == nil:
		return o != Pending && r.ended(EndUnchecked, nil), nil
	case e.endedBy != "":
		return o != Pending, nil // decided before (a resumed token): the status is read as it is
	}
	rd := e.origin.read(s.ExecutionState)
	now := r.t.c.now()
	if o == Pending {
		r.setEvidence(func(e *evidence) {
			e.underWay = e.underWay || rd.underWay || !e.endSeen.IsZero() // finished false after an end read since the start
			e.endSeen, e.endShown = time.Time{}, ""
		})
		return false, nil
	}
	seen := r.noteEnd(s.ExecutionState, now)
	by := endEvidenceOf(e, rd)
	if now.Sub(seen) < window {
		return false, nil // not settled: a queued run, or the status's lag, may still show
	}
	return r.decide(ctx, s, o, by, window)
}

// noteEnd records the end a read shows, and returns when it was first
// read: a read of another end starts the settling again.
func (r *Run) noteEnd(s *gen.ExecutionState, now time.Time) time.Time {
	key := endKey(s)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ev.endSeen.IsZero() || r.ev.endShown != key {
		r.ev.endSeen, r.ev.endShown = now, key
	}
	return r.ev.endSeen
}

// endEvidenceOf is the evidence the status gives that an end is new, ""
// when it gives none.
func endEvidenceOf(e evidence, rd reading) EndEvidence {
	switch {
	case e.underWay:
		return EndSeenUnderWay
	case rd.newEnd != "":
		return rd.newEnd
	}
	return ""
}

// decide judges a settled end by the runs its scenario lists since the
// start: a listable run's success is this start's only when exactly one
// new run of its type is listed; a failure or a stop only when none is;
// an end of a run never listed (VARIATION) on the status's evidence alone.
func (r *Run) decide(ctx context.Context, s runState, o Outcome, by EndEvidence, window time.Duration) (bool, error) {
	org := r.origin()
	if !listable(org.Type) {
		return r.endedWithout(ctx, s, by, window), nil
	}
	fresh, err := r.listedSince(ctx, org)
	if err != nil {
		return false, err
	}
	switch {
	case o == Succeeded && len(fresh) == 1:
		return r.ended(or(by, EndListed), &fresh[0]), nil
	case o == Succeeded && len(fresh) == 0:
		return false, nil // a listable run's success needs its entry: the server lists it once finished
	case o == Succeeded:
		return false, r.ambiguous(org, fmt.Sprintf("scenario %d lists %d %s runs that were not listed before the start, and any of them may be this start's", org.ScenarioID, len(fresh), org.Type))
	case len(fresh) > 0:
		return false, r.ambiguous(org, fmt.Sprintf("the status shows a run that %s, while scenario %d lists %d new %s run(s) that finished: another run began since the start, and which end is this start's cannot be told", o, org.ScenarioID, len(fresh), org.Type))
	}
	return r.endedWithout(ctx, s, by, window), nil
}

func or(by, other EndEvidence) EndEvidence {
	if by == "" {
		return other
	}
	return by
}

// endedWithout decides an end that no entry confirms: on the status's
// evidence, or, with none, assumed (and logged at Warn).
func (r *Run) endedWithout(ctx context.Context, s runState, by EndEvidence, window time.Duration) bool {
	if by != "" {
		return r.ended(by, nil)
	}
	r.t.c.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "scm: a run's end is taken as its own without proof",
		slog.Int64("rcId", int64(r.rcID)), slog.String("state", r.t.redacted(s.stateValue())), slog.Duration("after", window),
		slog.String("reason", "the server does not list this run, and never showed it under way"))
	return r.ended(EndAssumed, nil)
}

// ambiguous is the error of a start whose run cannot be told from
// another's.
func (r *Run) ambiguous(o *origin, reason string) error {
	return &StartUnknownError{Operation: string(gen.OpRunExperiment), Subject: fmt.Sprintf("rcId %d", o.RcID), Reason: reason, Ambiguous: true,
		Check: fmt.Sprintf("which of scenario %d's %s runs listed since %s was started by this start (getExperimentRunsForScenario names no configuration); take its result by hand", o.ScenarioID, o.Type, o.Started.UTC().Format(time.RFC3339))}
}

// ended records the decided end, with the run's entry when it is listed.
func (r *Run) ended(by EndEvidence, entry *gen.ApiBasicRun) bool {
	r.setEvidence(func(e *evidence) {
		e.endedBy = by
		if entry != nil {
			kept := *entry
			e.entry = &kept
		}
	})
	return true
}

func (r *Run) setEvidence(f func(*evidence)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.ev)
}

// Began answers, for a run whose start's answer was lost (its call failed
// matching [ErrMayHaveBeenApplied], or the process died while it was
// sent), whether it took effect, with one of three answers:
//
//   - true: the scenario lists a run of the start's type that was not
//     listed before it, or the status shows a run under way (finished
//     false where an end showed before the start, or genericState or step
//     leaving IDLE), or an end that is new: none showed before the start,
//     or another one did;
//   - false, only where the evidence rules the start out: for a type the
//     server lists, after a success or no end before the start, once
//     opts.MaxRunLength and StaleWindow have passed since the start was
//     sent, no new run is listed and the status shows no run under way and
//     no new end (a run the start made would have ended, and a finished
//     one would be listed);
//   - an error matching [ErrStartUnknown] ([*StartUnknownError], saying
//     what to check on the server) in every other case: without
//     MaxRunLength, once StaleWindow has passed with no evidence (a run of
//     any length may still be under way behind a status that lags); and
//     whatever the wait, for a failed or stopped end before the start
//     (such runs are not listed), a VARIATION run (never listed), or
//     evidence of an earlier release's token that does not say which end
//     showed before the start.
//
// It polls meanwhile, at the pace of the policy, until it can answer or
// its window has passed: MaxRunLength plus StaleWindow (StaleWindow alone
// without MaxRunLength), counted from the start or from now, whichever is
// later (a token kept between Prepare and StartPrepared names a start
// earlier than its send, and a status read now may still lag behind it).
// A true answer is evidence that a start took effect, not that it was
// this one: another client's run under way reads alike; the wait that
// follows still takes an end as this start's only by the rules of [Run].
// A Run made from its rcId alone cannot tell, and fails with a
// [*ValidationError]; a Run whose start the server refused fails with that
// refusal ([ErrRunUnderWay]). Never start the run again on anything but
// false. It reads through the client run was made with. opts may be nil;
// only its Policy, StaleWindow and MaxRunLength are read.
//
//scm:helper
func (s *ExperimentsService) Began(ctx context.Context, run *Run, opts *WaitOptions) (bool, error) {
	if run == nil {
		return false, &ValidationError{Operation: string(gen.OpGetExperimentStatus), Field: "run", Reason: "must not be nil"}
	}
	return run.began(ctx, opts)
}

// began is [ExperimentsService.Began] of r, polling through r's client.
func (r *Run) began(ctx context.Context, opts *WaitOptions) (bool, error) {
	o := r.origin()
	switch {
	case o == nil:
		return false, r.noOrigin("ExperimentsService.Began", "whether its start took effect cannot be told")
	case r.refusal() != nil:
		return false, r.refusal()
	}
	if err := opts.validate(string(gen.OpGetExperimentStatus)); err != nil {
		return false, err
	}
	// The window runs from the start, and from now: the start may have
	// been sent after its evidence was taken (a token kept between Prepare
	// and StartPrepared), and a status read now may still lag behind it.
	p, from := r.t.policy(opts), later(o.Started, r.t.c.now())
	deadline := from.Add(opts.maxRunLength() + opts.staleWindow())
	for n := 0; ; n++ {
		began, decided, err := r.beganNow(ctx, o, deadline, opts.maxRunLength() > 0)
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
// evidence allows, whether the start took effect. Past the deadline it
// always decides: not begun only where ruled says the run's length was
// declared and the evidence rules the start out.
func (r *Run) beganNow(ctx context.Context, o *origin, deadline time.Time, ruled bool) (began, decided bool, err error) {
	if listable(o.Type) {
		fresh, err := r.listedSince(ctx, o)
		if err != nil || len(fresh) > 0 {
			return err == nil, err == nil, err
		}
	}
	s, err := r.t.c.Experiments.readStatus(ctx, r.rcID)
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
	case ruled && ruledOut(o, rd):
		return false, true, nil
	}
	return false, true, r.unknown(o, rd, ruled)
}

// ruledOut reports whether a read at the end of Began's window, with no
// new run listed, rules the start out: a run of a type the server lists,
// after a success or no end before the start, would be listed once
// finished, and would show an end other than a failure before it.
func ruledOut(o *origin, rd reading) bool {
	return listable(o.Type) && o.Before.KindKnown && (!o.Before.Ended || o.Before.Outcome == Succeeded) &&
		(rd.outcome == Pending || rd.outcome == Succeeded)
}

// unknown is the error of a start that the evidence cannot settle.
func (r *Run) unknown(o *origin, rd reading, ruled bool) error {
	var reason string
	switch {
	case !o.Before.KindKnown:
		reason = "its evidence (a resume token of an earlier release) does not say which end the status showed before the start"
	case !listable(o.Type):
		reason = fmt.Sprintf("the status shows the same end as before the start, and the server never lists %s runs", o.Type)
	case o.Before.Ended && o.Before.Outcome != Succeeded:
		reason = fmt.Sprintf("the status shows the same %s end as before the start, and the server does not list such runs", o.Before.Outcome)
	case !ruled && rd.outcome == Pending:
		reason = "the status shows no end, as before the start (a real server shows a run under way and one never started alike), and no run is listed; WaitOptions.MaxRunLength, the longest a run takes, lets the start be ruled out"
	case !ruled:
		reason = "the status shows the same end as before the start and no new run is listed, but a run may still be under way behind a status that lags; WaitOptions.MaxRunLength, the longest a run takes, lets the start be ruled out"
	default:
		reason = fmt.Sprintf("the status shows a %s end", rd.outcome)
	}
	return &StartUnknownError{Operation: string(gen.OpRunExperiment), Subject: fmt.Sprintf("rcId %d", o.RcID), Reason: reason,
		Check: fmt.Sprintf("whether scenario %d lists a %s run besides the %d it listed before the start at %s (getExperimentRunsForScenario), or what the experiment's status shows once such a run would have ended; start it again only if no run began",
			o.ScenarioID, o.Type, len(o.Listed), o.Started.UTC().Format(time.RFC3339))}
}
