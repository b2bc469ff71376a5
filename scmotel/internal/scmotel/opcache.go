package scmotel

import (
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/gen"
)

// clientKind is the start option of every client span, made once.
var clientKind = trace.WithSpanKind(trace.SpanKindClient)

// opInfo is what the spans and metrics of an operation's calls share,
// made once per operation: the attributes a call records every time.
type opInfo struct {
	attr     attribute.KeyValue       // scm.operation
	active   metric.MeasurementOption // scm.operation, for the calls under way
	success  metric.MeasurementOption // scm.operation and scm.outcome=success
	template string                   // the operation's path, "" when unknown
	method   string                   // the operation's HTTP method
	name     string                   // its attempts' span name: "GET /open/user"
}

// ops caches the opInfo of each operation: at most the spec's
// operations, since the facade sends no other.
var ops sync.Map // string → *opInfo

// operation is the opInfo of the operation op.
func operation(op string) *opInfo {
	if v, ok := ops.Load(op); ok {
		return v.(*opInfo)
	}
	attr := KeyOperation.String(op)
	info := &opInfo{attr: attr,
		active:  metric.WithAttributeSet(attribute.NewSet(attr)),
		success: metric.WithAttributeSet(attribute.NewSet(attr, KeyOutcome.String(OutcomeSuccess)))}
	if o, ok := gen.LookupSharedOperation(gen.OperationID(op)); ok {
		info.template, info.method, info.name = o.Path, o.Method, o.Method+" "+o.Path
	}
	v, _ := ops.LoadOrStore(op, info)
	return v.(*opInfo)
}
