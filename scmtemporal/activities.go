package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

// Activities are the steps of an item, built on the facade. Give a value to
// [Register], which registers them with a worker under their method names.
type Activities struct {
	// Client is the modelling server's client. Give it scmotel's
	// WithTelemetry for the otel module's spans and metrics: the calls of
	// an activity are children of its span when the worker has
	// [NewTracingInterceptor].
	Client *facade.Client
	// Clock must be the client's (facade.WithClock): a run's evidence
	// records when its start was sent on it. Nil means the real clock.
	Clock facade.Clock
	// Temporal is the worker's Temporal client. With it, an attempt that
	// is to send a state-changing call has the service confirm its mark
	// before it sends ([SendMark]); without it the mark is the attempt's
	// first heartbeat, which the SDK sends at once but does not say
	// whether it arrived. Workers set it; tests on the SDK's test suite,
	// which records heartbeats in process, leave it nil.
	Temporal client.Client
}

// ScenariosNamed returns the scenarios of a project that have the name: the
// scenarios an import or a copy of that name is told from. It changes
// nothing.
func (a *Activities) ScenariosNamed(ctx context.Context, in NamedInput) ([]ids.ScenarioID, error) {
	named, err := a.Client.Scenarios.Named(ctx, in.ProjectID, in.Name)
	return named, classify(err)
}

// Error types of the non-retryable application errors the activities
// fail with (temporal.ApplicationError.Type).
const (
	// ErrTypeStartUnknown: whether a start (runExperiment, importExcel,
	// copyScenario) whose answer was lost took effect cannot be told; the
	// message says what to check on the server (facade.StartUnknownError).
	ErrTypeStartUnknown = "StartUnknown"
	// ErrTypeRefused: the server or the SDK refused the input.
	ErrTypeRefused = "Refused"
	// ErrTypeEnded is the prefix of the type of a run or job that ended
	// badly: EndedFAILED, EndedSTOPPED, ...
	ErrTypeEnded = "Ended"
	// ErrTypeNotListed: the server never lists the runs of the experiment
	// type (VARIATION), so the result of the workflow's run could not be
	// found.
	ErrTypeNotListed = "NotListed"
	// ErrTypeResumeToken: a resume token in the workflow's state is not
	// one this SDK reads.
	ErrTypeResumeToken = "ResumeToken"
	// ErrTypeNoScenario: an import or copy job ended without a scenario.
	ErrTypeNoScenario = "NoScenario"
)

// classify marks the errors that a retry cannot mend as non-retryable: a
// run or job that ended badly, a start whose effect is unknown, and input
// the server or the SDK refused. Others are retried.
func classify(err error) error {
	var stateErr *facade.StateError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &stateErr):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeEnded+stateErr.State, err)
	case errors.Is(err, facade.ErrStartUnknown):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeStartUnknown, err)
	case errors.Is(err, facade.ErrResumeToken):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeResumeToken, err)
	case errors.Is(err, facade.ErrValidation), errors.Is(err, facade.ErrBadRequest), errors.Is(err, facade.ErrUnauthorized),
		errors.Is(err, facade.ErrForbidden), errors.Is(err, facade.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRefused, err)
	}
	return err
}

// SendMark is what an activity that sends a state-changing call keeps in
// its heartbeat details, so that a retry knows whether any earlier attempt
// may have sent the call. An attempt that is to send records the mark as
// the first heartbeat of the attempt, which the SDK sends at once, and has
// the service confirm it through the worker's Temporal client before it
// sends; every later heartbeat of the attempt carries it, and so does
// every heartbeat of a retry that settles. So, where every worker has its
// Temporal client in [Activities].Temporal, a retry whose details hold no
// mark knows that no attempt sent the call, even when the attempt before
// it died before it began, where a retry that finds a mark (or details
// written without the rule) settles what was sent. Without the client a
// mark may have been lost, and every retry settles.
type SendMark struct {
	Marked      bool      // the details follow the rule above
	MayHaveSent bool      // an attempt recorded that it was about to send
	MarkedAt    time.Time // when the first attempt marked: settling counts from it
}

// mayHaveSent reports whether an earlier attempt may have sent the call,
// from the details it left (had: there were some). Only marks the service
// confirmed ([Activities].Temporal) tell that no attempt sent: without
// them any earlier attempt may have. Details without a mark are a
// worker's that did not mark: they are settled.
func (a *Activities) mayHaveSent(ctx context.Context, had bool, m SendMark) bool {
	if a.Temporal == nil {
		return had || retried(ctx)
	}
	return had && (!m.Marked || m.MayHaveSent)
}

// marked returns the mark an attempt that is to send (or that settles)
// carries: the earlier attempts' time of marking, or now for the first.
func (a *Activities) marked(prev SendMark) SendMark {
	at := prev.MarkedAt
	if !prev.MayHaveSent || at.IsZero() {
		at = a.now()
	}
	return SendMark{Marked: true, MayHaveSent: true, MarkedAt: at}
}

// confirm has the Temporal service confirm the attempt's latest heartbeat
// details before a state-changing call is sent: the SDK records
// heartbeats without saying whether they arrived. Without a Temporal
// client the heartbeat already recorded stands.
func (a *Activities) confirm(ctx context.Context, details any) error {
	if a.Temporal == nil {
		return nil
	}
	if err := a.Temporal.RecordActivityHeartbeat(ctx, activity.GetInfo(ctx).TaskToken, details); err != nil {
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
