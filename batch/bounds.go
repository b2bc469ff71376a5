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

// checkBound checks a declared bound: not negative, and at most limit.
// field names it in the error ("Options.MaxRunLength").
func checkBound(field string, d, limit time.Duration) error {
	switch {
	case d < 0:
		return fmt.Errorf("%s is %v: a bound must not be negative", field, d)
	case d > limit:
		return fmt.Errorf("%s is %v, more than the %v a bound may be", field, d, limit)
	}
	return nil
}

// checkBounds checks the bounds of Options.
func (o *Options) checkBounds() error {
	if err := checkBound("batch: Options.MaxRunLength", o.MaxRunLength, MaxRunLengthBound); err != nil {
		return err
	}
	return checkBound("batch: Options.StaleWindow", o.StaleWindow, StaleWindowBound)
}

// waitOptions are the item's waits' options: the batch's poll policy and
// stop on cancel, and the bounds of the item, else of its plan (ReadPlan
// gives an item its plan's), else of Options.
func (w *worker) waitOptions() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: w.r.opts.Poll, StopOnCancel: w.r.opts.StopOnCancel,
		MaxRunLength: cmp.Or(w.it.MaxRunLength, w.r.plan.MaxRunLength, w.r.opts.MaxRunLength),
		StaleWindow:  cmp.Or(w.it.StaleWindow, w.r.plan.StaleWindow, w.r.opts.StaleWindow)}
}
