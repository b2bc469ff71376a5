package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// Activities are the steps of an item, built on the facade. Give a value to
// [Register] or [NewWorker], which register them under names that begin
// with "scm." (scm.StartRun, scm.WaitRun, ...).
type Activities struct {
	// Client is the modelling server's client. Give it scmotel's
	// WithTelemetry for the otel module's spans and metrics: the calls of
	// an activity are children of its span when the worker has
	// [NewTracingInterceptor].
	Client *facade.Client
	// Clock must be the client's (facade.WithClock): a start's evidence
	// records the client's time, and the settling of an import or a copy
	// is timed on this one. Nil means the real clock. A clock more than a
	// minute off the client's is refused for good as a run is prepared
	// (the facade client does not say which clock it has).
	Clock facade.Clock
	// DataFormats are formats of the result data besides batch's CSV and
	// JSON Lines, each picked by its Ext: scm-temporal adds Parquet. Every
	// worker of a plan needs the format of its data.
	DataFormats []*batch.DataFormat

	// confirm: marks are confirmed through the client of the worker the
	// activity runs on, set by Register on a worker; confirmer is that
	// client (activity.GetClient), or the tests'.
	confirm   bool
	confirmer func(context.Context) heartbeatRecorder
}

// heartbeatRecorder is what the activities ask of the worker's Temporal
// client: to record an attempt's heartbeat and say whether it arrived.
type heartbeatRecorder interface {
	RecordActivityHeartbeat(ctx context.Context, taskToken []byte, details ...any) error
}

func workerClient(ctx context.Context) heartbeatRecorder { return activity.GetClient(ctx) }

// scenariosNamed (scm.ScenariosNamed) returns the scenarios of a project that have the name: the
// scenarios an import or a copy of that name is told from. It changes
// nothing.
func (a *Activities) scenariosNamed(ctx context.Context, in wire.NamedInput) ([]ids.ScenarioID, error) {
	named, err := a.Client.Scenarios.Named(ctx, in.ProjectID, in.Name)
	return named, classify(err)
}

// Error types of the application errors an item's workflow fails with
// (temporal.ApplicationError.Type), all non-retryable.
const (
	// ErrTypeStartUnknown: whether a start (runExperiment, importExcel,
	// copyScenario) whose answer was lost took effect cannot be told, or
	// which run is its own (an Ambiguous *facade.StartUnknownError); the message says
	// what to check on the server. Nothing is sent again.
	ErrTypeStartUnknown = "StartUnknown"
	// ErrTypeRefused: the server or the SDK refused the input: a 4xx, a
	// refusal ("Access is denied"), an invalid item or option, an answer
	// past a limit.
	ErrTypeRefused = "Refused"
	// ErrTypeEnded is the prefix of the type of a run or job that ended
	// badly: EndedFAILED, EndedSTOPPED, ...
	ErrTypeEnded = "Ended"
	// ErrTypeNotListed: the server never lists the runs of the experiment
	// type (VARIATION), so the result of the item's run could not be found.
	ErrTypeNotListed = "NotListed"
	// ErrTypeResumeToken: a resume token in the workflow's state is not
	// one this SDK reads, or not the run of the item.
	ErrTypeResumeToken = "ResumeToken"
	// ErrTypeNoScenario: an import or copy job ended without a scenario.
	ErrTypeNoScenario = "NoScenario"
	// ErrTypeRunUnderWay: the experiment had a run under way that is no
	// item's for longer than Options.QueueTimeout.
	ErrTypeRunUnderWay = "RunUnderWay"
)

// classify marks the errors that a retry cannot mend as non-retryable: a
// run or job that ended badly, a start whose effect is unknown, a refusal
// of the input. A configuration with a run under way is the workflow's to
// wait for. Others (5xx, the network, rate limits) are retried within the
// step's bound.
func classify(err error) error {
	var stateErr *facade.StateError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, facade.ErrRunUnderWay):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRunUnderWay, err)
	case errors.As(err, &stateErr):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeEnded+stateErr.State, err)
	case errors.Is(err, facade.ErrStartUnknown):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeStartUnknown, err)
	case refused(err):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRefused, err)
	}
	return err
}

// refused reports an error that says the input was refused, which a retry
// would meet again: invalid input, a 4xx other than one that asks to try
// later (408, 425, 429), a 500 that says access is denied or that names an
// id the server has nothing for, an answer past a limit.
func refused(err error) bool {
	var apiErr *facade.APIError
	switch {
	case errors.Is(err, facade.ErrValidation), errors.Is(err, facade.ErrForbidden), errors.Is(err, facade.ErrNotFound),
		errors.Is(err, limits.ErrLimit):
		return true
	case errors.As(err, &apiErr):
		s := apiErr.StatusCode
		return s >= 400 && s < 500 && s != http.StatusRequestTimeout && s != http.StatusTooEarly && s != http.StatusTooManyRequests
	}
	return false
}

// mayHaveSent reports whether an earlier attempt may have sent the call,
// from the details it left (had: there were some). Only marks the service
// confirmed tell that no attempt sent: without them (activities not
// registered on a worker) any earlier attempt may have. Details without a
// mark are a worker's that did not mark: they are settled.
func (a *Activities) mayHaveSent(ctx context.Context, had bool, m wire.SendMark) bool {
	if !a.confirm {
		return had || retried(ctx)
	}
	return had && (!m.Marked || m.MayHaveSent)
}

// marked returns the mark an attempt that is to send (or that settles)
// carries: the earlier attempts' time of marking, or now for the first.
func (a *Activities) marked(prev wire.SendMark) wire.SendMark {
	at := prev.MarkedAt
	if !prev.MayHaveSent || at.IsZero() {
		at = a.now()
	}
	return wire.SendMark{Marked: true, MayHaveSent: true, MarkedAt: at}
}

// confirm has the Temporal service confirm the attempt's latest heartbeat
// details before a state-changing call is sent, through the client of the
// worker the activity runs on: the SDK records heartbeats without saying
// whether they arrived. Activities not registered on a worker confirm
// nothing: the heartbeat already recorded stands.
func (a *Activities) confirmMark(ctx context.Context, details any) error {
	if !a.confirm {
		return nil
	}
	if err := a.confirmer(ctx).RecordActivityHeartbeat(ctx, activity.GetInfo(ctx).TaskToken, details); err != nil {
		return fmt.Errorf("scmtemporal: the Temporal service did not confirm that the call is about to be sent, so it was not sent: %w", err)
	}
	return nil
}

// retried reports whether an earlier attempt of the activity ran (this is
// not the first attempt, or the server kept heartbeat details of one): it
// may have sent what this attempt is about to send.
func retried(ctx context.Context) bool {
	return activity.GetInfo(ctx).Attempt > 1 || activity.HasHeartbeatDetails(ctx)
}

// notSentBefore reports whether the attempt right before this one failed
// knowing that what it sent did not reach the server (notSentBy is the
// attempt its heartbeat names).
func notSentBefore(ctx context.Context, notSentBy int32) bool {
	return notSentBy > 0 && notSentBy == activity.GetInfo(ctx).Attempt-1
}

// details reads the heartbeat details of the earlier attempt into d, and
// reports whether there were any.
func details(ctx context.Context, d any) bool {
	return activity.HasHeartbeatDetails(ctx) && activity.GetHeartbeatDetails(ctx, d) == nil
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func (a *Activities) now() time.Time {
	if a.Clock == nil {
		return time.Now()
	}
	return a.Clock.Now()
}

// maxClockSkew is how far Activities.Clock may be from the facade
// client's, as a start's evidence records it.
const maxClockSkew = time.Minute

// checkClock refuses a clock that is not the facade client's: the client
// recorded clientNow in a run's evidence just before.
func (a *Activities) checkClock(clientNow time.Time) error {
	if d := a.now().Sub(clientNow); d > maxClockSkew || d < -maxClockSkew {
		msg := fmt.Sprintf("scmtemporal: Activities.Clock reads %s where the facade client's clock read %s just before: give both the same clock (facade.WithClock), or neither",
			a.now().UTC().Format(time.RFC3339), clientNow.UTC().Format(time.RFC3339))
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeRefused, nil)
	}
	return nil
}

// sleep waits d on the activities' clock, or until ctx ends.
func (a *Activities) sleep(ctx context.Context, d time.Duration) error {
	var after <-chan time.Time
	if a.Clock == nil {
		t := time.NewTimer(d)
		defer t.Stop()
		after = t.C
	} else {
		after = a.Clock.After(d)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-after:
		return nil
	}
}
