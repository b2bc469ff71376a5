package batch

import (
	"cmp"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// The largest bounds a plan, an item or [Options] may declare: a run
// length past a month, or a status lag past an hour, is no bound a person
// means, and a lost start would wait that long before it is settled.
const (
	MaxRunLengthBound = 30 * 24 * time.Hour
	StaleWindowBound  = time.Hour
)

// boundProblem says what is wrong with a declared bound, "" when nothing
// is: it must not be negative, nor more than limit.
func boundProblem(d, limit time.Duration) string {
	switch {
	case d < 0:
		return fmt.Sprintf("%v: a bound must not be negative", d)
	case d > limit:
		return fmt.Sprintf("%v is more than the %v a bound may be", d, limit)
	}
	return ""
}

// checkBounds checks the bounds of Options.
func (o *Options) checkBounds() error {
	if p := boundProblem(o.MaxRunLength, MaxRunLengthBound); p != "" {
		return fmt.Errorf("batch: Options.MaxRunLength %s (batch.MaxRunLengthBound)", p)
	}
	if p := boundProblem(o.StaleWindow, StaleWindowBound); p != "" {
		return fmt.Errorf("batch: Options.StaleWindow %s (batch.StaleWindowBound)", p)
	}
	return nil
}

// waitOptions are the item's waits' options: the batch's poll policy and
// stop on cancel, and the bounds of the item, else of its plan (ReadPlan
// gives an item its plan's), else of Options.
func (w *worker) waitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: w.r.opts.Poll, StopOnCancel: w.r.opts.StopOnCancel,
		MaxRunLength: cmp.Or(w.it.MaxRunLength, w.r.plan.MaxRunLength, w.r.opts.MaxRunLength),
		StaleWindow:  cmp.Or(w.it.StaleWindow, w.r.plan.StaleWindow, w.r.opts.StaleWindow)}
}
