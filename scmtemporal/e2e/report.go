package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/scmodel/scmgo/ids"
)

// phaseReport is what one phase measured and found.
type phaseReport struct {
	name      string
	wall      time.Duration
	items     []itemFacts
	lost      []string // items that did not complete, and why
	lostItems []lostItem
	// ambiguous are items that ended unknown with one run of their own
	// beside a run of the busy process on their configuration: the facade
	// cannot tell which is theirs, and says so (an Ambiguous
	// *facade.StartUnknownError).
	ambiguous   []string
	claims      []string // workflows whose result is not the run their scenario lists
	kills       []kill
	attempts    attemptStats
	histories   []string
	calls       map[string]map[string]int
	stray       []string
	notes       []string
	checkBroken bool // the export check could not tell two results apart
}

// outcome is how one item's workflow ended.
type outcome struct {
	name, workflowID string
	status           string // done, unknown, failed, cancelled, not ended
	resultID         ids.ExperimentResultID
	err              error
}

// checkClaims compares the experimentResultId each workflow returned with
// the run its scenario lists.
func (r *phaseReport) checkClaims(outcomes []outcome) {
	byName := map[string]itemFacts{}
	for _, f := range r.items {
		byName[f.Name] = f
	}
	for _, o := range outcomes {
		if o.err != nil {
			continue
		}
		if f := byName[o.name]; len(f.Results) != 1 || f.Results[0] != o.resultID {
			r.claims = append(r.claims, fmt.Sprintf("%s: the workflow returned experimentResultId %d, its scenario lists %v", o.name, o.resultID, f.Results))
		}
	}
}

// lostItem is an item that did not complete, and how it ended.
type lostItem struct{ name, status string }

// excuseAmbiguous moves from the lost items those that ended unknown with
// one run of their own beside the busy process's runs on their
// configuration: not lost by the module, but left for the user to tell
// apart, as the facade cannot.
func (r *phaseReport) excuseAmbiguous() {
	byName := map[string]itemFacts{}
	for _, f := range r.items {
		byName[f.Name] = f
	}
	var lost []string
	var items []lostItem
	for i, it := range r.lostItems {
		if f := byName[it.name]; it.status == "unknown" && f.Busy > 0 && f.Runs == 1 {
			r.ambiguous = append(r.ambiguous, it.name)
			continue
		}
		lost, items = append(lost, r.lost[i]), append(items, it)
	}
	r.lost, r.lostItems = lost, items
}

// counts of the figures: items by runs started, by imports, by export state.
func (r *phaseReport) counts() (runs, imports map[int][]string, exports map[string][]string) {
	runs, imports, exports = map[int][]string{}, map[int][]string{}, map[string][]string{}
	for _, f := range r.items {
		runs[f.Runs] = append(runs[f.Runs], f.Name)
		imports[len(f.Scenarios)] = append(imports[len(f.Scenarios)], f.Name)
		exports[f.Export] = append(exports[f.Export], f.Name)
	}
	return runs, imports, exports
}

// passed reports whether every item ran exactly once, was imported once,
// completed and exported its own result (or ended unknown beside the busy
// process's run), and the checks could fail.
func (r *phaseReport) passed() bool {
	runs, imports, _ := r.counts()
	ambiguous := map[string]bool{}
	for _, name := range r.ambiguous {
		ambiguous[name] = true
	}
	own := 0
	for _, f := range r.items {
		if f.Export == exportOwn || ambiguous[f.Name] && f.Export == exportMissing {
			own++
		}
	}
	return len(r.items) > 0 && len(runs[1]) == len(r.items) && len(imports[1]) == len(r.items) &&
		own == len(r.items) && len(r.lost) == 0 && len(r.claims) == 0 && !r.checkBroken
}

func (r *phaseReport) print(w io.Writer) {
	runs, imports, exports := r.counts()
	fmt.Fprintf(w, "\n== %s\n", r.name)
	fmt.Fprintf(w, "items: %d, wall time: %s\n", len(r.items), r.wall.Round(100*time.Millisecond))
	fmt.Fprintf(w, "runs started per item: %s\n", histogram(runs))
	fmt.Fprintf(w, "imports per item: %s\n", histogram(imports))
	fmt.Fprintf(w, "items lost: %d\n", len(r.lost))
	if len(r.ambiguous) > 0 {
		fmt.Fprintf(w, "items unknown beside another process's run on their configuration (one run of their own, which the facade cannot tell from it): %d (%s)\n",
			len(r.ambiguous), strings.Join(r.ambiguous, ", "))
	}
	fmt.Fprintf(w, "results exported that are not the item's own: %d (missing: %d, own: %d)\n",
		len(r.items)-len(exports[exportOwn])-len(exports[exportMissing]), len(exports[exportMissing]), len(exports[exportOwn]))
	fmt.Fprintf(w, "fake's answers: %s\n", callLine(r.calls))
	if len(r.kills) > 0 || r.attempts.begun > 0 {
		fmt.Fprintf(w, "workers killed: %d; activity attempts: %d, of which retries %d %s, cut by a kill %d\n",
			len(r.kills), r.attempts.begun, r.attempts.retries, byActivity(r.attempts.byActivity), r.attempts.cut)
		fmt.Fprintf(w, "time per attempt that ended, mean (attempts): %s\n", timePerActivity(r.attempts))
	}
	if busy := r.busyRuns(); busy > 0 {
		fmt.Fprintf(w, "runs of the busy process listed on the items' scenarios: %d\n", busy)
	}
	for n, names := range runs {
		if n != 1 {
			fmt.Fprintf(w, "  %d runs: %s\n", n, strings.Join(names, ", "))
		}
	}
	for n, names := range imports {
		if n != 1 {
			fmt.Fprintf(w, "  %d imports: %s\n", n, strings.Join(names, ", "))
		}
	}
	for state, names := range exports {
		if state != exportOwn {
			fmt.Fprintf(w, "  export %s: %s\n", state, strings.Join(names, ", "))
		}
	}
	for i := range r.lost {
		r.lost[i] = cut(r.lost[i], 600)
	}
	printList(w, "lost", r.lost)
	printList(w, "result claimed", r.claims)
	printList(w, "stray file in the output directory", r.stray)
	printList(w, "note", r.notes)
	for _, h := range r.histories {
		fmt.Fprint(w, h)
	}
}

func printList(w io.Writer, label string, list []string) {
	for _, s := range list {
		fmt.Fprintf(w, "  %s: %s\n", label, s)
	}
}

// histogram prints "1: 200 items" or "1: 198 items, 2: 2 items".
func histogram(m map[int][]string) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d: %d items", k, len(m[k]))
	}
	return strings.Join(parts, ", ")
}

func callLine(calls map[string]map[string]int) string {
	ops := make([]string, 0, len(calls))
	for op := range calls {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var parts []string
	for _, op := range ops {
		statuses := make([]string, 0, len(calls[op]))
		for st, n := range calls[op] {
			statuses = append(statuses, fmt.Sprintf("%s×%d", st, n))
		}
		sort.Strings(statuses)
		if len(statuses) == 0 {
			statuses = []string{"none"}
		}
		parts = append(parts, op+" "+strings.Join(statuses, " "))
	}
	return strings.Join(parts, "; ")
}

func byActivity(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// history prints a failed item's attempts in order, each attempt that
// never ended with the kill of its worker, and between them every kill
// sent while the item was under way (an attempt that a worker took but
// died before running leaves no line of its own: only its kill shows).
func history(workflowID string, list []attempt, kills []kill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  attempt history of %s:\n", workflowID)
	sort.SliceStable(list, func(i, j int) bool { return list[i].At.Before(list[j].At) })
	ended := map[string]bool{}
	for _, a := range list {
		if a.End != "" {
			ended[a.key()] = true
		}
	}
	killedAt := map[string]time.Time{}
	for _, k := range kills {
		killedAt[k.identity] = k.at
	}
	next := 0 // the next kill to print
	for _, a := range list {
		for ; next < len(kills) && kills[next].at.Before(a.At); next++ {
			if len(list) > 0 && kills[next].at.After(list[0].At) {
				fmt.Fprintf(&b, "    %s kill of %s\n", kills[next].at.Format("15:04:05.000"), kills[next].identity)
			}
		}
		what := "began"
		if a.End != "" {
			what = "ended: " + cut(a.End, 300)
		} else if at, ok := killedAt[a.Worker]; ok && !ended[a.key()] {
			what += fmt.Sprintf("; its worker was killed at %s, %s later", at.Format("15:04:05.000"), at.Sub(a.At).Round(time.Millisecond))
		}
		fmt.Fprintf(&b, "    %s %s#%d on %s %s\n", a.At.Format("15:04:05.000"), a.Activity, a.Attempt, a.Worker, what)
	}
	return b.String()
}

// cut shortens s to n bytes at most, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// timePerActivity is the mean time of an ended attempt of each activity:
// where an item's time goes.
func timePerActivity(s attemptStats) string {
	keys := make([]string, 0, len(s.timed))
	for k := range s.timed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %s (%d)", k, (s.spent[k] / time.Duration(s.timed[k])).Round(10*time.Millisecond), s.timed[k])
	}
	return strings.Join(parts, ", ")
}

// busyRuns counts the runs of the busy process on the items' scenarios.
func (r *phaseReport) busyRuns() int {
	n := 0
	for _, f := range r.items {
		n += f.Busy
	}
	return n
}
