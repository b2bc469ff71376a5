package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/runshow"
	"github.com/scmodel/scmgo/internal/textcut"
)

// maxShownText bounds the server's text scm status shows.
const maxShownText = 200

// runClock is the clock of scm run's and scm batch's clients, their waits
// and their displays: nil, the system's. The tests put it and the fake on
// one virtual clock.
var runClock clock.Clock

// clockOf is runClock, the system's when nil.
func clockOf() clock.Clock {
	if runClock == nil {
		return clock.Real{}
	}
	return runClock
}

// runOptions are the client options of the commands that start and wait
// for runs: runClock, when the tests set one.
func runOptions() []facade.Option {
	if runClock == nil {
		return nil
	}
	return []facade.Option{facade.WithClock(runClock)}
}

// maxProjectsScanned bounds the projects scm reads to find a running
// configuration's project.
const maxProjectsScanned = 100

// startOptions are what the facade needs to tell whether rcID has a run
// under way: its scenario and type (getExperimentRunConfiguration) and,
// when the scenario lists a run of the type, its project, found among the
// user's projects (getProjects, getExperiments): without it, a status
// that shows finished false after an end cannot be told from a
// configuration that never ran.
func startOptions(ctx context.Context, c *facade.Client, rcID ids.RcID) (*facade.StartOptions, error) {
	rc, err := c.Experiments.RunConfiguration(ctx, rcID)
	if err != nil {
		return nil, err
	}
	opts := &facade.StartOptions{ScenarioID: deref(rc.ScenarioId), Type: rc.Type}
	if opts.ScenarioID == 0 {
		return nil, nil // the facade reads it again, and says what is missing
	}
	opts.ProjectID, err = projectOf(ctx, c, opts.ScenarioID, rcID)
	return opts, err
}

// projectOf is the project of the scenario that holds rcID, 0 when none
// of the first maxProjectsScanned projects lists it there.
func projectOf(ctx context.Context, c *facade.Client, scenarioID ids.ScenarioID, rcID ids.RcID) (ids.ProjectID, error) {
	projects, err := c.Projects.List(ctx)
	if err != nil {
		return 0, err
	}
	for _, p := range projects[:min(len(projects), maxProjectsScanned)] {
		list, err := c.Experiments.List(ctx, p.Id, scenarioID)
		switch {
		case ctx.Err() != nil:
			return 0, ctx.Err()
		case err != nil:
			continue // not this project's scenario
		}
		if slices.ContainsFunc(list, func(rc gen.ApiBasicRunConfiguration) bool { return rc.Id == rcID }) {
			return p.Id, nil
		}
	}
	return 0, nil
}

// readStatus reads whether rcID has a run under way, by the rule the
// SDK's waits follow (facade.ExperimentsService.Activity): running (with
// the progress the server reports, if any); idle, with the last run's
// end; or unknown, when the server shows a configuration that never ran
// and one whose first run is under way alike.
func (a *app) readStatus(ctx context.Context, rcID ids.RcID) (runStatus, error) {
	c, err := a.client(runOptions()...)
	if err != nil {
		return runStatus{}, err
	}
	opts, err := startOptions(ctx, c, rcID)
	if err != nil && !errors.Is(err, facade.ErrNotFound) {
		return runStatus{}, err
	}
	activity, st, err := c.Experiments.Activity(ctx, rcID, opts)
	if err != nil {
		return runStatus{}, err
	}
	return runStatus{RcID: rcID, Activity: activityName(activity), Line: c.Redact(activityLine(activity, st)),
		State: string(facade.RunStateValue(st)), ExecutionState: st}, nil
}

// activityName is an activity as scm status's json and csv name it.
func activityName(activity facade.Activity) string {
	switch activity {
	case facade.ActivityUnderWay:
		return "running"
	case facade.ActivityIdle:
		return "idle"
	}
	return "unknown"
}

// activityLine says what scm status shows of an activity and its status.
func activityLine(activity facade.Activity, st *gen.ExecutionState) string {
	switch activity {
	case facade.ActivityUnderWay:
		if p, ok := runshow.Progress(st); ok {
			return fmt.Sprintf("running, %.0f%%", p)
		}
		return "running"
	case facade.ActivityIdle:
		end := string(facade.RunStateValue(st))
		if st.Text != nil && *st.Text != "" && facade.RunStateValue(st) != facade.RunFinished {
			end += ": " + textcut.Cut(*st.Text, maxShownText)
		}
		return fmt.Sprintf("idle (last run %s)", end)
	}
	return "unknown: never run, or its first run under way (a server shows both alike)"
}
