package probe

import (
	"slices"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// coverage counts what the probe checked.
func (p *prober) coverage() *report.Coverage {
	c := &report.Coverage{ReadOnly: len(p.safe), AnsweredOnlyErrors: []string{}, NoAnswer: []string{}, NotCalled: []string{}}
	for _, i := range p.safe {
		id := p.spec.Ops[i].ID
		switch {
		case p.perOpOK[i] > 0:
			c.Checked++
		case p.perOp[i] == 0:
			c.NotCalled = append(c.NotCalled, id)
		case p.lastErr[i] != "":
			c.AnsweredOnlyErrors = append(c.AnsweredOnlyErrors, id)
		default:
			c.NoAnswer = append(c.NoAnswer, id)
		}
	}
	for _, l := range [][]string{c.AnsweredOnlyErrors, c.NoAnswer, c.NotCalled} {
		slices.Sort(l)
	}
	return c
}
