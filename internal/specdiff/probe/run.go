package probe

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// prober calls the operations of a live server that change no state, with
// inputs taken from earlier answers, and checks every answer against the
// spec. It sends an operation only when the spec marks it
// x-changes-state: false, whatever its HTTP method.
type prober struct {
	spec *specdoc.Spec
	srv  Server
	lim  Limits

	safe     []int             // indexes in spec.Ops of the operations it may send
	wanted   map[string]bool   // input names of those operations
	given    map[string]string // inputs given with -input
	rcs      *rcPool
	bindings []binding       // every binding offered, offered again when rcs learns something
	offered  map[string]bool // binding keys
	queue    []call
	queued   map[string]bool         // call keys, sent or waiting
	perOp    map[int]int             // calls sent per operation
	perOpOK  map[int]int             // 2xx answers per operation
	lastErr  map[int]string          // the last error status an operation answered
	seen     map[string]bool         // inputs some binding had
	gives    map[int]map[string]bool // operation -> inputs its answers gave
	rejected map[int]string          // why an operation's inputs were refused
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

func newProber(s *specdoc.Spec, srv Server, lim Limits) *prober {
	p := &prober{spec: s, srv: srv, lim: lim, given: lim.Inputs, rcs: newRCPool(s),
		wanted: map[string]bool{}, offered: map[string]bool{}, queued: map[string]bool{}, perOp: map[int]int{}, perOpOK: map[int]int{}, lastErr: map[int]string{},
		seen: map[string]bool{}, gives: map[int]map[string]bool{}, rejected: map[int]string{}, out: newProbeFindings()}
	for i, op := range s.Ops {
		if op.ChangesState {
			continue
		}
		p.safe = append(p.safe, i)
		for _, prm := range op.Params {
			if needed(prm) {
				p.wanted[prm.Name] = true
			}
		}
	}
	return p
}

// run probes until no call is left or the budget is spent, and returns the
// findings, notes on the operations it could not call included.
func (p *prober) run(ctx context.Context) ([]report.Finding, error) {
	root := binding{values: maps.Clone(inputConstants), rank: 1}
	maps.Copy(root.values, p.given)
	if rc, ok := p.given["rcId"]; ok {
		p.rcs.give(rc)
	}
	p.offer(root)
	for len(p.queue) > 0 && p.sent < p.lim.MaxCalls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := p.next()
		a, err := p.send(ctx, c)
		if err != nil {
			return nil, err
		}
		p.learn(c, a)
		for _, b := range p.bindingsFrom(c, a) {
			p.offer(b)
		}
	}
	if p.succeeded == 0 {
		return nil, fmt.Errorf("probe %s: no call succeeded; the first: %s (is BASE_URL where the operation paths begin, usually ending in /api/v1, and is the -header key right?)",
			fetch.RedactedURL(p.srv.Base), p.firstFail)
	}
	p.notCalled()
	p.unchecked()
	return p.out.sorted(), nil
}

// offer keeps b and queues a call of every safe operation whose required
// inputs b has.
func (p *prober) offer(b binding) {
	key := callKey(-1, b.values)
	if p.offered[key] {
		return
	}
	p.offered[key] = true
	p.bindings = append(p.bindings, b)
	for k := range b.values {
		p.seen[k] = true
	}
	p.queueCalls(b)
}

// queueCalls queues the calls b gives inputs for that are not queued yet.
func (p *prober) queueCalls(b binding) {
	for _, i := range p.safe {
		for _, values := range p.inputs(i, b) {
			key := callKey(i, values)
			if p.queued[key] {
				continue
			}
			p.queued[key] = true
			p.seq++
			p.queue = append(p.queue, call{op: i, values: values, rank: b.rank, seq: p.seq, from: b})
		}
	}
}

// learn records what an answer tells about run configurations; when it is
// news, every binding is offered again, as operations that need an rcId of
// a kind may now have one.
func (p *prober) learn(c call, a *answer) {
	if a == nil || a.value == nil || !p.rcs.learn(p.spec.Ops[c.op].ID, a.value, c.from.values["scenarioId"], c.values["rcId"]) {
		return
	}
	p.gave(c.op, "rcId")
	for _, b := range p.bindings {
		p.queueCalls(b)
	}
}

// inputs picks the values of operation i's required inputs from b, and the
// paging inputs of a paged operation: one set of values, or one per fitting
// run configuration when the operation needs an rcId (see rcsFor). It
// returns none when an input is missing or not valid under the spec.
func (p *prober) inputs(i int, b binding) []map[string]string {
	op := p.spec.Ops[i]
	values := map[string]string{}
	needsRC := false
	for _, prm := range op.Params {
		switch {
		case op.Paged && prm.Name == "skip":
			values["skip"] = "0"
		case op.Paged && prm.Name == "take":
			values["take"] = fmt.Sprint(p.lim.Items)
		case prm.Required && prm.Name == "rcId":
			needsRC = true
		case prm.Required && !needed(prm):
			values[prm.Name] = strings.Trim(prm.Default, `"`) // required with a default, as fullMatch
			if v, ok := b.values[bindingKey(op.ID, prm.Name)]; ok && p.valid(i, prm.Name, v) {
				values[prm.Name] = v
			}
		case prm.Required:
			v, ok := b.values[bindingKey(op.ID, prm.Name)]
			if !ok || !p.valid(i, prm.Name, v) {
				return nil
			}
			values[prm.Name] = v
		}
	}
	if !needsRC {
		return []map[string]string{values}
	}
	var out []map[string]string
	for _, rc := range p.rcsFor(i, b) {
		if p.valid(i, "rcId", rc) {
			v := maps.Clone(values)
			v["rcId"] = rc
			out = append(out, v)
		}
	}
	return out
}

// rcsFor are the rcIds operation i is called with from b: b's own when it
// is of the kind rcNeeds asks for, else the first fitting ones the answers
// showed, of b's scenario when b has one.
func (p *prober) rcsFor(i int, b binding) []string {
	need := rcNeeds[p.spec.Ops[i].ID]
	if rc, ok := b.values["rcId"]; ok && p.rcs.fits(rc, need) {
		return []string{rc}
	}
	return p.rcs.candidates(need, b.values["scenarioId"], p.lim.Items)
}

// valid reports whether v is a valid value of operation i's input name,
// noting why not.
func (p *prober) valid(i int, name, v string) bool {
	if err := p.validInput(i, name, v); err != nil {
		p.rejected[i] = err.Error()
		return false
	}
	return true
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

func (p *prober) specOperation(i int) *openapi3.Operation { return p.spec.Operation(i) }

func callKey(op int, values map[string]string) string {
	var b strings.Builder
	fmt.Fprint(&b, op)
	for _, k := range slices.Sorted(maps.Keys(values)) {
		fmt.Fprintf(&b, "&%s=%s", k, values[k])
	}
	return b.String()
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
	for _, item := range answerItems(a.value, p.lim.Items) {
		values := maps.Clone(c.from.values)
		added := false
		for name := range p.wanted {
			key := bindingKey(op.ID, name)
			if _, ok := values[key]; ok {
				continue
			}
			if v, ok := itemInput(op.ID, name, item); ok && !emptyDashboard(op.ID, name, item) {
				values[key], added = v, true
			}
		}
		if added {
			out = append(out, binding{values: values, rank: rank})
		}
		for name := range values {
			if _, ok := c.from.values[name]; !ok {
				p.gave(c.op, name)
			}
		}
	}
	return out
}

// needed reports an input a call cannot be made without: a required
// parameter without a default (the server applies fullMatch's).
func needed(prm spec.Param) bool { return prm.Required && prm.Default == "" }

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
	fields := inputLinks[op][name]
	if !falseFriends[op][name] {
		fields = append([]string{name}, fields...)
	}
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
		p.out.note("probe-not-called", op.ID, p.spec.At(i), p.whyNotCalled(i))
	}
}

// unchecked adds a note for every operation called that never answered
// with success: its success answer was not checked.
func (p *prober) unchecked() {
	for _, i := range p.safe {
		if p.perOpOK[i] == 0 && p.lastErr[i] != "" {
			p.out.note("probe-unchecked", p.spec.Ops[i].ID, p.spec.At(i),
				fmt.Sprintf("%s answered only errors (the last: %s); its success answer was not checked", report.Plural(p.perOp[i], "call"), p.lastErr[i]))
		}
	}
}

func (p *prober) whyNotCalled(i int) string {
	op := p.spec.Ops[i]
	var missing []string
	takesRC := false
	for _, prm := range op.Params {
		takesRC = takesRC || (prm.Required && prm.Name == "rcId")
		if needed(prm) && !p.seen[prm.Name] && (prm.Name != "rcId" || len(p.rcs.order) == 0) {
			missing = append(missing, prm.Name)
		}
	}
	need := rcNeeds[op.ID]
	switch {
	case takesRC && !need.any() && len(p.rcs.candidates(need, "", 1)) == 0:
		return fmt.Sprintf("it needs %s, and no answer showed one", need)
	case len(missing) > 0:
		return missingInputs(missing)
	case p.rejected[i] != "":
		return p.rejected[i]
	case p.sent >= p.lim.MaxCalls && len(p.queue) > 0:
		return fmt.Sprintf("-max-calls %d was reached first", p.lim.MaxCalls)
	}
	return "no chain of answers gave all its inputs together"
}

// missingInputs says which inputs no answer gave, and how to give the ones
// only a state change makes.
func missingInputs(missing []string) string {
	s := "no answer gave " + strings.Join(missing, ", ")
	for _, name := range missing {
		if what, ok := madeInputs[name]; ok {
			s += fmt.Sprintf("; only an operation that changes state makes %s (%s): name one with -input %s=ID", name, what, name)
		}
	}
	return s
}
