package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
)

// batchDisplay shows a batch's progress on standard error: on a terminal, a
// block of live lines (one per item under way and an overall one) redrawn
// in place as events come and every second (the elapsed times move), with
// a permanent line as each item ends; otherwise a plain line per change;
// nothing with --quiet. A percentage shows only where the step's progress
// is measured (a real server reports none for runs: their elapsed time
// shows instead). The runner calls event one at a time; the redrawing
// goroutine takes mu too.
type batchDisplay struct {
	out    io.Writer
	errOut io.Writer // notes, shown even with --quiet
	live   bool
	clock  facade.Clock
	names  []string // plan order

	mu     sync.Mutex
	status map[string]batch.Status
	events map[string]batch.Event // the last event of each item under way
	last   map[string]string      // plain mode: the last line printed per item
	queued map[string]bool        // items waiting for a run configuration
	drawn  int                    // live mode: lines of the block on screen
	drawAt time.Time
	stop   chan struct{} // live mode: closed to end the redrawing
	ticks  sync.WaitGroup
}

func (a *app) newBatchDisplay(plan *batch.Plan) *batchDisplay {
	d := &batchDisplay{out: a.stderr, errOut: a.stderr, live: isTerminal(a.stderr), clock: clockOf(), status: map[string]batch.Status{},
		events: map[string]batch.Event{}, last: map[string]string{}}
	if a.quiet {
		d.out, d.live = io.Discard, false
	}
	for _, it := range plan.Items {
		d.names = append(d.names, it.Name)
	}
	return d
}

// start takes the statuses an earlier batch left and says what is to do.
func (d *batchDisplay) start(r *batch.Runner) {
	for _, name := range d.names {
		d.status[name] = r.State(name).Status
	}
	fmt.Fprintf(d.out, "Batch of %d items (%s); state file %s\n", len(d.names), d.counts(), r.StatePath())
}

func (d *batchDisplay) event(ev batch.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.status[ev.Item] = ev.Status
	d.queue(ev)
	if ev.Step == batch.StepEnd {
		d.end(ev)
		return
	}
	if !d.live {
		d.plain(ev)
		return
	}
	d.events[ev.Item] = ev
	d.ticking()
	if d.clock.Now().Sub(d.drawAt) >= 100*time.Millisecond {
		d.redraw()
	}
}

// line is an item's line: its step and state, the step's progress where
// it is measured (plain lines show an export's and the rows' pages, not
// their bytes), and the elapsed time of its work where it is known.
func (d *batchDisplay) line(ev batch.Event) string {
	line := strings.TrimSpace(fmt.Sprintf("%s: %s %s", ev.Item, ev.Step, ev.State))
	switch {
	case ev.Measured && d.live:
		line = fmt.Sprintf("%-40s %s %3.0f%%", line, bar(ev.Percent, 20), ev.Percent)
	case ev.Measured && (ev.Step == batch.StepImport || ev.Step == batch.StepRun):
		line += fmt.Sprintf(" %3.0f%%", ev.Percent)
	}
	if !ev.Since.IsZero() {
		line += fmt.Sprintf(" (%s)", max(d.clock.Now().Sub(ev.Since), 0).Round(time.Second))
	}
	return line
}

// plain prints a line when an item's step or state changes, or its
// measured progress has gone 10 points further: an export, and the
// writing of the item's rows, show their pages, not their bytes.
func (d *batchDisplay) plain(ev batch.Event) {
	key := fmt.Sprintf("%s %s", ev.Step, ev.State)
	if ev.Measured && (ev.Step == batch.StepImport || ev.Step == batch.StepRun) {
		key += fmt.Sprint(int(ev.Percent) / 10)
	}
	if d.last[ev.Item] != key {
		d.last[ev.Item] = key
		fmt.Fprintf(d.out, "  %s\n", d.line(ev))
	}
}

// ticking starts, once, the redrawing of the live block every second.
func (d *batchDisplay) ticking() {
	if d.stop != nil {
		return
	}
	d.stop = make(chan struct{})
	d.ticks.Add(1)
	go func(stop <-chan struct{}) {
		defer d.ticks.Done()
		for {
			select {
			case <-stop:
				return
			case <-d.clock.After(tickEvery):
				d.mu.Lock()
				d.redraw()
				d.mu.Unlock()
			}
		}
	}(d.stop)
}

// end prints an item's end for good, and the overall line.
func (d *batchDisplay) end(ev batch.Event) {
	delete(d.events, ev.Item)
	line := fmt.Sprintf("%s: %s", ev.Item, ev.Status)
	if ev.Err != nil && ev.Status != batch.Done {
		line += ": " + ev.Err.Error()
	}
	if d.live {
		d.clear()
		fmt.Fprintln(d.out, line)
		d.redraw()
		return
	}
	fmt.Fprintln(d.out, line)
	fmt.Fprintf(d.out, "batch: %s\n", d.counts())
}

// counts is the overall line: how many items have each status, and how
// many wait for a run configuration.
func (d *batchDisplay) counts() string {
	n := map[batch.Status]int{}
	for _, name := range d.names {
		n[d.status[name]]++
	}
	line := countLine(n, len(d.names))
	if len(d.queued) > 0 {
		line += fmt.Sprintf(" (%d waiting for a run configuration)", len(d.queued))
	}
	return line
}

// queue notes whether an item waits for its run configuration.
func (d *batchDisplay) queue(ev batch.Event) {
	if ev.Step != batch.StepQueue {
		delete(d.queued, ev.Item)
		return
	}
	if d.queued == nil {
		d.queued = map[string]bool{}
	}
	d.queued[ev.Item] = true
}

// notes prints the plan's notes: items whose runs will queue.
func (d *batchDisplay) notes(notes []batch.PlanNote) {
	for _, n := range notes {
		fmt.Fprintf(d.out, "note: %s\n", n)
	}
}

// countLine says how many of total items are done, and how many have each
// other status.
func countLine(n map[batch.Status]int, total int) string {
	parts := []string{fmt.Sprintf("%d/%d done", n[batch.Done], total)}
	for _, s := range []batch.Status{batch.Running, batch.Failed, batch.Unknown, batch.Interrupted, batch.Pending} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	return strings.Join(parts, ", ")
}

// redraw draws the live block again: the items under way, in plan order,
// and the overall line.
func (d *batchDisplay) redraw() {
	d.clear()
	var b strings.Builder
	lines := 0
	for _, name := range d.names {
		if ev, ok := d.events[name]; ok {
			fmt.Fprintf(&b, "  %s\n", d.line(ev))
			lines++
		}
	}
	fmt.Fprintf(&b, "batch: %s\n", d.counts())
	io.WriteString(d.out, b.String())
	d.drawn, d.drawAt = lines+1, d.clock.Now()
}

// clear erases the live block: the cursor goes up to its first line and
// everything below is erased.
func (d *batchDisplay) clear() {
	if d.drawn > 0 {
		fmt.Fprintf(d.out, "\x1b[%dA\x1b[J", d.drawn)
		d.drawn = 0
	}
}

// finish ends the redrawing and leaves the last overall line on a
// terminal.
func (d *batchDisplay) finish() {
	d.mu.Lock()
	stop := d.stop
	d.stop = nil
	d.mu.Unlock()
	if stop != nil {
		close(stop)
		d.ticks.Wait()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.live {
		d.redraw()
	}
}

// boundNotes says where the plan's bounds hold over the flags': a plan's
// maxRunLength or staleWindow is its items' (an item's own holds over it),
// and --max-run-length and --stale-window apply only where the plan
// declares none.
func (d *batchDisplay) boundNotes(plan *batch.Plan, opts batch.Options) {
	for _, b := range []struct {
		key, flag   string
		plan, given time.Duration
	}{{"maxRunLength", "--max-run-length", plan.MaxRunLength, opts.MaxRunLength}, {"staleWindow", "--stale-window", plan.StaleWindow, opts.StaleWindow}} {
		if b.plan != 0 && b.given != 0 && b.plan != b.given {
			fmt.Fprintf(d.errOut, "note: %s declares %s %v, which holds over %s %v\n", plan.File, b.key, b.plan, b.flag, b.given)
		}
	}
}

// bar draws a progress bar of width cells.
func bar(percent float64, width int) string {
	filled := int(min(max(percent, 0), 100) / 100 * float64(width))
	return "[" + strings.Repeat("=", filled) + strings.Repeat(" ", width-filled) + "]"
}
