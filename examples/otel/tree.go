package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// shown are the attributes the tree prints, in this order: the others
// (server address and port, URL, durations) differ from run to run.
var shown = []attribute.Key{"scm.attempts", "scm.outcome", "error.type", "http.response.status_code",
	"http.request.resend_count", "scm.rc.id", "scm.job.id", "scm.wait.polls", "scm.state", "scm.state.previous",
	"scm.retry.reason", "scm.retry.delay", "scm.dashboard.page.name", "scm.dashboard.page.index"}

// printTree writes the spans to w as a tree, children under their parent
// in the order they started, each line a span or (after ·) an event.
func printTree(w io.Writer, spans tracetest.SpanStubs) {
	slices.SortStableFunc(spans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	children := map[trace.SpanID][]tracetest.SpanStub{}
	for _, s := range spans {
		children[s.Parent.SpanID()] = append(children[s.Parent.SpanID()], s)
	}
	var walk func(parent trace.SpanID, depth int)
	walk = func(parent trace.SpanID, depth int) {
		for _, s := range children[parent] {
			indent := strings.Repeat("  ", depth)
			fmt.Fprintf(w, "%s%s%s\n", indent, s.Name, attrs(s.Attributes))
			for _, ev := range s.Events {
				fmt.Fprintf(w, "%s  · %s%s\n", indent, ev.Name, attrs(ev.Attributes))
			}
			walk(s.SpanContext.SpanID(), depth+1)
		}
	}
	walk(trace.SpanID{}, 0)
}

// attrs prints the shown attributes of kvs, " [k=v ...]", or "".
func attrs(kvs []attribute.KeyValue) string {
	set := attribute.NewSet(kvs...)
	var parts []string
	for _, k := range shown {
		if v, ok := set.Value(k); ok {
			parts = append(parts, fmt.Sprintf("%s=%s", strings.TrimPrefix(string(k), "scm."), v.String()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, " ") + "]"
}
