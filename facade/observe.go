package facade

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/scmodel/scmgo/internal/steps"
)

// Observer is told what a [Client] does, for traces and metrics: each
// operation call, each HTTP attempt of a call, each wait before a retry,
// each wait for a run or a job with each of its polls, and each step of a
// package built on the client (a page of dashboard.Export, an item of a
// batch). Give one with [WithObserver]; the module
// github.com/scmodel/scmgo/scmotel turns them into OpenTelemetry spans and
// metrics.
//
// A Start method returns the context the work goes on under (one carrying
// a span, say, or ctx itself), and the matching End is given that context.
// An attempt's context is its request's, so a tracing RoundTripper given
// with [WithHTTPClient] sees it. The methods run on the goroutine doing the
// work, so they must be quick, and safe for concurrent use.
//
// Nothing an Observer is given holds the API key (the Authorization header
// is added after AttemptStart), the value of a field the spec marks
// x-sensitive (a database password), or a URL's password: error texts are
// scrubbed as the facade's errors are. A state value and a page or item
// name are the server's or the user's data, as they came.
//
// Embed [NopObserver] to observe only some of these: an Observer that does
// keeps compiling when methods are added here.
type Observer interface {
	// CallStart: an operation call begins.
	CallStart(ctx context.Context, call CallInfo) context.Context
	// CallEnd: the call ended, after its last attempt (for a download,
	// once its answer's headers came: the body is read after).
	CallEnd(ctx context.Context, call CallInfo, result CallResult)
	// AttemptStart: one HTTP request of the call is about to be sent.
	// AttemptInfo.Header may be added to (trace context headers).
	AttemptStart(ctx context.Context, attempt AttemptInfo) context.Context
	// AttemptEnd: the attempt's answer headers came, or it failed.
	AttemptEnd(ctx context.Context, attempt AttemptInfo, result AttemptResult)
	// RetryWait: the call waits before its next attempt. ctx is the call's.
	RetryWait(ctx context.Context, retry RetryInfo)
	// WaitStart: a wait for a run or a job begins ([Run.Wait], [Run.States],
	// [Job.Wait], [Job.States] and what is built on them).
	WaitStart(ctx context.Context, wait WaitInfo) context.Context
	// WaitPoll: a status request of the run or job was answered. It is
	// called for [Run.Poll] and [Job.Poll] too, outside any wait.
	WaitPoll(ctx context.Context, wait WaitInfo, poll PollInfo)
	// WaitEnd: the wait ended.
	WaitEnd(ctx context.Context, wait WaitInfo, result WaitResult)
	// StepStart: a step of a package built on the client begins; see
	// [Client.StartStep].
	StepStart(ctx context.Context, step StepInfo) context.Context
	// StepEnd: the step ended, with err when it failed.
	StepEnd(ctx context.Context, step StepInfo, err error)
}

// CallInfo is the operation a call sends.
type CallInfo struct {
	Operation string // camelCase operationId
	// ChangesState: the operation changes state on the server, so it is
	// never sent twice once its request may have left.
	ChangesState bool
}

// CallResult is how a call ended.
type CallResult struct {
	Attempts int           // attempts made, 1 when the call was not retried
	Duration time.Duration // from its start to its end, in real time
	// Err is nil on success, else what the call returns: an [*APIError],
	// a [*RequestError], either joined with the context's error, ...
	Err error
	// Status and RequestID are the [*APIError]'s, when Err is one: its
	// status and the request id the server sent (scrubbed of secrets).
	Status    int
	RequestID string
}

// AttemptInfo is one HTTP request of a call.
type AttemptInfo struct {
	Operation string // camelCase operationId
	N         int    // 1 for the first attempt of the call
	Method    string
	// URL is the request's; it has no user information (New refuses a base
	// URL with one) and the API key is never in it. Do not change it.
	URL *url.URL
	// Header is the request's, without the Authorization and User-Agent
	// headers, which are added later. An Observer may add headers to it
	// (trace context); it must not keep it.
	Header http.Header
}

// AttemptResult is how an attempt ended.
type AttemptResult struct {
	Status   int           // HTTP status, 0 when no answer came
	Duration time.Duration // until the answer's headers or the failure
	// Err is the transport's failure, nil when an answer came (whatever
	// its status). Its text names the request's URL.
	Err error
}

// RetryInfo is a wait before the next attempt of a call.
type RetryInfo struct {
	Operation string        // camelCase operationId
	Attempt   int           // the attempt that failed; the next is Attempt+1
	Delay     time.Duration // the wait before the next attempt
	// Reason is why, in a few words: "status 503", "answer broke off",
	// "attempt timeout", "connection failed", "connection not made".
	Reason string
	Status int // the failed attempt's HTTP status, 0 when none came
	// MayHaveBeenApplied: the failure leaves open whether the server
	// applied the request (errors.Is(Err, ErrMayHaveBeenApplied)).
	MayHaveBeenApplied bool
	Err                error // the failure, as the call would return it
}

// WaitInfo is a run or a job being waited for or polled.
type WaitInfo struct {
	Kind      string // "run" or "job"
	ID        int64  // the rcId of a run, the jobId of a job
	Operation string // what each poll sends: getExperimentStatus or getImportStatus
}

// PollInfo is an answered poll.
type PollInfo struct {
	N        int    // polls of this Run or Job answered so far, this one included
	State    string // the state it answered ([RunStateValue] for a run)
	Previous string // the state of the poll before, "" at the first
	// Changed: State is not the state seen before (true at the first).
	Changed bool
}

// WaitResult is how a wait ended.
type WaitResult struct {
	Polls int    // polls answered during this wait
	State string // the last state seen, "" when none
	// Err is nil when the work succeeded, a [*StateError] when it ended
	// otherwise, or why the wait stopped (its context, MaxWait, a poll).
	// Its text is scrubbed of secrets; errors.Is and errors.As see
	// through to the error Wait returns.
	Err error
}

// StepInfo is a step of a package built on the client: Kind says what it
// is, the rest which one.
type StepInfo struct {
	Kind  string // "dashboard.page", "batch.item"
	Name  string // the page's or the item's name, "" when none
	ID    int64  // its id, 0 when none
	Index int    // its 1-based position among its kind's steps, 0 when none
}

// NopObserver does nothing. Embed it in an Observer that watches only some
// of what a client does.
type NopObserver struct{}

func (NopObserver) CallStart(ctx context.Context, _ CallInfo) context.Context       { return ctx }
func (NopObserver) CallEnd(context.Context, CallInfo, CallResult)                   {}
func (NopObserver) AttemptStart(ctx context.Context, _ AttemptInfo) context.Context { return ctx }
func (NopObserver) AttemptEnd(context.Context, AttemptInfo, AttemptResult)          {}
func (NopObserver) RetryWait(context.Context, RetryInfo)                            {}
func (NopObserver) WaitStart(ctx context.Context, _ WaitInfo) context.Context       { return ctx }
func (NopObserver) WaitPoll(context.Context, WaitInfo, PollInfo)                    {}
func (NopObserver) WaitEnd(context.Context, WaitInfo, WaitResult)                   {}
func (NopObserver) StepStart(ctx context.Context, _ StepInfo) context.Context       { return ctx }
func (NopObserver) StepEnd(context.Context, StepInfo, error)                        {}

// WithObserver sets the observer told of every call, attempt, retry, wait
// and poll of the client. Nil is refused; by default there is none, and
// observing costs nothing.
func WithObserver(o Observer) Option {
	return func(c *config) error {
		if o == nil {
			return errors.New("facade: WithObserver: the observer is nil")
		}
		c.observer = o
		return nil
	}
}

func init() {
	steps.Start = func(client any, ctx context.Context, kind, name string, id int64, index int) (context.Context, func(error)) {
		return client.(*Client).startStep(ctx, StepInfo{Kind: kind, Name: name, ID: id, Index: index})
	}
}

// startStep tells the client's observer that a step of work built on the
// client begins, such as a page of a dashboard export or an item of a
// batch (internal/steps.Start), and returns the context to do it under
// (its calls are then the step's) and the function to call with its error
// when it ends. Without an observer it returns ctx and a function that
// does nothing.
func (c *Client) startStep(ctx context.Context, step StepInfo) (context.Context, func(error)) {
	o := c.cfg.observer
	if o == nil {
		return ctx, endNothing
	}
	ctx = o.StepStart(ctx, step)
	return ctx, func(err error) { o.StepEnd(ctx, step, scrubbed(err, c.creds())) }
}

func endNothing(error) {}
