package probe

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// rcPool is what the answers told about run configurations (experiments),
// by rcId: their type, scenario, and whether one of their runs finished.
// An operation that needs an rcId of a kind (rcNeeds) takes it from here.
//
// It reads answers by JSON property names only, so that it keeps working
// while the oas.Models change: an item's rcId is its rcId field (or the field
// inputLinks names, such as a run configuration's id), its type the first of
// type and experimentType that holds one of the spec's experiment types, and
// a finished run an experimentResultId, or a state or status field (also
// inside an object) holding a successful terminal state. Ids may be numbers
// or strings.
type rcPool struct {
	types map[string]bool // the spec's experiment types, upper case
	byID  map[string]*rcFacts
	order []string // rcIds as first seen
	// ran are the scenario and type pairs whose runs getExperimentRunsForScenario
	// listed: a listed run names its result, not its run configuration, so
	// the configuration of that scenario and type is the one that ran.
	ran map[[2]string]bool
}

// rcFacts is what is known of one run configuration.
type rcFacts struct {
	typ      string // experiment type, "" while no answer told it
	scenario string // scenarioId, "" while unknown
	finished bool   // an answer showed a finished run of it
	given    bool   // given with -input rcId=...: trusted to fit every need
}

// finishedStates are the run states that mean a run ended with a result,
// over the spellings servers use.
var finishedStates = map[string]bool{"FINISHED": true, "DONE": true, "COMPLETED": true, "SUCCEEDED": true, "SUCCESS": true}

func newRCPool(s *specdoc.Spec) *rcPool {
	p := &rcPool{types: map[string]bool{}, byID: map[string]*rcFacts{}, ran: map[[2]string]bool{}}
	for _, op := range s.Ops {
		for _, prm := range op.Params {
			if prm.Name == "experimentType" {
				for _, v := range prm.Enum {
					p.types[strings.ToUpper(v)] = true
				}
			}
		}
	}
	return p
}

// facts returns the entry of an rcId, adding it when new.
func (p *rcPool) facts(id string) (*rcFacts, bool) {
	if f, ok := p.byID[id]; ok {
		return f, false
	}
	f := &rcFacts{}
	p.byID[id] = f
	p.order = append(p.order, id)
	return f, true
}

// give records an rcId the user gave.
func (p *rcPool) give(id string) {
	f, _ := p.facts(id)
	f.given = true
}

// learn records what every item of an answer of op tells about run
// configurations; scenario is the scenarioId the call was made under, ""
// when none. It reports whether anything new was learnt.
func (p *rcPool) learn(op string, value any, scenario, rcID string) bool {
	changed := false
	if op == statusOperation && rcID != "" {
		// A status shows the last run's end: the configuration has a result,
		// a VARIATION's included, which getExperimentRunsForScenario never lists.
		if item, ok := value.(map[string]any); ok && showsFinishedRun(item) {
			if f, _ := p.facts(rcID); !f.finished {
				f.finished, changed = true, true
			}
		}
	}
	if op == runsOperation {
		for _, item := range answerItems(value, math.MaxInt) {
			if typ, sc := p.experimentType(item), cmp.Or(fieldText(item, "scenarioId"), scenario); typ != "" && sc != "" && (!hasState(item) || showsFinishedRun(item)) {
				p.ran[[2]string{sc, typ}] = true
			}
		}
	}
	for _, item := range answerItems(value, math.MaxInt) {
		id, ok := itemInput(op, "rcId", item)
		if !ok {
			continue
		}
		f, added := p.facts(id)
		changed = changed || added
		if typ := p.experimentType(item); typ != "" && f.typ == "" {
			f.typ, changed = typ, true
		}
		if sc := cmp.Or(fieldText(item, "scenarioId"), scenario); sc != "" && f.scenario == "" {
			f.scenario, changed = sc, true
		}
		if !f.finished && showsFinishedRun(item) {
			f.finished, changed = true, true
		}
	}
	return p.markRan() || changed
}

// markRan marks finished the configurations of a scenario and type whose
// runs are listed, and reports whether any was new.
func (p *rcPool) markRan() bool {
	changed := false
	for _, f := range p.byID {
		if !f.finished && p.ran[[2]string{f.scenario, f.typ}] {
			f.finished, changed = true, true
		}
	}
	return changed
}

// experimentType is the item's experiment type: the first of its type and
// experimentType fields that holds one of the spec's types.
func (p *rcPool) experimentType(item map[string]any) string {
	for _, k := range []string{"type", "experimentType"} {
		if v := strings.ToUpper(fieldText(item, k)); p.types[v] {
			return v
		}
	}
	return ""
}

// statusOperation answers the state of a run configuration's last run.
const statusOperation = "getExperimentStatus"

// runsOperation lists the results of a scenario's finished runs, by
// scenario and type: the run configuration of that scenario and type has a
// result, unless the item shows a state of its own that is not a finished
// one (a run under way).
const runsOperation = "getExperimentRunsForScenario"

// showsFinishedRun reports whether an item shows a finished run: it names
// an experimentResultId, has finished true (a real server's run state), or
// a field whose name has state or status holds a finished state, as a
// string or as any string field of an object.
func showsFinishedRun(item map[string]any) bool {
	for k, v := range item {
		name := strings.ToLower(k)
		switch {
		case name == "finished":
			if v == true {
				return true
			}
		case name == "experimentresultid":
			if _, ok := scalarText(v); ok {
				return true
			}
		case strings.Contains(name, "state") || strings.Contains(name, "status"):
			if isFinishedState(v) {
				return true
			}
			if m, ok := v.(map[string]any); ok && slices.ContainsFunc(slices.Collect(maps.Values(m)), isFinishedState) {
				return true
			}
		}
	}
	return false
}

// hasState reports whether an item has a field whose name has state or
// status.
func hasState(item map[string]any) bool {
	for k := range item {
		if name := strings.ToLower(k); strings.Contains(name, "state") || strings.Contains(name, "status") {
			return true
		}
	}
	return false
}

func isFinishedState(v any) bool {
	s, ok := v.(string)
	return ok && finishedStates[strings.ToUpper(s)]
}

// fits reports whether the run configuration id is what need asks for.
// An rcId no answer described fits only a need for any.
func (p *rcPool) fits(id string, need rcNeed) bool {
	f := p.byID[id]
	switch {
	case need.any():
		return true
	case f == nil:
		return false
	case f.given:
		return true
	}
	return need.accepts(f.typ, f.finished)
}

// candidates are the first n run configurations (as first seen) that fit
// need, of the scenario when it is given and known.
func (p *rcPool) candidates(need rcNeed, scenario string, n int) []string {
	var out []string
	for _, id := range p.order {
		if len(out) == n {
			break
		}
		f := p.byID[id]
		if scenario != "" && f.scenario != "" && f.scenario != scenario && !f.given {
			continue
		}
		if p.fits(id, need) {
			out = append(out, id)
		}
	}
	return out
}

// fieldText is the text of an item's scalar field, "" when it has none.
func fieldText(item map[string]any, name string) string {
	s, _ := scalarText(item[name])
	return s
}
