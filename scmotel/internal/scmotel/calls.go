package scmotel

import (
	"context"
	"errors"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/facade"
)

// CallStart starts the call's client span, named by its operationId.
func (o *Observer) CallStart(ctx context.Context, call facade.CallInfo) context.Context {
	op := operation(call.Operation)
	ctx, _ = o.tracer.Start(ctx, call.Operation, clientKind, trace.WithAttributes(op.attr, KeyChangesState.Bool(call.ChangesState)))
	o.m.active.Add(ctx, 1, op.active)
	return ctx
}

// CallEnd ends the call's span with its attempts, outcome and error, and
// records its duration.
func (o *Observer) CallEnd(ctx context.Context, call facade.CallInfo, r facade.CallResult) {
	op := operation(call.Operation)
	o.m.active.Add(ctx, -1, op.active)
	span := trace.SpanFromContext(ctx)
	out := KeyOutcome.String(outcome(r.Err))
	span.SetAttributes(KeyAttempts.Int(r.Attempts), out)
	if r.Err == nil {
		o.m.opDuration.Record(ctx, r.Duration.Seconds(), op.success)
		span.End()
		return
	}
	errType := semconv.ErrorTypeKey.String(errorType(r.Err))
	span.SetAttributes(errType, KeyMayHaveBeenApplied.Bool(errors.Is(r.Err, facade.ErrMayHaveBeenApplied)))
	if r.Status != 0 {
		span.SetAttributes(semconv.HTTPResponseStatusCodeKey.Int(r.Status))
	}
	if r.RequestID != "" {
		span.SetAttributes(KeyRequestID.String(short(r.RequestID)))
	}
	span.SetStatus(codes.Error, r.Err.Error()) // the facade's errors quote no secret
	o.m.opDuration.Record(ctx, r.Duration.Seconds(), metric.WithAttributes(op.attr, out, errType))
	span.End()
}

// AttemptStart starts the attempt's HTTP client span, a child of the
// call's, and injects the trace context into the request's headers.
func (o *Observer) AttemptStart(ctx context.Context, a facade.AttemptInfo) context.Context {
	op := operation(a.Operation)
	name := a.Method // the semantic conventions' name when the path's template is unknown
	attrs := append(serverAttrs(a), semconv.URLFullKey.String(redactedURL(a.URL)), op.attr, KeyAttempt.Int(a.N))
	if op.template != "" && a.Method == op.method {
		name = op.name
		attrs = append(attrs, semconv.URLTemplateKey.String(op.template))
	}
	if a.N > 1 {
		attrs = append(attrs, semconv.HTTPRequestResendCountKey.Int(a.N-1))
	}
	ctx, _ = o.tracer.Start(ctx, name, clientKind, trace.WithAttributes(attrs...))
	o.prop.Inject(ctx, propagation.HeaderCarrier(a.Header))
	return ctx
}

// AttemptEnd ends the attempt's span with its status or failure, and
// records http.client.request.duration.
func (o *Observer) AttemptEnd(ctx context.Context, a facade.AttemptInfo, r facade.AttemptResult) {
	span := trace.SpanFromContext(ctx)
	attrs := append(serverAttrs(a), operation(a.Operation).attr)
	if r.Status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCodeKey.Int(r.Status))
	}
	switch {
	case r.Err != nil:
		attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(r.Err)))
		span.SetStatus(codes.Error, "")
	case r.Status >= 400:
		attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(r.Status)))
		span.SetStatus(codes.Error, "")
	}
	span.SetAttributes(attrs[3:]...) // the server's attributes are set already
	o.m.httpDuration.Record(ctx, r.Duration.Seconds(), metric.WithAttributes(attrs...))
	span.End()
}

// serverAttrs are the method, server.address and server.port of an
// attempt, in that order.
func serverAttrs(a facade.AttemptInfo) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 3, 8)
	attrs[0] = semconv.HTTPRequestMethodKey.String(a.Method)
	attrs[1] = semconv.ServerAddressKey.String(a.URL.Hostname())
	attrs[2] = semconv.ServerPortKey.Int(port(a.URL))
	return attrs
}

// port is the URL's port, or its scheme's.
func port(u *url.URL) int {
	if p, err := strconv.Atoi(u.Port()); err == nil {
		return p
	}
	if u.Scheme == "http" {
		return 80
	}
	return 443
}

// redactedURL is u as url.full may show it: without user information,
// which the facade refuses anyway, and without a fragment.
func redactedURL(u *url.URL) string {
	c := *u
	c.User, c.Fragment, c.RawFragment = nil, "", ""
	return c.String()
}

// RetryWait adds a retry event to the call's span and counts it.
func (o *Observer) RetryWait(ctx context.Context, r facade.RetryInfo) {
	attrs := []attribute.KeyValue{KeyAttempt.Int(r.Attempt), KeyRetryDelay.Float64(r.Delay.Seconds()),
		KeyRetryReason.String(r.Reason), KeyMayHaveBeenApplied.Bool(r.MayHaveBeenApplied)}
	if r.Status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCodeKey.Int(r.Status))
	}
	trace.SpanFromContext(ctx).AddEvent(EventRetry, trace.WithAttributes(attrs...))
	o.m.retries.Add(ctx, 1, metric.WithAttributes(KeyOperation.String(r.Operation), KeyRetryReason.String(r.Reason)))
}
