package doctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Bounds of the run's watch.
const (
	maxPollPause = 10 * time.Second // the longest pause between two polls
	listGrace    = time.Minute      // how long after a success the run may take to be listed
)

// run starts one run of Options.Run and watches it: the status lag, when
// the run is first listed, and how long it took, with the settings run
// identity needs for them.
func (d *doctor) run(ctx context.Context) bool {
	if d.opts.Run == 0 {
		return true
	}
	w, err := d.startWatch(ctx)
	if err == nil {
		err = d.watch(ctx, w)
	}
	if err != nil {
		d.runFailed(err)
		return true
	}
	m := w.m
	m.recommend(d.pollInterval())
	d.rep.Run = &m
	status := OK
	if m.Ended != facade.RunFinished {
		status = Warn
	}
	d.add(CheckRun, status, m.seen(), m.fix())
	return true
}

// startWatch reads what the run is to be told apart from (its scenario's
// runs, the status) and starts it.
func (d *doctor) startWatch(ctx context.Context) (*runWatch, error) {
	rc, err := d.c.Experiments.RunConfiguration(ctx, d.opts.Run)
	if err != nil {
		return nil, err
	}
	if rc.ScenarioId == nil {
		return nil, fmt.Errorf("getExperimentRunConfiguration of rcId %d answered no scenarioId: the run's listing cannot be followed", d.opts.Run)
	}
	w := &runWatch{m: RunMeasurement{RcID: d.opts.Run, Type: rc.Type}, scenario: *rc.ScenarioId}
	if w.known, err = d.runIDs(ctx, w.scenario); err != nil {
		return nil, err
	}
	st, err := d.c.Experiments.Status(ctx, d.opts.Run)
	if err != nil {
		return nil, err
	}
	w.m.Before = facade.RunStateValue(st)
	w.start = d.clk.Now()
	if _, err := d.c.Experiments.Start(ctx, d.opts.Run, nil); err != nil {
		return nil, err
	}
	return w, nil
}

// watch polls the status, and the scenario's runs until the run is
// listed, until the run has ended and been listed (a VARIATION's never
// is), within Options.MaxRunWait.
func (d *doctor) watch(ctx context.Context, w *runWatch) error {
	maxWait := cmp.Or(d.opts.MaxRunWait, DefaultMaxRunWait)
	for !w.done() {
		at := d.clk.Now().Sub(w.start)
		if at > maxWait {
			return fmt.Errorf("rcId %d did not end within %v of its start (Options.MaxRunWait): %s", w.m.RcID, maxWait, w.progress())
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("rcId %d: %w after %v: %s", w.m.RcID, ctx.Err(), at.Round(time.Millisecond), w.progress())
		case <-d.clk.After(d.pause(at)):
		}
		if err := d.observe(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// observe reads the status and, until the run is listed, the runs.
func (d *doctor) observe(ctx context.Context, w *runWatch) error {
	st, err := d.c.Experiments.Status(ctx, w.m.RcID)
	if err != nil {
		return err
	}
	newRun := false
	if w.m.Type != gen.ExperimentTypeVARIATION && !w.m.Listed {
		listed, err := d.runIDs(ctx, w.scenario)
		if err != nil {
			return err
		}
		newRun = slices.ContainsFunc(listed, func(id ids.RunID) bool { return !slices.Contains(w.known, id) })
	}
	w.see(d.clk.Now().Sub(w.start), facade.RunStateValue(st), newRun)
	return nil
}

func (d *doctor) runIDs(ctx context.Context, scenario ids.ScenarioID) ([]ids.RunID, error) {
	runs, err := d.c.Experiments.Runs(ctx, scenario)
	out := make([]ids.RunID, len(runs))
	for i, r := range runs {
		out[i] = r.Id
	}
	return out, err
}

// pause is the pause before the next poll, at since the start: the poll
// interval, or a twentieth of the run's age once that is longer (up to
// maxPollPause), in whole intervals.
func (d *doctor) pause(at time.Duration) time.Duration {
	every := d.pollInterval()
	return max(every, min(at/20, maxPollPause).Truncate(every))
}

func (d *doctor) pollInterval() time.Duration {
	return cmp.Or(d.opts.PollInterval, DefaultPollInterval)
}

// runFailed reports a run that could not be started or followed.
func (d *doctor) runFailed(err error) {
	seen, hint := errorText(err)
	fix := cmp.Or(hint, "see the server's message")
	if errors.Is(err, facade.ErrForbidden) {
		fix = fmt.Sprintf("the user may hold no license that runs experiments: take one with %s; or rcId %d is not the user's", d.names.RequestLicense, d.opts.Run)
	}
	d.add(CheckRun, Fail, seen, fix)
}

// runWatch is the run being watched.
type runWatch struct {
	m        RunMeasurement
	scenario ids.ScenarioID
	known    []ids.RunID // the scenario's runs listed before the start
	start    time.Time   // just before runExperiment was sent

	moved    bool          // the status showed something other than before the start
	underWay bool          // ... and a run under way after that
	endedAt  time.Duration // when the run's own end was first seen, 0 before
	last     time.Duration // when the last poll read
}

// see takes in one poll's answers, read at since the start.
func (w *runWatch) see(at time.Duration, state facade.RunState, newRun bool) {
	ended := isEnd(state)
	if !w.moved && state != w.m.Before {
		w.moved = true
		if isEnd(w.m.Before) {
			w.m.LagSeen, w.m.StatusLag = true, at
		}
	}
	if w.moved && !ended {
		w.underWay = true
	}
	if newRun && !w.m.Listed {
		w.m.Listed, w.m.ListedAfter = true, at
	}
	if ended && w.endedAt == 0 && (w.underWay || w.m.Listed || w.moved) {
		w.endedAt, w.m.Ended, w.m.Length = at, state, at
	}
	w.last = at
}

// done reports whether the run has ended and, when it succeeded, been
// listed (or cannot be: VARIATION), or has stayed unlisted past
// listGrace.
func (w *runWatch) done() bool {
	switch {
	case w.endedAt == 0:
		return false
	case w.m.Listed, w.m.Ended != facade.RunFinished, w.m.Type == gen.ExperimentTypeVARIATION:
		return true
	}
	return w.last-w.endedAt > listGrace
}

// progress says how far a watch that stopped got.
func (w *runWatch) progress() string {
	switch {
	case w.endedAt > 0:
		return fmt.Sprintf("it ended %s after the start and was not listed", w.endedAt)
	case w.underWay:
		return "it was seen under way"
	case w.moved:
		return "the status changed"
	}
	return fmt.Sprintf("the status still showed %s, as before the start", w.m.Before)
}

// isEnd reports a state of an ended run.
func isEnd(s facade.RunState) bool {
	return s == facade.RunFinished || s == facade.RunFailed || s == facade.RunStopped
}
