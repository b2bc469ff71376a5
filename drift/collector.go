package drift

import (
	"slices"
	"sync"
)

// Collector gathers findings, each once per operation, path and kind, and
// a value outside an enumeration ([KindEnum]) once per value too. It is
// safe for concurrent use; the zero value is ready to use.
type Collector struct {
	mu       sync.Mutex
	seen     map[key]bool
	findings []Finding
}

type key struct{ kind, operation, path, value string }

// Add records f and reports whether it is new: no finding of the same
// kind, operation and path (and Value, for [KindEnum]) was added before.
// Of repeated findings the first is kept.
func (c *Collector) Add(f Finding) bool {
	k := key{kind: f.Kind, operation: f.Operation, path: f.Path}
	if f.Kind == KindEnum {
		k.value = string(f.Value)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[k] {
		return false
	}
	if c.seen == nil {
		c.seen = make(map[key]bool)
	}
	c.seen[k] = true
	c.findings = append(c.findings, f)
	return true
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
