package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// maxScenariosSearched bounds the search for the run a result came from:
// the runs of at most this many scenarios are read.
const maxScenariosSearched = 500

// hintFirst is a failure whose cause is clearer than what the server
// said of it: the hint, then the server's answer.
type hintFirst struct {
	hint string
	err  error
}

func (e hintFirst) Error() string {
	answer := strings.ReplaceAll(strings.TrimPrefix(e.err.Error(), "facade: "), ": facade: ", ": ")
	return e.hint + "; the server answered: " + answer
}
func (e hintFirst) Unwrap() error { return e.err }

// resultIDHint explains the failure of a command given an
// experimentResultId when the id is not one: the rcId of a running
// configuration (scm run and scm experiments show those), whose latest
// result it names, or, when the server's message says "run" is null (a
// real server's answer for an id that names no run's result), what to
// use. The hint comes first, the server's answer after it. Other
// failures, and ids it cannot place, are returned as they are.
func (a *app) resultIDHint(ctx context.Context, c *facade.Client, id ids.ExperimentResultID, err error) error {
	var apiErr *facade.APIError
	if err == nil || !errors.As(err, &apiErr) || ctx.Err() != nil {
		return err
	}
	if like := a.rcIDLike(ctx, c, id); like != "" {
		return usageError{hintFirst{hint: like, err: err}}
	}
	if strings.Contains(apiErr.Message, `"run" is null`) {
		return hintFirst{hint: fmt.Sprintf("%d names no run's result: an experimentResultId is what scm run --wait or --sync prints (an rcId, which scm experiments lists, is no result id)", id), err: err}
	}
	return err
}

// rcIDRefusal refuses an id given as an experimentResultId that is the
// rcId of a running configuration (a server lists dashboard pages for
// one, of no result): a usage error whose text says what to give; nil
// when it is no rcId, or that cannot be told.
func (a *app) rcIDRefusal(ctx context.Context, c *facade.Client, id ids.ExperimentResultID) error {
	if like := a.rcIDLike(ctx, c, id); like != "" {
		return usageError{errors.New(like)}
	}
	return nil
}

// rcIDLike says, of an id given as an experimentResultId that is the rcId
// of a running configuration, which kind it is and the result id to use;
// "" when it is no rcId (or that cannot be told).
func (a *app) rcIDLike(ctx context.Context, c *facade.Client, id ids.ExperimentResultID) string {
	latest, err := c.Experiments.LatestRun(ctx, ids.RcID(id))
	switch {
	case err != nil:
		return ""
	case latest != nil:
		return fmt.Sprintf("%d is an rcId (a run configuration's id), not an experimentResultId: its latest result is %d (scm results pages %d lists its pages)",
			id, latest.RcId, latest.RcId)
	}
	return fmt.Sprintf("%d is an rcId (a run configuration's id), not an experimentResultId, and it has no listed run: scm run %d --wait prints the result id of a run", id, id)
}

// rcIDHintOf is rcIDHint with a client of its own: nil for no error.
func (a *app) rcIDHintOf(ctx context.Context, id ids.RcID, err error) error {
	var apiErr *facade.APIError
	if err == nil || !errors.As(err, &apiErr) || ctx.Err() != nil {
		return err
	}
	c, cerr := a.client()
	if cerr != nil {
		return err
	}
	return a.rcIDHint(ctx, c, id, err)
}

// rcIDHint explains the failure of a command given an rcId when the id is
// an experimentResultId: the hint first (with the rcId of the run it came
// from, when the search finds it), then the server's answer. Other
// failures are returned as they are.
func (a *app) rcIDHint(ctx context.Context, c *facade.Client, id ids.RcID, err error) error {
	var apiErr *facade.APIError
	if err == nil || !errors.As(err, &apiErr) || ctx.Err() != nil {
		return err
	}
	if _, lerr := c.Experiments.LatestRun(ctx, id); lerr == nil {
		return err // it is a running configuration: the failure is another
	}
	if _, perr := c.Dashboards.Pages(ctx, ids.ExperimentResultID(id)); perr != nil {
		return err // no result either
	}
	hint := fmt.Sprintf("%d is an experimentResultId (a run's result), not an rcId", id)
	if run, ferr := findResultRun(ctx, c, ids.ExperimentResultID(id), 100); ferr == nil {
		hint += fmt.Sprintf(": the result of a run of rcId %d (scm run %d starts another)", run.rcID, run.rcID)
	} else {
		hint += fmt.Sprintf(": scm results pages %d lists its pages; scm experiments SCENARIO --project PROJECT lists rcIds", id)
	}
	return usageError{hintFirst{hint: hint, err: err}}
}

// resultRun is the run a result came from, as the runs of its scenario
// list it (ApiBasicRun.rcId is the experimentResultId of its result),
// with the run configuration of its type and that configuration's latest
// result.
type resultRun struct {
	project ids.ProjectID
	run     gen.ApiBasicRun
	rcID    ids.RcID
	latest  ids.ExperimentResultID
}

// errResultRunNotFound is the end of a search for the run of a result
// that no scenario lists.
var errResultRunNotFound = errors.New("no scenario lists the run")

// findResultRun finds the run whose result is resultID among the runs of
// every scenario of every project, reading those of at most maxScenarios
// scenarios, and the run configuration of its type in its scenario.
func findResultRun(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, maxScenarios int) (*resultRun, error) {
	found, err := searchRuns(ctx, c, resultID, maxScenarios)
	if err != nil {
		return nil, err
	}
	list, err := c.Experiments.List(ctx, found.project, found.run.ScenarioId)
	if err != nil {
		return nil, fmt.Errorf("reading the run configurations of scenario %d, whose run made result %d: %w", found.run.ScenarioId, resultID, err)
	}
	for _, rc := range list {
		if rc.Type == found.run.Type {
			found.rcID = rc.Id
			return found, nil
		}
	}
	return nil, fmt.Errorf("result %d is of a %s run of scenario %d, which lists no %s run configuration", resultID, found.run.Type, found.run.ScenarioId, found.run.Type)
}

// searchRuns finds the run of resultID and the latest result of its type
// in its scenario.
func searchRuns(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, maxScenarios int) (*resultRun, error) {
	projects, err := c.Projects.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the run of result %d: %w", resultID, err)
	}
	searched := 0
	for _, p := range projects {
		scenarios, err := c.Scenarios.List(ctx, p.Id)
		if err != nil {
			return nil, fmt.Errorf("finding the run of result %d: %w", resultID, err)
		}
		for _, s := range scenarios {
			if searched++; searched > maxScenarios {
				return nil, fmt.Errorf("result %d: its run is not among the runs of the first %d scenarios, as far as the search goes", resultID, maxScenarios)
			}
			runs, err := c.Experiments.Runs(ctx, s.Id)
			if err != nil {
				return nil, fmt.Errorf("finding the run of result %d: %w", resultID, err)
			}
			if found := runOf(runs, resultID); found != nil {
				found.project = p.Id
				return found, nil
			}
		}
	}
	return nil, fmt.Errorf("result %d: %w whose result it is (a VARIATION run is never listed): scm results export %d reads its rows", resultID, errResultRunNotFound, resultID)
}

// runOf finds the run of resultID among a scenario's runs, and the
// latest result of its type there.
func runOf(runs []gen.ApiBasicRun, resultID ids.ExperimentResultID) *resultRun {
	for _, r := range runs {
		if r.RcId != resultID {
			continue
		}
		found := &resultRun{run: r, latest: r.RcId}
		newest := r.Id
		for _, other := range runs {
			if other.Type == r.Type && other.ScenarioId == r.ScenarioId && other.Id > newest {
				newest, found.latest = other.Id, other.RcId
			}
		}
		return found
	}
	return nil
}
