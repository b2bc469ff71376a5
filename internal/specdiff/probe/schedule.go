package probe

import "slices"

// next takes the queued call to send now. First the calls of operations
// never called: every reachable operation is called once before any twice.
// Then the calls that may lead to an operation not checked yet (one that
// has not answered 2xx): of an operation whose answers gave an input that
// such an operation needs, directly or through the inputs of other calls.
// Then the rest. Within each tier, the call of the operation called least
// so far, then from a preferred source, then the oldest.
func (p *prober) next() call {
	useful := p.usefulOps()
	tier := func(c call) int {
		switch {
		case p.perOp[c.op] == 0:
			return 0
		case useful[c.op]:
			return 1
		}
		return 2
	}
	best := 0
	for i, c := range p.queue {
		b := p.queue[best]
		if ta, tb := tier(c), tier(b); ta != tb {
			if ta < tb {
				best = i
			}
			continue
		}
		if p.perOp[c.op] < p.perOp[b.op] || (p.perOp[c.op] == p.perOp[b.op] && (c.rank < b.rank || (c.rank == b.rank && c.seq < b.seq))) {
			best = i
		}
	}
	c := p.queue[best]
	p.queue = slices.Delete(p.queue, best, best+1)
	return c
}

// usefulOps are the operations whose answers gave an input that an
// operation not checked yet needs, or that another useful operation needs.
func (p *prober) usefulOps() map[int]bool {
	needed := map[string]bool{}
	for _, i := range p.safe {
		if p.perOpOK[i] == 0 {
			p.addRequired(needed, i)
		}
	}
	useful := map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, i := range p.safe {
			if !useful[i] && p.givesAny(i, needed) {
				useful[i], changed = true, true
				p.addRequired(needed, i)
			}
		}
	}
	return useful
}

func (p *prober) addRequired(names map[string]bool, i int) {
	for _, prm := range p.spec.Ops[i].Params {
		if needed(prm) {
			names[prm.Name] = true
		}
	}
}

func (p *prober) givesAny(i int, names map[string]bool) bool {
	for name := range p.gives[i] {
		if names[name] {
			return true
		}
	}
	return false
}

// gave notes that an answer of operation i gave input name.
func (p *prober) gave(i int, name string) {
	if p.gives[i] == nil {
		p.gives[i] = map[string]bool{}
	}
	p.gives[i][name] = true
}
