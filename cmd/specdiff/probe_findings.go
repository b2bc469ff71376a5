package main

// probeFindings collects what a probe found. A drift is reported once,
// at the first operation whose answer showed it: one model read by ten
// operations is one thing to fix.
type probeFindings struct {
	findings []Finding
	reported map[string]bool // kind and detail
}

func newProbeFindings() *probeFindings {
	return &probeFindings{reported: map[string]bool{}}
}

func (p *probeFindings) drift(kind, op string, at location, path, detail string) {
	p.add(kind+" "+detail, kind, op, at, path, detail)
}

// note adds a finding that is not drift, once per operation: an operation
// not called, a call that got no answer.
func (p *probeFindings) note(kind, op string, at location, detail string) {
	p.add(kind+" "+op+" "+detail, kind, op, at, "", detail)
}

func (p *probeFindings) add(key, kind, op string, at location, path, detail string) {
	if p.reported[key] {
		return
	}
	p.reported[key] = true
	f := newFinding(kind, op, detail, at)
	f.Path = path
	p.findings = append(p.findings, f)
}

func (p *probeFindings) sorted() []Finding {
	sortFindings(p.findings)
	return p.findings
}
