package facade

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// The hooks the call, attempt and poll loops call. Each costs a nil check
// and nothing else when the client has no observer.

// observing is a call's observation under way: what its end needs.
type observing struct {
	o     Observer
	info  CallInfo
	start time.Time
}

// startCall tells the observer that the call cl begins, and returns the
// context of the call and what endCall needs.
func (c *Client) startCall(ctx context.Context, cl call) (context.Context, observing) {
	info := CallInfo{Operation: cl.op.ID, ChangesState: cl.op.ChangesState}
	return c.cfg.observer.CallStart(ctx, info), observing{o: c.cfg.observer, info: info, start: time.Now()}
}

// endCall tells the observer how the call ended: with err after the
// attempts t made (the last, when it succeeded, is not among t's).
func (ob observing) endCall(ctx context.Context, t *tries, err error) {
	r := CallResult{Attempts: len(t.attempts), Duration: time.Since(ob.start), Err: err}
	if err == nil {
		r.Attempts++
	} else {
		r.Status, r.RequestID = answered(err)
	}
	ob.o.CallEnd(ctx, ob.info, r)
}

// answered is the status and the scrubbed request id of the *APIError
// err, if it is one. It is apart from endCall because the variable given
// to errors.As goes to the heap where it is declared: a call that succeeds
// allocates nothing.
func answered(err error) (int, string) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return 0, ""
	}
	return apiErr.StatusCode, apiErr.secrets.scrub(apiErr.RequestID)
}

// startAttempt tells the observer that attempt n of cl sends req, and
// returns the attempt's context: ctx itself without an observer.
func (c *Client) startAttempt(ctx context.Context, cl call, req *http.Request, n int) context.Context {
	if c.cfg.observer == nil {
		return ctx
	}
	return c.cfg.observer.AttemptStart(ctx, attemptInfo(cl, req, n))
}

// endAttempt tells the observer how attempt n of cl ended.
func (c *Client) endAttempt(ctx context.Context, cl call, req *http.Request, n int, a Attempt) {
	if c.cfg.observer == nil {
		return
	}
	c.cfg.observer.AttemptEnd(ctx, attemptInfo(cl, req, n), AttemptResult{Status: a.Status, Duration: a.Duration, Err: a.Err})
}

func attemptInfo(cl call, req *http.Request, n int) AttemptInfo {
	return AttemptInfo{Operation: cl.op.ID, N: n, Method: req.Method, URL: req.URL, Header: req.Header}
}

// observeRetry tells the observer that cl waits delay after its attempt n
// failed with failure.
func (c *Client) observeRetry(ctx context.Context, cl call, n int, delay time.Duration, failure error) {
	if c.cfg.observer == nil {
		return
	}
	info := RetryInfo{Operation: cl.op.ID, Attempt: n, Delay: delay, Reason: retryReason(failure),
		MayHaveBeenApplied: errors.Is(failure, ErrMayHaveBeenApplied), Err: failure}
	var apiErr *APIError
	if errors.As(failure, &apiErr) {
		info.Status = apiErr.StatusCode
	}
	c.cfg.observer.RetryWait(ctx, info)
}

// retryReason says in a few words why a call is tried again.
func retryReason(failure error) string {
	var apiErr *APIError
	switch {
	case errors.As(failure, &apiErr) && apiErr.Err != nil:
		return "answer broke off"
	case apiErr != nil:
		return "status " + strconv.Itoa(apiErr.StatusCode)
	case errors.Is(failure, errAttemptTimeout):
		return "attempt timeout"
	case neverSent(failure):
		return "connection not made"
	}
	return "connection failed"
}

// startWait tells the observer that a wait for the tracker's work begins,
// and returns the wait's context, yield wrapped to see what the wait
// yields, and the function that ends the wait. Without an observer it
// returns them as they are and a function that does nothing.
func (t *tracker[S]) startWait(ctx context.Context, yield func(S, error) bool) (context.Context, func(S, error) bool, func()) {
	o := t.c.cfg.observer
	if o == nil {
		return ctx, yield, nothing
	}
	info := t.waitInfo()
	ctx = o.WaitStart(ctx, info)
	polls := t.pollCount()
	var lastErr error
	seen := func(s S, err error) bool {
		lastErr = err
		return yield(s, err)
	}
	end := func() {
		state := ""
		if s, ok, _ := t.snapshot(); ok {
			state = t.shownState(s)
		}
		o.WaitEnd(ctx, info, WaitResult{Polls: t.pollCount() - polls, State: state, Err: scrubbed(lastErr, t.secrets)})
	}
	return ctx, seen, end
}

func nothing() {}

func (t *tracker[S]) waitInfo() WaitInfo {
	return WaitInfo{Kind: t.kind, ID: t.id, Operation: string(t.pollOp)}
}

// notePoll tells the observer that a poll answered s, before the tracker
// records it.
func (t *tracker[S]) notePoll(ctx context.Context, s S) {
	o := t.c.cfg.observer
	if o == nil {
		return
	}
	t.mu.Lock()
	prev, seen, n := t.last, t.seen, t.polls+1
	t.mu.Unlock()
	info := PollInfo{N: n, State: t.shownState(s)}
	if seen {
		info.Previous = t.shownState(prev)
	}
	info.Changed = !seen || prev.stateValue() != s.stateValue()
	o.WaitPoll(ctx, t.waitInfo(), info)
}

// shownState is the state value of s as an observer is told it: without
// secrets, cut to Limits.MaxReportedLen.
func (t *tracker[S]) shownState(s S) string {
	return t.secrets.scrubCut(s.stateValue(), t.c.cfg.limits.MaxReportedLen)
}

// scrubbedError is an error whose text shows none of secrets: the text of
// a *StateError or of a wait's MaxWait quotes the state the server sent.
// It unwraps to the error, so errors.Is and errors.As see through it.
type scrubbedError struct {
	err     error
	secrets *secretSet
}

func (e scrubbedError) Error() string { return e.secrets.scrub(e.err.Error()) }
func (e scrubbedError) Unwrap() error { return e.err }

// scrubbed is err with secrets scrubbed from its text; nil for nil.
func scrubbed(err error, secrets *secretSet) error {
	if err == nil || secrets == nil {
		return err
	}
	return scrubbedError{err: err, secrets: secrets}
}
