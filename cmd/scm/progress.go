package main

import (
	"fmt"
	"io"

	"github.com/schollz/progressbar/v3"
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
		p.bar = progressbar.NewOptions(100,
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription(label),
			progressbar.OptionSetWidth(30),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// update shows a state and a percentage; repeated values print nothing.
func (p *progress) update(state string, percent float64) {
	line := fmt.Sprintf("%s: %s %3.0f%%", p.label, state, percent)
	if line == p.last {
		return
	}
	p.last = line
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s: %-9s", p.label, state))
		_ = p.bar.Set(int(percent))
		return
	}
	fmt.Fprintf(p.out, "  %s\n", line)
}

func (p *progress) done() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
