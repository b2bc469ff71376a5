package drift

import (
	"slices"
	"sync"
)

// Collector gathers findings, each once per operation, path and kind, a
// value kept raw ([Finding.KeptRaw]) apart from one converted, and a value
// outside an enumeration ([KindEnum]) once per value too, up to a
// bound when one is given ([Collector.Offer]): past it, findings are
// counted ([Collector.Dropped]), not kept. It is safe for concurrent use;
// the zero value is ready to use.
type Collector struct {
	mu       sync.Mutex
	seen     map[key]bool
	findings []Finding
	dropped  int
}

type key struct {
	kind, operation, path, value string
	keptRaw                      bool
}

// Outcome is what became of a finding offered to a Collector.
type Outcome uint8

const (
	// Repeated: a finding of the same kind, operation and path (and
	// value, and KeptRaw) was kept before; this one is not.
	Repeated Outcome = iota
	// Kept: the finding is new and kept.
	Kept
	// Dropped: the collector holds as many findings as it may; the
	// finding is counted, not kept.
	Dropped
	// FirstDropped: Dropped, and the first finding dropped: the moment to
	// say once that the bound was reached.
	FirstDropped
)

// Add records f and reports whether it is new: no finding of the same
// kind, operation, path and KeptRaw (and Value, for [KindEnum]) was added
// before.
// Of repeated findings the first is kept. Add keeps any number of
// findings; Offer keeps a bounded number.
func (c *Collector) Add(f Finding) bool { return c.Offer(f, 0) == Kept }

// Offer records f as Add does while the collector holds fewer than max
// findings (max 0: no bound), and says what became of it. Past the bound
// a finding not kept before is counted, not kept: a finding that recurs
// past the bound counts each time.
func (c *Collector) Offer(f Finding, max int) Outcome {
	k := key{kind: f.Kind, operation: f.Operation, path: f.Path, keptRaw: f.KeptRaw}
	if f.Kind == KindEnum {
		k.value = string(f.Value)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[k] {
		return Repeated
	}
	if max > 0 && len(c.findings) >= max {
		return c.drop(1)
	}
	if c.seen == nil {
		c.seen = make(map[key]bool)
	}
	c.seen[k] = true
	c.findings = append(c.findings, f)
	return Kept
}

// Overflow counts n findings that were not offered one by one (a decoder
// dropped them past a bound of its own), as Offer counts one past its
// bound: the outcome is Dropped, or FirstDropped for the first.
func (c *Collector) Overflow(n int) Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.drop(n)
}

func (c *Collector) drop(n int) Outcome {
	first := c.dropped == 0 && n > 0
	c.dropped += n
	if first {
		return FirstDropped
	}
	return Dropped
}

// Dropped is the number of findings counted but not kept: offered past
// the bound, or counted by Overflow.
func (c *Collector) Dropped() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

// Findings returns a sorted copy of the findings added so far.
func (c *Collector) Findings() []Finding {
	c.mu.Lock()
	out := slices.Clone(c.findings)
	c.mu.Unlock()
	slices.SortFunc(out, Compare)
	return out
}

// Len is the number of findings added so far.
func (c *Collector) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.findings)
}
