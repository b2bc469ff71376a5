package scmotel

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/facade"
)

// waitSpanName is the span of a wait: Run.Wait or Job.Wait.
func waitSpanName(kind string) string {
	switch kind {
	case "run":
		return "Run.Wait"
	case "job":
		return "Job.Wait"
	}
	return "wait"
}

// idKey names a wait's id by its kind of id: scm.rc.id for a run (the
// rcId of its running configuration, not a run id), scm.job.id for a job.
func idKey(kind string) attribute.Key {
	if kind == "run" {
		return "scm.rc.id"
	}
	return attribute.Key("scm." + kind + ".id")
}

// waitKey keys the span of the wait under way in its context.
type waitKey struct{}

// WaitStart starts the wait's span.
func (o *Observer) WaitStart(ctx context.Context, w facade.WaitInfo) context.Context {
	ctx, span := o.tracer.Start(ctx, waitSpanName(w.Kind), trace.WithAttributes(idKey(w.Kind).Int64(w.ID),
		KeyWaitKind.String(w.Kind), KeyOperation.String(w.Operation)))
	return context.WithValue(ctx, waitKey{}, span)
}

// WaitPoll counts the poll, and adds a state event to the wait's span
// when the state changed. A poll outside a wait (Run.Poll, Job.Poll) is
// only counted: the span it is under is not this package's.
func (o *Observer) WaitPoll(ctx context.Context, w facade.WaitInfo, p facade.PollInfo) {
	o.m.polls.Add(ctx, 1, metric.WithAttributes(KeyWaitKind.String(w.Kind), KeyOperation.String(w.Operation)))
	span, ok := ctx.Value(waitKey{}).(trace.Span)
	if !ok || !p.Changed {
		return
	}
	span.AddEvent(EventState, trace.WithAttributes(KeyState.String(short(p.State)),
		KeyPreviousState.String(short(p.Previous)), KeyPoll.Int(p.N)))
}

// WaitEnd ends the wait's span with its polls, last state and outcome.
func (o *Observer) WaitEnd(ctx context.Context, w facade.WaitInfo, r facade.WaitResult) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(KeyWaitPolls.Int(r.Polls), KeyState.String(short(r.State)), KeyOutcome.String(outcome(r.Err)))
	endWithError(span, r.Err)
}

// StepStart starts the step's span, named by its kind, with
// scm.<kind>.name, .id and .index when it has them.
func (o *Observer) StepStart(ctx context.Context, s facade.StepInfo) context.Context {
	var attrs []attribute.KeyValue
	prefix := "scm." + s.Kind + "."
	if s.Name != "" {
		attrs = append(attrs, attribute.String(prefix+"name", short(s.Name)))
	}
	if s.ID != 0 {
		attrs = append(attrs, attribute.Int64(prefix+"id", s.ID))
	}
	if s.Index != 0 {
		attrs = append(attrs, attribute.Int(prefix+"index", s.Index))
	}
	ctx, _ = o.tracer.Start(ctx, s.Kind, trace.WithAttributes(attrs...))
	return ctx
}

// StepEnd ends the step's span with its outcome.
func (o *Observer) StepEnd(ctx context.Context, _ facade.StepInfo, err error) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(KeyOutcome.String(outcome(err)))
	endWithError(span, err)
}

// endWithError ends span, marked failed with err's type and text when
// err is not nil.
func endWithError(span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(semconv.ErrorTypeKey.String(errorType(err)))
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
