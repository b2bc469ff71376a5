package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/runshow"
)

// progress shows the progress of a run or job on standard error, apart from
// the command's output: a bar on a terminal, a plain line per change
// otherwise, nothing with --quiet. Where the server reports no progress (a
// real server reports none for runs) it shows the state and the time since
// the wait began, never a percentage.
type progress struct {
	bar      *progressbar.ProgressBar
	terminal bool // draw a bar (or a spinner, without progress) on out
	out      io.Writer
	label    string
	last     string
	elapsed  func() time.Duration
}

func (a *app) newProgress(label string) *progress {
	start := time.Now()
	p := &progress{out: a.stderr, label: label, elapsed: func() time.Duration { return time.Since(start) }}
	switch {
	case a.quiet:
		p.out = io.Discard
	case isTerminal(a.stderr):
		p.terminal = true
	}
	return p
}

// newBar draws a bar on the terminal w. Its last frame stays on screen.
func newBar(w io.Writer, label string) *progressbar.ProgressBar {
	return progressbar.NewOptions(100,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
}

// update shows a state and a percentage; repeated values print nothing.
func (p *progress) update(state string, percent float64) {
	line := fmt.Sprintf("%s: %s %3.0f%%", p.label, state, percent)
	if line == p.last {
		return
	}
	p.last = line
	if p.terminal && p.bar == nil {
		p.bar = newBar(p.out, p.label)
	}
	if p.bar != nil {
		_ = p.bar.Set(int(min(percent, 99))) // 100 finishes the bar: done draws it
		p.bar.Describe(fmt.Sprintf("%s: %-9s", p.label, state))
		return
	}
	fmt.Fprintf(p.out, "  %s\n", line)
}

// updateState shows a state without progress (the server reports none): a
// spinner with the elapsed time on a terminal, a line per change of state
// with the time since the wait began otherwise; repeated states print
// nothing.
func (p *progress) updateState(state string) {
	line := fmt.Sprintf("%s: %s", p.label, state)
	if line == p.last {
		return
	}
	p.last = line
	if p.terminal && p.bar == nil {
		p.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(p.out), progressbar.OptionSetDescription(p.label),
			progressbar.OptionSpinnerType(14), progressbar.OptionSetSpinnerChangeInterval(0), progressbar.OptionSetElapsedTime(true), progressbar.OptionShowElapsedTimeOnFinish())
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s: %-9s", p.label, state))
		_ = p.bar.Add(1)
		return
	}
	fmt.Fprintf(p.out, "  %s (%s)\n", line, p.elapsed().Round(time.Second))
}

// done draws the bar's last frame: at 100% when the work finished, where it
// stopped otherwise.
func (p *progress) done() {
	if p.bar == nil || p.bar.IsFinished() {
		return
	}
	if strings.HasSuffix(p.last, "100%") || p.bar.GetMax() < 0 {
		_ = p.bar.Finish()
		return
	}
	_ = p.bar.Exit()
	fmt.Fprintln(p.out)
}

// showRun shows a run's progress until it ends or the wait fails, on a
// line whose elapsed time moves (liveLine). The states are the server's
// text: shown without secrets, cut.
func (a *app) showRun(ctx context.Context, run *facade.Run, opts *facade.WaitOptions) error {
	l := a.newLiveLine("run")
	defer l.close()
	for s, err := range run.States(ctx, opts) {
		if err != nil {
			return err
		}
		var percent *float64
		if p, ok := runshow.Progress(s); ok {
			percent = &p
		}
		l.show(a.redactor.Quote(runshow.Waiting(s)), percent)
	}
	return nil
}

// showJob shows an import or copy job's progress until it ends or the wait
// fails.
func (a *app) showJob(ctx context.Context, job *facade.Job, opts *facade.WaitOptions) error {
	return follow(a.newProgress("import"), job.States(ctx, opts), func(s *gen.ApiImportScenarioStatus) (string, *float64) {
		return a.redactor.Quote(string(s.Status)), s.Progress
	})
}

// follow feeds each state change to p, and ends the display either way.
func follow[S any](p *progress, states iter.Seq2[S, error], show func(S) (string, *float64)) error {
	defer p.done()
	for st, err := range states {
		if err != nil {
			return err
		}
		state, percent := show(st)
		if percent == nil {
			p.updateState(state)
			continue
		}
		p.update(state, *percent)
	}
	return nil
}

// liveLine shows a run's wait: on a terminal one line, redrawn in place
// every second so that its elapsed time moves ("run: RUNNING 1m23s"), with
// a bar and a percentage only when the server reports progress; otherwise
// a line per change of state with the time since the wait began, and
// nothing with --quiet.
type liveLine struct {
	out      io.Writer
	label    string
	clock    facade.Clock
	start    time.Time
	terminal bool

	mu      sync.Mutex
	state   string
	percent *float64
	last    string // the last line written
	stop    chan struct{}
	ticking sync.WaitGroup
}

// tickEvery is how often a live line is redrawn.
const tickEvery = time.Second

func (a *app) newLiveLine(label string) *liveLine {
	clk := clockOf()
	l := &liveLine{out: a.stderr, label: label, clock: clk, start: clk.Now()}
	switch {
	case a.quiet:
		l.out = io.Discard
	case isTerminal(a.stderr):
		l.terminal = true
	}
	return l
}

// show takes a state and the progress the server reports (nil: none).
func (l *liveLine) show(state string, percent *float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state, l.percent = state, percent
	if !l.terminal {
		line := fmt.Sprintf("%s: %s", l.label, state)
		if percent != nil {
			line += fmt.Sprintf(" %3.0f%%", *percent)
		}
		if line != l.last {
			l.last = line
			fmt.Fprintf(l.out, "  %s (%s)\n", line, l.elapsed())
		}
		return
	}
	l.draw()
	if l.stop == nil {
		l.stop = make(chan struct{})
		l.ticking.Add(1)
		go l.tick(l.stop)
	}
}

// tick redraws the line every tickEvery until stop is closed.
func (l *liveLine) tick(stop <-chan struct{}) {
	defer l.ticking.Done()
	for {
		select {
		case <-stop:
			return
		case <-l.clock.After(tickEvery):
			l.mu.Lock()
			l.draw()
			l.mu.Unlock()
		}
	}
}

// draw writes the line over the last one; the caller holds mu.
func (l *liveLine) draw() {
	line := fmt.Sprintf("%s: %-9s %s", l.label, l.state, l.elapsed())
	if l.percent != nil {
		line = fmt.Sprintf("%s: %-9s %s %3.0f%% %s", l.label, l.state, bar(*l.percent, 20), *l.percent, l.elapsed())
	}
	fmt.Fprintf(l.out, "\r\x1b[K%s", line)
	l.last = line
}

func (l *liveLine) elapsed() time.Duration {
	return l.clock.Now().Sub(l.start).Round(time.Second)
}

// close stops the redrawing and leaves the last line on screen.
func (l *liveLine) close() {
	l.mu.Lock()
	stop := l.stop
	l.stop = nil
	l.mu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	l.ticking.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.draw()
	fmt.Fprintln(l.out)
}
