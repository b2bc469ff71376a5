package facade

import "github.com/scmodel/scmgo/gen"

// RunEvidence is what a [Run] has seen of its start and its end: the
// diagnostics beside the poller, for a program that records or shows how
// a run's end and result were told from another's. [EvidenceOf] returns
// it.
type RunEvidence struct {
	// End says how the wait decided that the run's end is this start's:
	// one of the End constants, "" before it did.
	End EndEvidence
	// Entry is this start's run as its scenario lists it, once the wait
	// decided that the run's end is this start's (see [Run]); nil before,
	// for a run that ended without a listed result (it failed or stopped,
	// or its type is never listed), and for a Run made from its rcId
	// alone. It is the one run of the start's scenario and type that was
	// not listed before the start; where two or more were, the wait ended
	// with a [*StartUnknownError] (Ambiguous), and there is none. Once
	// decided it stays, whatever is listed later, and the resume token
	// carries it.
	Entry *gen.ApiBasicRun
	// Weak says why the evidence of the run's start is weaker than a start
	// of this release records (a token of an earlier release), "" when it
	// is not.
	Weak string
	// StartAnswer is what runExperiment answered, nil when this Run did
	// not send it, or its answer was lost.
	StartAnswer *gen.ApiRunExperiment
	// Polls is how many status requests the Run has sent that were
	// answered.
	Polls int
}

// EvidenceOf returns what r has seen of its start and its end so far. It
// sends nothing.
func EvidenceOf(r *Run) RunEvidence {
	polls := r.t.pollCount()
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := RunEvidence{End: r.ev.endedBy, Weak: r.ev.weak, StartAnswer: r.answer, Polls: polls}
	if r.ev.entry != nil {
		entry := *r.ev.entry
		ev.Entry = &entry
	}
	return ev
}
