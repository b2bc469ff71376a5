package batch

import (
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// PlanNote is a remark on a plan that is not a mistake: where it is and
// what to know.
type PlanNote struct {
	File  string
	Line  int
	Field string // the field's path, such as items[2]
	Text  string
}

func (n PlanNote) String() string {
	return (&PlanError{File: n.File, Line: n.Line, Field: n.Field, Reason: n.Text}).Error()
}

// SharedRunConfigurations notes, at the first item of each run
// configuration that items share (the same project, existing scenario,
// experiment type and name), which items share it: their runs queue, one
// at a time. ReadPlan puts them in Notes; a plan built in code has none
// there until it calls this.
func (p *Plan) SharedRunConfigurations() []PlanNote {
	shared := &sharing{}
	for i, it := range p.Items {
		shared.add(it, fmt.Sprintf("items[%d]", i))
	}
	return shared.notes(p.File)
}

// runConfigKey is what makes two items of existing scenarios run the same
// experiment: one run configuration, which runs once at a time.
type runConfigKey struct {
	project  ids.ProjectID
	scenario ids.ScenarioID
	typ      gen.ExperimentType
	name     string
}

// sharing gathers the items of each run configuration, in plan order.
type sharing struct {
	keys  []runConfigKey
	items map[runConfigKey][]sharer
}

type sharer struct {
	name, field string
	line        int
}

func (s *sharing) add(it Item, field string) {
	if it.Scenario == 0 {
		return // a workbook import makes a scenario of its own
	}
	if s.items == nil {
		s.items = map[runConfigKey][]sharer{}
	}
	key := runConfigKey{it.Project, it.Scenario, it.Experiment, it.ExperimentName}
	if s.items[key] == nil {
		s.keys = append(s.keys, key)
	}
	s.items[key] = append(s.items[key], sharer{it.Name, field, it.Line})
}

// maxNamed is how many other items a note names.
const maxNamed = 5

// notes says, at the first item of each run configuration shared, which
// items share it.
func (s *sharing) notes(file string) []PlanNote {
	var notes []PlanNote
	for _, key := range s.keys {
		items := s.items[key]
		if len(items) < 2 {
			continue
		}
		var others []string
		for _, o := range items[1:min(len(items), maxNamed+1)] {
			others = append(others, fmt.Sprintf("%s at line %d", o.name, o.line))
		}
		if more := len(items) - 1 - maxNamed; more > 0 {
			others = append(others, fmt.Sprintf("%d more", more))
		}
		exp := string(key.typ)
		if key.name != "" {
			exp += fmt.Sprintf(" %q", key.name)
		}
		notes = append(notes, PlanNote{File: file, Line: items[0].line, Field: items[0].field,
			Text: fmt.Sprintf("runs scenario %d's %s experiment, as %s (%s): they share its run configuration, so their runs queue, one at a time",
				key.scenario, exp, otherItems(len(items)-1), strings.Join(others, ", "))})
	}
	return notes
}

func otherItems(n int) string {
	if n == 1 {
		return "does 1 other item"
	}
	return fmt.Sprintf("do %d other items", n)
}
