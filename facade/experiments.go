package facade

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ExperimentsService reads experiment definitions, edits run
// configurations, starts and stops runs and reads validation findings.
type ExperimentsService struct{ service }

// List lists the experiment definitions of a scenario.
//
//scm:operation getExperiments
func (s *ExperimentsService) List(ctx context.Context, projectID ids.ProjectID, scenarioID ids.ScenarioID) ([]gen.ApiBasicRunConfiguration, error) {
	if err := check(gen.OpGetExperiments).project(projectID).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentsParams{ProjectId: projectID, ScenarioId: scenarioID}
	return callList[gen.ApiBasicRunConfiguration](ctx, s.c, newCall(gen.OpGetExperiments, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentsRequest(srv, params)
	}))
}

// Get returns the experiment of the given type of a scenario.
//
//scm:operation getExperiment
func (s *ExperimentsService) Get(ctx context.Context, scenarioID ids.ScenarioID, experimentType gen.ExperimentType) (*gen.ApiARunConfigurationWrapper, error) {
	if err := check(gen.OpGetExperiment).scenario(scenarioID).experimentType("experimentType", experimentType).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentParams{ExperimentType: experimentType, ScenarioId: scenarioID}
	return callPtr[gen.ApiARunConfigurationWrapper](ctx, s.c, newCall(gen.OpGetExperiment, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRequest(srv, params)
	}))
}

func (s *ExperimentsService) optionsSource(req gen.ApiOptionRequest) pageSource[gen.ApiIdNameObject, *gen.ApiOptionList] {
	return pager(s.c, gen.OpGetExperimentOptions, func(skip, take int32) call {
		params := &gen.GetExperimentOptionsParams{Skip: skip, Take: take}
		return newCall(gen.OpGetExperimentOptions, func(srv string) (*http.Request, error) {
			return gen.NewGetExperimentOptionsRequest(srv, params, req)
		}).withBody(req)
	}, gen.GetExperimentOptionsPageItems)
}

// Options yields the possible values of an experiment option, page by
// page as needed. opts may be nil.
//
//scm:operation getExperimentOptions
func (s *ExperimentsService) Options(ctx context.Context, req gen.ApiOptionRequest, opts *PageOptions) iter.Seq2[gen.ApiIdNameObject, error] {
	return itemsSeq(ctx, s.optionsSource(req), opts)
}

// OptionBatches yields the whole pages behind [ExperimentsService.Options].
//
//scm:pages getExperimentOptions
func (s *ExperimentsService) OptionBatches(ctx context.Context, req gen.ApiOptionRequest, opts *PageOptions) iter.Seq2[*gen.ApiOptionList, error] {
	return pagesSeq(ctx, s.optionsSource(req), opts)
}

// Find returns the rcId of a scenario's experiment of a type
// (getExperiments); name picks one when the scenario has several of the
// type, and may be empty otherwise.
//
//scm:helper
func (s *ExperimentsService) Find(ctx context.Context, projectID ids.ProjectID, scenarioID ids.ScenarioID, typ gen.ExperimentType, name string) (ids.RcID, error) {
	list, err := s.List(ctx, projectID, scenarioID)
	if err != nil {
		return 0, err
	}
	var found []gen.ApiBasicRunConfiguration
	for _, e := range list {
		if e.Type == typ && (name == "" || e.Name == name) {
			found = append(found, e)
		}
	}
	switch {
	case len(found) == 1:
		return found[0].Id, nil
	case len(found) == 0 && name != "":
		return 0, fmt.Errorf("facade: scenario %d has no %s experiment named %q", scenarioID, typ, name)
	case len(found) == 0:
		return 0, fmt.Errorf("facade: scenario %d has no %s experiment", scenarioID, typ)
	}
	return 0, fmt.Errorf("facade: scenario %d has %d %s experiments: name one", scenarioID, len(found), typ)
}

// RunConfiguration returns a running configuration with its settings.
//
//scm:operation getExperimentRunConfiguration
func (s *ExperimentsService) RunConfiguration(ctx context.Context, rcID ids.RcID) (*gen.ApiARunConfigurationWrapper, error) {
	if err := check(gen.OpGetExperimentRunConfiguration).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiARunConfigurationWrapper](ctx, s.c, newCall(gen.OpGetExperimentRunConfiguration, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunConfigurationRequest(srv, &gen.GetExperimentRunConfigurationParams{RcId: rcID})
	}))
}

// UpdateRunConfiguration stores changed settings of a running
// configuration and returns what the server kept.
//
//scm:operation updateExperimentRunConfiguration
func (s *ExperimentsService) UpdateRunConfiguration(ctx context.Context, rcID ids.RcID, cfg gen.ApiARunConfigurationWrapper) (*gen.ApiARunConfigurationWrapper, error) {
	err := check(gen.OpUpdateExperimentRunConfiguration).rc(rcID).experimentType("type", cfg.Type).
		ok("id", cfg.Id == 0 || cfg.Id == rcID, "the configuration's id %d differs from rcId %d", cfg.Id, rcID).done()
	if err != nil {
		return nil, err
	}
	params := &gen.UpdateExperimentRunConfigurationParams{RcId: rcID}
	return callPtr[gen.ApiARunConfigurationWrapper](ctx, s.c, newCall(gen.OpUpdateExperimentRunConfiguration, func(srv string) (*http.Request, error) {
		return gen.NewUpdateExperimentRunConfigurationRequest(srv, params, cfg)
	}).withBody(cfg))
}

// StartOptions are the optional inputs of [ExperimentsService.Start].
type StartOptions struct {
	// SkipScenarioWarnings starts the run even when the scenario has
	// validation warnings (skipScenarioWarnings).
	SkipScenarioWarnings bool
	// ScenarioID and Type are the running configuration's scenario and
	// experiment type, when the caller knows them; else Start reads them
	// (getExperimentRunConfiguration).
	ScenarioID ids.ScenarioID
	Type       gen.ExperimentType
	// ProjectID is the scenario's project, when the caller knows it: with
	// it, a status that shows no end can still be told to be a run under
	// way (see [ExperimentsService.Activity]). Zero: not known.
	ProjectID ids.ProjectID
}

// Start starts a run of a running configuration and returns it; wait for
// it with [Run.Wait] and find its result with [Run.ResultID]. Before the
// start it notes what tells the new run from earlier ones
// ([ExperimentsService.Prepare]): when those reads fail, or show a run
// under way ([ErrRunUnderWay]), nothing is started. Once runExperiment was
// sent the Run is returned, also with an error: when it matches
// [ErrMayHaveBeenApplied] (the answer was lost), [ExperimentsService.Began] says whether
// the start took effect. A start the server refused because a run is under
// way returns an error matching [ErrRunUnderWay] and no Run. See also
// [Client.RunAndWait]. opts may be nil.
//
//scm:operation runExperiment
func (s *ExperimentsService) Start(ctx context.Context, rcID ids.RcID, opts *StartOptions) (*Run, error) {
	run, err := s.Prepare(ctx, rcID, opts)
	if err != nil {
		return nil, err
	}
	if err := s.StartPrepared(ctx, run, opts); errors.Is(err, ErrRunUnderWay) {
		return nil, err
	} else if err != nil {
		return run, err
	}
	return run, nil
}

// StartPrepared sends the start of a run that [ExperimentsService.Prepare]
// returned (runExperiment), once: a second call on the same Run is refused
// without sending anything, whatever became of the first (an answer lost,
// a send cut by the context: settle it with [ExperimentsService.Began]). The start's time
// moves to the send. Its answer is the Run's [RunEvidence].StartAnswer. A start the
// server refuses because a run of the configuration is under way fails
// matching [ErrRunUnderWay], and the Run's waits then fail with that
// refusal. opts may be nil; only its SkipScenarioWarnings is read.
//
//scm:helper
func (s *ExperimentsService) StartPrepared(ctx context.Context, run *Run, opts *StartOptions) error {
	if run == nil || run.origin() == nil {
		return &ValidationError{Operation: string(gen.OpRunExperiment), Field: "run", Reason: "must be a Run that ExperimentsService.Prepare returned"}
	}
	o := run.origin()
	if err := check(gen.OpRunExperiment).rc(o.RcID).scenario(o.ScenarioID).done(); err != nil {
		return err
	}
	now := s.c.now()
	run.mu.Lock()
	sent := run.sent
	run.sent = true
	if !sent {
		run.ev.origin.Started = now // the start is the send: its token, Began's window and what to check name it
	}
	run.mu.Unlock()
	run.t.setBegan(now)
	if sent {
		return &ValidationError{Operation: string(gen.OpRunExperiment), Field: "run", Reason: fmt.Sprintf("the start of rcId %d was sent already: settle it with ExperimentsService.Began, never by starting again", o.RcID)}
	}
	params := &gen.RunExperimentParams{RcId: o.RcID}
	if opts != nil {
		params.SkipScenarioWarnings = optBool(opts.SkipScenarioWarnings)
	}
	started, err := callPtr[gen.ApiRunExperiment](ctx, s.c, newCall(gen.OpRunExperiment, func(srv string) (*http.Request, error) {
		return gen.NewRunExperimentRequest(srv, params)
	}))
	if errors.Is(err, ErrRunUnderWay) {
		run.mu.Lock()
		run.refused = err
		run.mu.Unlock()
	}
	if err != nil {
		return err
	}
	run.mu.Lock()
	run.answer = started
	run.mu.Unlock()
	return nil
}

// RunSync runs a running configuration and returns when the run is done,
// with the experimentResultId of its result: the input of
// [DashboardsService.Pages] and [DashboardsService.ExportPage]. The
// server holds the call open for the whole run (x-held-open): the answer is
// awaited as long as ctx allows, whatever the attempt timeout (which still
// bounds connecting and sending), and TCP keep-alive finds a dead
// connection.
//
// A run that could not start (validationStatus HAS_ERRORS, or any value but
// OK, compared ignoring case) returns a [*StateError] carrying every
// validation message with its source (its Error names the first groups of
// repeats; a real server answered over 300, mostly repeats), and no answer: the real server then
// puts the rcId itself where the experimentResultId belongs, and that is
// no result. An answer without validationStatus or experimentResultId is a
// [*MalformedError].
//
//scm:operation runExperimentSynchronously
func (s *ExperimentsService) RunSync(ctx context.Context, rcID ids.RcID) (*gen.ApiExperimentResult, error) {
	if err := check(gen.OpRunExperimentSynchronously).rc(rcID).done(); err != nil {
		return nil, err
	}
	out, err := callPtr[gen.ApiExperimentResult](ctx, s.c, newCall(gen.OpRunExperimentSynchronously, func(srv string) (*http.Request, error) {
		return gen.NewRunExperimentSynchronouslyRequest(srv, &gen.RunExperimentSynchronouslyParams{RcId: rcID})
	}))
	if err != nil {
		return nil, err
	}
	if err := syncRunError(rcID, out); err != nil {
		return nil, s.c.listed(err)
	}
	return out, nil
}

// syncRunError is the error of a synchronous run that gave no result, nil
// for one that did.
func syncRunError(rcID ids.RcID, out *gen.ApiExperimentResult) error {
	missing := func(field string) error {
		return &MalformedError{Operation: string(gen.OpRunExperimentSynchronously), Model: "ApiExperimentResult", Field: field, Has: presentFields(out)}
	}
	switch status := string(out.ValidationStatus); {
	case status == "":
		return missing("validationStatus")
	case !strings.EqualFold(status, string(gen.ApiExperimentResultValidationStatusOK)):
		return &StateError{Kind: "run", ID: int64(rcID), State: "validation " + status, Outcome: Failed,
			Message: "the run could not start", Details: validationDetails(out.ValidationErrors), Validation: deref(out.ValidationErrors)}
	}
	return badID(string(gen.OpRunExperimentSynchronously), "ApiExperimentResult", "experimentResultId", out.ExperimentResultId, false, presentFields(out))
}

// validationDetails is each validation error as its message followed by
// its source.
func validationDetails(errs *[]gen.ApiValidationError) []string {
	var details []string
	for _, v := range deref(errs) {
		d := v.Message
		if len(v.Source) > 0 {
			d += " (" + strings.Join(v.Source, ", ") + ")"
		}
		details = append(details, d)
	}
	return details
}

// Stop asks the server to stop the run of a running configuration.
//
//scm:operation stopExperiment
func (s *ExperimentsService) Stop(ctx context.Context, rcID ids.RcID) (*gen.ExecutionState, error) {
	if err := check(gen.OpStopExperiment).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ExecutionState](ctx, s.c, newCall(gen.OpStopExperiment, func(srv string) (*http.Request, error) {
		return gen.NewStopExperimentRequest(srv, &gen.StopExperimentParams{RcId: rcID})
	}))
}

// Status returns the execution state of a running configuration. A [Run]
// polls this for you.
//
//scm:operation getExperimentStatus
func (s *ExperimentsService) Status(ctx context.Context, rcID ids.RcID) (*gen.ExecutionState, error) {
	if err := check(gen.OpGetExperimentStatus).rc(rcID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ExecutionState](ctx, s.c, newCall(gen.OpGetExperimentStatus, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentStatusRequest(srv, &gen.GetExperimentStatusParams{RcId: rcID})
	}))
}

// Runs lists the runs of a scenario's experiments.
//
//scm:operation getExperimentRunsForScenario
func (s *ExperimentsService) Runs(ctx context.Context, scenarioID ids.ScenarioID) ([]gen.ApiBasicRun, error) {
	if err := check(gen.OpGetExperimentRunsForScenario).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiBasicRun](ctx, s.c, newCall(gen.OpGetExperimentRunsForScenario, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentRunsForScenarioRequest(srv, &gen.GetExperimentRunsForScenarioParams{ScenarioId: scenarioID})
	}))
}

// LatestRun returns the newest run of a running configuration's type
// among the runs its scenario lists ([ExperimentsService.Runs]), nil when
// none is listed: its rcId is the experimentResultId of its result, and
// its id the runId of the convert operations. It reads the configuration
// for its scenario and type first. Use it for a result of earlier runs:
// right after a start it is still the last run's (a server lists a run once
// it has finished), and it is never a VARIATION run's, which are not
// listed; [Run.ResultID] finds the result of a run you started.
//
//scm:helper
func (s *ExperimentsService) LatestRun(ctx context.Context, rcID ids.RcID) (*gen.ApiBasicRun, error) {
	o := &origin{RcID: rcID}
	if err := s.fillFromConfiguration(ctx, o); err != nil {
		return nil, err
	}
	runs, err := s.Runs(ctx, o.ScenarioID)
	if err != nil {
		return nil, err
	}
	var latest *gen.ApiBasicRun
	for i, r := range runs {
		if r.Type == o.Type && r.ScenarioId == o.ScenarioID && (latest == nil || r.Id > latest.Id) {
			latest = &runs[i]
		}
	}
	return latest, nil
}

// ValidationStatus returns the validation summary of a scenario.
//
//scm:operation getScenarioValidationStatus
func (s *ExperimentsService) ValidationStatus(ctx context.Context, scenarioID ids.ScenarioID) (*gen.ApiScenarioValidationStatus, error) {
	if err := check(gen.OpGetScenarioValidationStatus).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiScenarioValidationStatus](ctx, s.c, newCall(gen.OpGetScenarioValidationStatus, func(srv string) (*http.Request, error) {
		return gen.NewGetScenarioValidationStatusRequest(srv, &gen.GetScenarioValidationStatusParams{ScenarioId: scenarioID})
	}))
}

// ValidationErrors lists the validation errors of a scenario.
//
//scm:operation getValidationErrors
func (s *ExperimentsService) ValidationErrors(ctx context.Context, scenarioID ids.ScenarioID) ([]gen.ApiValidationError, error) {
	if err := check(gen.OpGetValidationErrors).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiValidationError](ctx, s.c, newCall(gen.OpGetValidationErrors, func(srv string) (*http.Request, error) {
		return gen.NewGetValidationErrorsRequest(srv, &gen.GetValidationErrorsParams{ScenarioId: scenarioID})
	}))
}

// ValidationWarnings lists the validation warnings of a scenario.
//
//scm:operation getValidationWarnings
func (s *ExperimentsService) ValidationWarnings(ctx context.Context, scenarioID ids.ScenarioID) ([]gen.ApiValidationWarning, error) {
	if err := check(gen.OpGetValidationWarnings).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiValidationWarning](ctx, s.c, newCall(gen.OpGetValidationWarnings, func(srv string) (*http.Request, error) {
		return gen.NewGetValidationWarningsRequest(srv, &gen.GetValidationWarningsParams{ScenarioId: scenarioID})
	}))
}
