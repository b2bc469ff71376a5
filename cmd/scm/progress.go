package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/schollz/progressbar/v3"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/runshow"
)

// progress shows the progress of a run or job on standard error, apart from
// the command's output: a bar on a terminal, a plain line per change
// otherwise, nothing with --quiet.
type progress struct {
	bar   *progressbar.ProgressBar
	out   io.Writer
	label string
	last  string
}

func (a *app) newProgress(label string) *progress {
	p := &progress{out: a.stderr, label: label}
	switch {
	case a.quiet:
		p.out = io.Discard
	case isTerminal(a.stderr):
		p.bar = newBar(a.stderr, label)
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
	if p.bar != nil {
		_ = p.bar.Set(int(min(percent, 99))) // 100 finishes the bar: done draws it
		p.bar.Describe(fmt.Sprintf("%s: %-9s", p.label, state))
		return
	}
	fmt.Fprintf(p.out, "  %s\n", line)
}

// done draws the bar's last frame: at 100% when the work finished, where it
// stopped otherwise.
func (p *progress) done() {
	if p.bar == nil || p.bar.IsFinished() {
		return
	}
	if strings.HasSuffix(p.last, "100%") {
		_ = p.bar.Finish()
		return
	}
	_ = p.bar.Exit()
	fmt.Fprintln(p.out)
}

// showRun shows a run's progress until it ends or the wait fails.
func (a *app) showRun(ctx context.Context, run *facade.Run, opts *facade.WaitOptions) error {
	return follow(a.newProgress("run"), run.States(ctx, opts), func(s *gen.ExecutionState) (string, *float64) {
		return runshow.Waiting(s), nil
	})
}

// showJob shows an import or copy job's progress until it ends or the wait
// fails.
func (a *app) showJob(ctx context.Context, job *facade.Job, opts *facade.WaitOptions) error {
	return follow(a.newProgress("import"), job.States(ctx, opts), func(s *gen.ApiImportScenarioStatus) (string, *float64) {
		return string(s.Status), s.Progress
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
		p.update(state, deref(percent))
	}
	return nil
}
