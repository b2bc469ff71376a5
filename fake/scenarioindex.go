package fake

import (
	"container/heap"
	"slices"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/ids"
)

// projectScenarios indexes the scenarios of one project, so that listing
// them, checking a name and naming a copy cost the same however many
// scenarios the world holds: their ids in order, how many have each name,
// and the first free copy name.
type projectScenarios struct {
	ids    []ids.ScenarioID // ascending
	names  map[string]int   // scenarios per name; names need not be unique
	copies copyNames
}

// copyNames finds the first free copy name, "null", "null 2", "null 3",
// ..., in amortised O(log n): every number below next was taken when it was
// last looked at, and those whose names were freed since are in freed.
type copyNames struct {
	next  int
	freed intHeap
}

// copyNumber is the number of a copy name: 1 for "null", k for "null k"
// (k >= 2, as the server writes it); false for any other name.
func copyNumber(name string) (int, bool) {
	if name == "null" {
		return 1, true
	}
	digits, ok := strings.CutPrefix(name, "null ")
	if !ok || digits == "" || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	k, err := strconv.Atoi(digits)
	return k, err == nil && k >= 2
}

// copyName is the copy name of number k.
func copyName(k int) string {
	if k == 1 {
		return "null"
	}
	return "null " + strconv.Itoa(k)
}

// firstFree returns the first copy name no scenario of p has.
func (p *projectScenarios) firstFree() string {
	c := &p.copies
	for c.freed.Len() > 0 {
		if k := heap.Pop(&c.freed).(int); p.names[copyName(k)] == 0 {
			return copyName(k)
		}
	}
	c.next = max(c.next, 1)
	for p.names[copyName(c.next)] > 0 {
		c.next++
	}
	c.next++
	return copyName(c.next - 1)
}

// freeName records that no scenario of p has name any more.
func (p *projectScenarios) freeName(name string) {
	if k, ok := copyNumber(name); ok && k < p.copies.next {
		heap.Push(&p.copies.freed, k)
	}
}

// scenarioIndex is the index of a project, made when first needed.
func (w *world) scenarioIndex(projectID ids.ProjectID) *projectScenarios {
	p := w.byProject[projectID]
	if p == nil {
		p = &projectScenarios{names: map[string]int{}}
		w.byProject[projectID] = p
	}
	return p
}

// indexScenario adds sc to its project's index.
func (w *world) indexScenario(sc *scenario) {
	p := w.scenarioIndex(sc.projectID)
	if i, found := slices.BinarySearch(p.ids, sc.id); !found {
		p.ids = slices.Insert(p.ids, i, sc.id)
	}
	p.names[sc.name]++
}

// unindexScenario removes sc from its project's index.
func (w *world) unindexScenario(sc *scenario) {
	p := w.scenarioIndex(sc.projectID)
	if i, found := slices.BinarySearch(p.ids, sc.id); found {
		p.ids = slices.Delete(p.ids, i, i+1)
	}
	p.dropName(sc.name)
}

func (p *projectScenarios) dropName(name string) {
	if p.names[name]--; p.names[name] <= 0 {
		delete(p.names, name)
		p.freeName(name)
	}
}

// renameScenario gives sc a new name, in the index too.
func (w *world) renameScenario(sc *scenario, name string) {
	p := w.scenarioIndex(sc.projectID)
	p.dropName(sc.name)
	sc.name = name
	p.names[name]++
}

// projectScenarioIDs returns the ids of a project's scenarios, ascending;
// the caller must not keep them past the world's lock.
func (w *world) projectScenarioIDs(projectID ids.ProjectID) []ids.ScenarioID {
	if p := w.byProject[projectID]; p != nil {
		return p.ids
	}
	return nil
}

// intHeap is a min-heap of ints (container/heap).
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
