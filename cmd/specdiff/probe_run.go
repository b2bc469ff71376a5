package main

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// prober calls the operations of a live server that change no state, with
// inputs taken from earlier answers, and checks every answer against the
// spec. It sends an operation only when the spec marks it
// x-changes-state: false, whatever its HTTP method.
type prober struct {
	spec    *Spec
	base    *url.URL
	client  *http.Client
	headers http.Header
	lim     probeLimits

	safe     []int           // indexes in spec.Ops of the operations it may send
	wanted   map[string]bool // input names of those operations
	queue    []call
	queued   map[string]bool // call keys, sent or waiting
	perOp    map[int]int     // calls sent per operation
	perOpOK  map[int]int     // 2xx answers per operation
	lastErr  map[int]string  // the last error status an operation answered
	seen     map[string]bool // inputs some binding had
	rejected map[int]string  // why an operation's inputs were refused
	seq      int

	sent      int
	answered  int    // calls that got an answer
	succeeded int    // answers with a 2xx status
	firstFail string // the first answer that was not a success
	out       *probeFindings
}

// binding is a set of input values that belong together: they were taken
// from one chain of answers (a project, one of its scenarios, one of its
// runs, ...).
type binding struct {
	values map[string]string
	rank   int // 0 when a value came from a preferred source, else 1
}

// call is one request the probe may send.
type call struct {
	op     int
	values map[string]string // the operation's inputs only
	rank   int
	seq    int
	from   binding // the binding it was made from, extended by its answer
}

func newProber(s *Spec, base *url.URL, client *http.Client, headers http.Header, lim probeLimits) *prober {
	p := &prober{spec: s, base: base, client: client, headers: headers, lim: lim,
		wanted: map[string]bool{}, queued: map[string]bool{}, perOp: map[int]int{}, perOpOK: map[int]int{}, lastErr: map[int]string{},
		seen: map[string]bool{}, rejected: map[int]string{}, out: newProbeFindings()}
	for i, op := range s.Ops {
		if op.ChangesState {
			continue
		}
		p.safe = append(p.safe, i)
		for _, prm := range op.Params {
			if prm.Required {
				p.wanted[prm.Name] = true
			}
		}
	}
	return p
}

// run probes until no call is left or the budget is spent, and returns the
// findings, notes on the operations it could not call included.
func (p *prober) run(ctx context.Context) ([]Finding, error) {
	root := binding{values: maps.Clone(inputConstants), rank: 1}
	p.offer(root)
	for len(p.queue) > 0 && p.sent < p.lim.maxCalls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := p.next()
		a, err := p.send(ctx, c)
		if err != nil {
			return nil, err
		}
		for _, b := range p.bindingsFrom(c, a) {
			p.offer(b)
		}
	}
	if p.succeeded == 0 {
		return nil, fmt.Errorf("probe %s: no call succeeded; the first: %s (is BASE_URL where the operation paths begin, usually ending in /api/v1, and is the -header key right?)",
			redactedURL(p.base), p.firstFail)
	}
	p.notCalled()
	p.unchecked()
	return p.out.sorted(), nil
}

// offer queues a call of every safe operation whose required inputs b has.
func (p *prober) offer(b binding) {
	for k := range b.values {
		p.seen[k] = true
	}
	for _, i := range p.safe {
		values, ok := p.inputs(i, b)
		if !ok {
			continue
		}
		key := callKey(i, values)
		if p.queued[key] {
			continue
		}
		p.queued[key] = true
		p.seq++
		p.queue = append(p.queue, call{op: i, values: values, rank: b.rank, seq: p.seq, from: b})
	}
}

// inputs picks the values of operation i's required inputs from b, and the
// paging inputs of a paged operation; ok is false when one is missing or
// is not valid under the spec.
func (p *prober) inputs(i int, b binding) (map[string]string, bool) {
	op := p.spec.Ops[i]
	values := map[string]string{}
	for _, prm := range op.Params {
		switch {
		case op.Paged && prm.Name == "skip":
			values["skip"] = "0"
		case op.Paged && prm.Name == "take":
			values["take"] = fmt.Sprint(p.lim.items)
		case prm.Required:
			v, ok := b.values[prm.Name]
			if !ok {
				return nil, false
			}
			if err := p.validInput(i, prm.Name, v); err != nil {
				p.rejected[i] = err.Error()
				return nil, false
			}
			values[prm.Name] = v
		}
	}
	return values, true
}

// validInput checks a value against the parameter's schema: the probe never
// sends what the spec does not allow.
func (p *prober) validInput(i int, name, v string) error {
	prm := p.specOperation(i).Parameters.GetByInAndName(openapi3.ParameterInQuery, name)
	if prm == nil || prm.Schema == nil || prm.Schema.Value == nil {
		return nil
	}
	typed, err := typedValue(prm.Schema.Value, v)
	if err == nil {
		err = prm.Schema.Value.VisitJSON(typed)
	}
	if err != nil {
		return fmt.Errorf("an answer gave %s=%q, which the spec does not allow", name, v)
	}
	return nil
}

func (p *prober) specOperation(i int) *openapi3.Operation {
	op := p.spec.Ops[i]
	return p.spec.doc.Paths.Value(op.Path).GetOperation(op.Method)
}

func callKey(op int, values map[string]string) string {
	var b strings.Builder
	fmt.Fprint(&b, op)
	for _, k := range slices.Sorted(maps.Keys(values)) {
		fmt.Fprintf(&b, "&%s=%s", k, values[k])
	}
	return b.String()
}

// next takes the queued call to send now: of the operation called least so
// far (every reachable operation is called once before any twice), then
// from a preferred source, then the oldest.
func (p *prober) next() call {
	best := 0
	for i, c := range p.queue {
		b := p.queue[best]
		if p.perOp[c.op] < p.perOp[b.op] || (p.perOp[c.op] == p.perOp[b.op] && (c.rank < b.rank || (c.rank == b.rank && c.seq < b.seq))) {
			best = i
		}
	}
	c := p.queue[best]
	p.queue = slices.Delete(p.queue, best, best+1)
	return c
}

// bindingsFrom extends c's binding with the inputs each of the first items
// of an answer gives.
func (p *prober) bindingsFrom(c call, a *answer) []binding {
	if a == nil || a.value == nil {
		return nil
	}
	op := p.spec.Ops[c.op]
	rank := c.from.rank
	if slices.Contains(preferredSources, op.ID) {
		rank = 0
	}
	var out []binding
	for _, item := range answerItems(a.value, p.lim.items) {
		values := maps.Clone(c.from.values)
		added := false
		for name := range p.wanted {
			if _, ok := values[name]; ok {
				continue
			}
			if v, ok := itemInput(op.ID, name, item); ok {
				values[name], added = v, true
			}
		}
		if added {
			out = append(out, binding{values: values, rank: rank})
		}
	}
	return out
}

// answerItems are the objects an answer gives inputs from: the first n
// elements of a list answer, or an object answer with the first n elements
// of each of its lists of objects (a page's items, an option list's options).
func answerItems(v any, n int) []map[string]any {
	var out []map[string]any
	objects := func(list []any) {
		for _, e := range list[:min(n, len(list))] {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	switch t := v.(type) {
	case []any:
		objects(t)
	case map[string]any:
		out = append(out, t)
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if list, ok := t[k].([]any); ok {
				objects(list)
			}
		}
	}
	return out
}

// itemInput is the value an answer item gives input name: a field of the
// same name, else the fields inputLinks names for the operation.
func itemInput(op, name string, item map[string]any) (string, bool) {
	fields := append([]string{name}, inputLinks[op][name]...)
	for _, f := range fields {
		if v, ok := scalarText(item[f]); ok {
			return v, true
		}
	}
	return "", false
}

// notCalled adds a note for every safe operation the probe did not call,
// saying why.
func (p *prober) notCalled() {
	for _, i := range p.safe {
		if p.perOp[i] > 0 {
			continue
		}
		op := p.spec.Ops[i]
		p.out.note("probe-not-called", op.ID, p.spec.at(i), p.whyNotCalled(i))
	}
}

// unchecked adds a note for every operation called that never answered
// with success: its success answer was not checked.
func (p *prober) unchecked() {
	for _, i := range p.safe {
		if p.perOpOK[i] == 0 && p.lastErr[i] != "" {
			p.out.note("probe-unchecked", p.spec.Ops[i].ID, p.spec.at(i),
				fmt.Sprintf("%s answered only errors (the last: %s); its success answer was not checked", plural(p.perOp[i], "call"), p.lastErr[i]))
		}
	}
}

func (p *prober) whyNotCalled(i int) string {
	var missing []string
	for _, prm := range p.spec.Ops[i].Params {
		if prm.Required && !p.seen[prm.Name] {
			missing = append(missing, prm.Name)
		}
	}
	switch {
	case len(missing) > 0:
		return fmt.Sprintf("no answer gave %s", strings.Join(missing, ", "))
	case p.rejected[i] != "":
		return p.rejected[i]
	case slices.ContainsFunc(p.queue, func(c call) bool { return c.op == i }):
		return fmt.Sprintf("-max-calls %d was reached first", p.lim.maxCalls)
	}
	return "no chain of answers gave all its inputs together"
}
