package facade

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
)

// ErrFailed: the work ended without a result: a run or job that failed,
// stopped or was cancelled, a run that could not start, a job that did
// not start ([*StateError], whose Outcome tells which). Read its message
// and details, fix what they name, and start again.
var ErrFailed = errors.New("failed")

// StateError is a run or job that ended other than Succeeded (Outcome:
// [Failed], [Stopped] or [Cancelled]), or that did not start: a run whose
// validation failed ([ExperimentsService.RunSync]), a job whose start's
// answer said why it could not start (ID 0, Operation the start's). It
// matches [ErrFailed].
type StateError struct {
	Kind string // "run" or "job"
	ID   int64  // rcId of a run, jobId of a job; 0 for a job that did not start
	// Operation is, for a job that did not start, the operation whose
	// answer said so (importExcel, copyScenario, ...); "" otherwise.
	Operation string
	State     string // the state value the server reported
	Outcome   Outcome
	Message   string // the server's message, if any
	// Details are further messages, every one (a run's validation errors,
	// each with its source); Groups counts the repeats.
	Details []string
	// Validation is every validation error as the server sent it, for a
	// run that could not start ([ExperimentsService.RunSync]).
	Validation []gen.ApiValidationError

	maxLen int // Limits.MaxReportedLen of the client, 0 for the default
}

// shownGroups is how many groups of details Error names.
const shownGroups = 5

// Error names the first groups of identical details with their counts,
// then how many more there are: a run that could not start may have
// hundreds of validation errors, mostly repeats. Details holds them all.
// The state, the message and each detail are cut to
// [Limits].MaxReportedLen bytes; the fields hold them whole.
func (e *StateError) Error() string {
	if e.ID == 0 && e.Operation != "" {
		return fmt.Sprintf("facade: %s: the %s did not start: %s", e.Operation, e.Kind, e.cut(e.Message))
	}
	msg := fmt.Sprintf("facade: %s %d ended in state %s", e.Kind, e.ID, e.cut(e.State))
	if e.Message != "" {
		msg += ": " + e.cut(e.Message)
	}
	groups := e.Groups()
	var parts []string
	for i, g := range groups {
		if i == shownGroups {
			parts = append(parts, fmt.Sprintf("and %d more (%d in all)", len(groups)-shownGroups, len(e.Details)))
			break
		}
		part := e.cut(g.Detail)
		if g.Count > 1 {
			part += fmt.Sprintf(" (%d times)", g.Count)
		}
		parts = append(parts, part)
	}
	if len(parts) > 0 {
		msg += ": " + strings.Join(parts, "; ")
	}
	return msg
}

// cut is s cut to the client's MaxReportedLen.
func (e *StateError) cut(s string) string {
	return textcut.Cut(s, cmp.Or(e.maxLen, DefaultLimits().MaxReportedLen))
}

// DetailGroup is one detail of a [StateError] and how often it occurs.
type DetailGroup struct {
	Detail string
	Count  int
}

// Groups returns the details grouped: each distinct detail (a validation
// message with its source) once, with its count, in the order each first
// occurs.
func (e *StateError) Groups() []DetailGroup {
	var groups []DetailGroup
	index := map[string]int{}
	for _, d := range e.Details {
		if i, ok := index[d]; ok {
			groups[i].Count++
			continue
		}
		index[d] = len(groups)
		groups = append(groups, DetailGroup{Detail: d, Count: 1})
	}
	return groups
}

// Is matches ErrFailed.
func (e *StateError) Is(target error) bool { return target == ErrFailed }

// WaitOptions are the optional inputs of Wait and States.
type WaitOptions struct {
	// Policy overrides the client's poll policy. Nil means the client's.
	Policy *PollPolicy
	// StopOnCancel stops the run (stopExperiment) or cancels the job
	// (importCancel) when ctx ends, or MaxWait passes, before the work does.
	StopOnCancel bool
	// MaxWait bounds the wait, measured on the client's clock: when it
	// passes with the work still in progress, waiting ends with an error
	// matching ErrTimeout. Zero means no bound but the context's.
	MaxWait time.Duration
	// StaleWindow is, for a run, how long the server's status may lag
	// behind a start: how long after a start it may still show what it
	// showed before, and after a run's end the next run of a queue. A
	// run's end is taken as its start's only once settled: a read at least
	// StaleWindow after the one that first showed it still shows an end,
	// with no run under way read in between (see [Run]). That costs one
	// StaleWindow after the end; a lower value makes the wait end sooner,
	// and is safe only for a server that lags less. [ExperimentsService.Began] waits
	// StaleWindow (plus MaxRunLength) for evidence. Zero means
	// DefaultStaleWindow. Jobs ignore it.
	StaleWindow time.Duration
	// MaxRunLength is, for [ExperimentsService.Began], the longest a run of the
	// configuration takes, as the user knows it: once it and StaleWindow
	// have passed since a start was sent, a run of a type the server lists
	// that shows no run under way, no new end and no new listed run rules
	// the start out ("not begun"). Zero means not declared: Began then
	// never answers "not begun", only began or unknown. A value shorter
	// than a real run makes a start that took effect read as not begun:
	// declare a bound, not an average. Waits ignore it.
	MaxRunLength time.Duration
}

func (o *WaitOptions) staleWindow() time.Duration {
	if o == nil || o.StaleWindow <= 0 {
		return DefaultStaleWindow
	}
	return o.StaleWindow
}

func (o *WaitOptions) maxRunLength() time.Duration {
	if o == nil {
		return 0
	}
	return o.MaxRunLength
}

func (o *WaitOptions) validate(op string) error {
	if o == nil {
		return nil
	}
	if o.MaxWait < 0 {
		return &ValidationError{Operation: op, Field: "WaitOptions.MaxWait", Reason: fmt.Sprintf("must not be negative, got %v", o.MaxWait)}
	}
	if o.StaleWindow < 0 {
		return &ValidationError{Operation: op, Field: "WaitOptions.StaleWindow", Reason: fmt.Sprintf("must not be negative, got %v", o.StaleWindow)}
	}
	if o.MaxRunLength < 0 {
		return &ValidationError{Operation: op, Field: "WaitOptions.MaxRunLength", Reason: fmt.Sprintf("must not be negative, got %v", o.MaxRunLength)}
	}
	if o.Policy != nil {
		if err := o.Policy.validate(); err != nil {
			return &ValidationError{Operation: op, Field: "WaitOptions.Policy", Reason: err.Error()}
		}
	}
	return nil
}

// status is what a tracker needs from a state value.
type status interface {
	stateValue() string
	progressValue() *float64
	message() string
	details() []string
}

// tracker follows one run or job; Run and Job wrap it.
type tracker[S status] struct {
	c      *Client
	kind   string
	id     int64
	pollOp gen.OperationID // the operation poll sends, for logs
	poll   func(ctx context.Context) (S, error)
	stop   func(ctx context.Context) error
	// accept, when set, decides whether a state read is the end of this
	// work, or a stale one (see Run): it sees every state polled, with the
	// stale window of the wait that polled it.
	accept func(ctx context.Context, s S, o Outcome, window time.Duration) (bool, error)
	// due, when set, is how long until a poll would settle what the last
	// ones read (a run's end): a wait polls by then.
	due func(window time.Duration) time.Duration
	// secrets are what no state or error given to the observer shows.
	secrets *secretSet
	// polled are the settings of a poll outside any wait (Run.Poll).
	polled *waitSettings

	mu       sync.Mutex
	rule     TerminalRule
	last     S
	seen     bool
	accepted bool // accept took the last state as the end
	est      estimator
	polls    int
	began    time.Time // when the work started: a run's start, else the first wait's
}

// waitSettings are one wait's own settings: two waits on one Run with
// different StaleWindows each keep theirs.
type waitSettings struct {
	window time.Duration
}

// settingsOf are the settings of a wait with opts.
func (t *tracker[S]) settingsOf(opts *WaitOptions) *waitSettings {
	return &waitSettings{window: opts.staleWindow()}
}

// observe records a state that a poll (or the start of the work) returned.
func (t *tracker[S]) observe(s S, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last, t.seen = s, true
	t.est.observe(s.progressValue(), now)
}

// setBegan records when the work started.
func (t *tracker[S]) setBegan(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.began = at
}

// outcomeOf is the outcome of a state under the tracker's rule.
func (t *tracker[S]) outcomeOf(s S) Outcome {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rule(s.stateValue())
}

func (t *tracker[S]) snapshot() (S, bool, Outcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.seen {
		return t.last, false, Pending
	}
	o := t.rule(t.last.stateValue())
	if t.accept != nil && !t.accepted {
		o = Pending
	}
	return t.last, true, o
}

// pollOnce polls once, judging the state with the settings w of the wait
// (or Poll) that polls.
func (t *tracker[S]) pollOnce(ctx context.Context, w *waitSettings) (S, error) {
	s, err := t.poll(withSecretsContext(ctx, t.secrets))
	if err != nil {
		return s, err
	}
	t.c.states.note(ctx, t.c.cfg.logger, string(t.pollOp), s.stateValue(), t.secrets)
	o := t.outcomeOf(s)
	accepted := true
	if t.accept != nil {
		if accepted, err = t.accept(ctx, s, o, w.window); err != nil {
			return s, err
		}
	}
	t.notePoll(ctx, s)
	t.observe(s, t.c.now())
	t.mu.Lock()
	t.polls++
	t.accepted = accepted
	t.mu.Unlock()
	return s, nil
}

func (t *tracker[S]) pollCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.polls
}

func (t *tracker[S]) done() bool {
	_, _, o := t.snapshot()
	return o != Pending
}

// result is the terminal error of the last state, if any.
func (t *tracker[S]) result() (S, error) {
	s, seen, o := t.snapshot()
	if !seen || o == Pending {
		return s, fmt.Errorf("facade: %s %d is not done", t.kind, t.id)
	}
	if o == Succeeded {
		return s, nil
	}
	return s, &StateError{Kind: t.kind, ID: t.id, State: s.stateValue(), Outcome: o, Message: s.message(), Details: s.details(),
		maxLen: t.c.cfg.limits.MaxReportedLen}
}

func (t *tracker[S]) policy(opts *WaitOptions) PollPolicy {
	if opts != nil && opts.Policy != nil {
		return opts.Policy.withDefaults()
	}
	return t.c.cfg.poll.withDefaults()
}

// states polls until the work ends, yielding each change of state or
// progress and, last, the final state with its *StateError if it did not
// succeed. Each poll but the first comes after a pause of the policy; the
// first too when a state was seen already, and none after a Retry-After
// that was waited out.
func (t *tracker[S]) states(ctx context.Context, opts *WaitOptions) iter.Seq2[S, error] {
	return func(yield func(S, error) bool) {
		ctx, yield, end := t.startWait(ctx, yield)
		defer end()
		if err := opts.validate(string(t.pollOp)); err != nil {
			var zero S
			yield(zero, err)
			return
		}
		p, w := t.policy(opts), t.settingsOf(opts)
		deadline := t.deadline(opts)
		t.mu.Lock()
		if t.began.IsZero() {
			t.began = t.c.now()
		}
		t.mu.Unlock()
		_, pause, _ := t.snapshot()
		var prev S
		havePrev := false
		for n := 0; ; n++ {
			last, _, o := t.snapshot()
			if o != Pending {
				yield(t.result())
				return
			}
			if !deadline.IsZero() && !t.c.now().Before(deadline) {
				yield(last, t.gaveUp(ctx, opts, last))
				return
			}
			s, err := t.pollAfter(ctx, p, w, n, pause, deadline)
			if errors.Is(err, errPastDeadline) {
				continue
			}
			if pause = true; err != nil {
				if t.waitedRetryAfter(ctx, p, err) {
					pause = false
					continue
				}
				yield(last, t.ended(ctx, opts, err))
				return
			}
			if t.outcomeOf(s) == Pending && (!havePrev || changed(prev, s)) { // a stale end is not shown
				prev, havePrev = s, true
				if !yield(s, nil) {
					return
				}
			}
		}
	}
}

// deadline is when MaxWait passes, zero when there is no MaxWait.
func (t *tracker[S]) deadline(opts *WaitOptions) time.Time {
	if opts == nil || opts.MaxWait == 0 {
		return time.Time{}
	}
	return t.c.now().Add(opts.MaxWait)
}

// gaveUp builds the error of a wait that MaxWait ended, stopping the work
// first when asked to.
func (t *tracker[S]) gaveUp(ctx context.Context, opts *WaitOptions, last S) error {
	state := t.secrets.scrubCut(last.stateValue(), t.c.cfg.limits.MaxReportedLen)
	err := fmt.Errorf("facade: waiting for %s %d: %w after MaxWait (%v), in state %q", t.kind, t.id, ErrTimeout, opts.MaxWait, state)
	if !opts.StopOnCancel {
		return err
	}
	return t.stopAfter(ctx, err)
}

// pollAfter polls, after the policy's pause before poll n when pause is set.
// The pause ends early at a non-zero deadline, and then nothing is polled.
func (t *tracker[S]) pollAfter(ctx context.Context, p PollPolicy, w *waitSettings, n int, pause bool, deadline time.Time) (S, error) {
	var zero S
	if pause {
		if err := t.pause(ctx, p, w, n, deadline); err != nil {
			return zero, err
		}
		if !deadline.IsZero() && !t.c.now().Before(deadline) {
			return zero, errPastDeadline
		}
	}
	return t.pollOnce(ctx, w)
}

// errPastDeadline: MaxWait passed during a pause; nothing was polled.
var errPastDeadline = errors.New("MaxWait passed")

// waitedRetryAfter waits out the Retry-After of a failed poll when the
// policy allows it, and reports whether it did.
func (t *tracker[S]) waitedRetryAfter(ctx context.Context, p PollPolicy, err error) bool {
	d, ok := retryAfterWithin(err, p.MaxInterval)
	return ok && sleep(ctx, t.c.cfg.clock, d) == nil
}

func (t *tracker[S]) pause(ctx context.Context, p PollPolicy, w *waitSettings, n int, deadline time.Time) error {
	t.mu.Lock()
	est, began := t.est, t.began
	t.mu.Unlock()
	p.jitter = t.c.cfg.pollJitter
	d := p.next(est, n, t.c.now().Sub(began))
	if t.due != nil {
		if u := t.due(w.window); u > 0 {
			d = min(d, u)
		}
	}
	if !deadline.IsZero() {
		d = min(d, deadline.Sub(t.c.now()))
	}
	return sleep(ctx, t.c.cfg.clock, d)
}

func changed[S status](a, b S) bool {
	if a.stateValue() != b.stateValue() {
		return true
	}
	pa, pb := a.progressValue(), b.progressValue()
	return (pa == nil) != (pb == nil) || pa != nil && *pa != *pb
}

// ended builds the error of a wait cut short, stopping the work first when
// asked to and the context ended.
func (t *tracker[S]) ended(ctx context.Context, opts *WaitOptions, err error) error {
	if ctx.Err() == nil || opts == nil || !opts.StopOnCancel {
		return err
	}
	return t.stopAfter(ctx, fmt.Errorf("facade: waiting for %s %d: %w", t.kind, t.id, ctx.Err()))
}

// stopAfter stops the work after a wait ended with cause, on a context of
// its own, and says how that went.
func (t *tracker[S]) stopAfter(ctx context.Context, cause error) error {
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if stopErr := t.stop(stopCtx); stopErr != nil {
		return fmt.Errorf("%w; stopping the work failed: %w", cause, stopErr)
	}
	return fmt.Errorf("%w; it was stopped", cause)
}

// retryAfterWithin reports a Retry-After that polling may honour.
func retryAfterWithin(err error, limit time.Duration) (time.Duration, bool) {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 && apiErr.RetryAfter <= limit {
		return apiErr.RetryAfter, true
	}
	return 0, false
}

func (t *tracker[S]) wait(ctx context.Context, opts *WaitOptions) (S, error) {
	var last S
	for s, err := range t.states(ctx, opts) {
		if err != nil {
			return s, err
		}
		last = s
	}
	return last, nil
}
