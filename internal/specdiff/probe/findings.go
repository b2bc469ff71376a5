package probe

import (
	"encoding/json"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// probeFindings collects what a probe found. A drift is reported once,
// at the first operation whose answer showed it: one model read by ten
// operations is one thing to fix.
type probeFindings struct {
	findings []report.Finding
	reported map[string]bool // kind and detail
}

func newProbeFindings() *probeFindings {
	return &probeFindings{reported: map[string]bool{}}
}

// observation is one difference an answer showed at a model path, with
// what a tool needs to fix the spec (see the structured fields of
// [report.Finding]).
type observation struct {
	kind, path, detail string
	jsonType, specType string
	renamedTo          string
	value              json.RawMessage
}

func (p *probeFindings) drift(kind, op string, at report.Location, path, detail string) {
	p.observed(op, at, observation{kind: kind, path: path, detail: detail})
}

// observed adds the finding of an observation, with its structured fields
// when it has a path.
func (p *probeFindings) observed(op string, at report.Location, o observation) {
	f, ok := p.add(o.kind+" "+o.detail, o.kind, op, at, o.path, o.detail)
	if !ok || o.path == "" {
		return
	}
	f.Model, f.Property = drift.SplitPath(o.path)
	f.JSONType, f.SpecType, f.RenamedTo, f.Value = o.jsonType, o.specType, o.renamedTo, o.value
}

// note adds a finding that is not drift, once per operation: an operation
// not called, a call that got no answer.
func (p *probeFindings) note(kind, op string, at report.Location, detail string) {
	p.add(kind+" "+op+" "+detail, kind, op, at, "", detail)
}

// add adds a finding unless one with the same key was added; it returns
// the finding added, valid until the next add.
func (p *probeFindings) add(key, kind, op string, at report.Location, path, detail string) (*report.Finding, bool) {
	if p.reported[key] {
		return nil, false
	}
	p.reported[key] = true
	f := report.New(kind, op, detail, at)
	f.Path = path
	p.findings = append(p.findings, f)
	return &p.findings[len(p.findings)-1], true
}

func (p *probeFindings) sorted() []report.Finding {
	report.Sort(p.findings)
	return p.findings
}
