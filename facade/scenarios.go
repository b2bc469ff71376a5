package facade

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ScenariosService lists, removes, copies and converts scenarios.
type ScenariosService struct{ service }

// NewScenarioOptions name a scenario made by a copy or a conversion (sent
// as newName). An empty Name is not sent; the server then picks. A real
// server was seen to name a synchronous copy null whatever newName said:
// follow the copy by the id it answers, never by its name.
type NewScenarioOptions struct {
	Name string
}

func (o *NewScenarioOptions) body() gen.ApiConvertAndCopyParameters {
	if o == nil {
		return gen.ApiConvertAndCopyParameters{}
	}
	return gen.ApiConvertAndCopyParameters{NewName: optString(o.Name)}
}

// List lists the scenarios of a project.
//
//scm:operation getScenarios
func (s *ScenariosService) List(ctx context.Context, projectID ids.ProjectID) ([]gen.ApiScenarioData, error) {
	if err := check(gen.OpGetScenarios).project(projectID).done(); err != nil {
		return nil, err
	}
	return callList[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpGetScenarios, func(srv string) (*http.Request, error) {
		return gen.NewGetScenariosRequest(srv, &gen.GetScenariosParams{ProjectId: projectID})
	}))
}

// Named returns the ids of the scenarios of a project that have exactly
// this name, ascending (getScenarios): names are not unique. Read before an
// import or a copy, they tell the scenario it makes from older ones
// ([ScenariosService.SettleByName]).
//
//scm:helper
func (s *ScenariosService) Named(ctx context.Context, projectID ids.ProjectID, name string) ([]ids.ScenarioID, error) {
	list, err := s.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	var named []ids.ScenarioID
	for _, sc := range list {
		if sc.Name != nil && *sc.Name == name {
			named = append(named, sc.Id)
		}
	}
	slices.Sort(named)
	return named, nil
}

// LostScenarioJob is an import or a copy whose answer was lost, as
// recorded before it was sent: the operation, what it was sent for, and
// the project's scenarios of the new scenario's name then
// ([ScenariosService.Named]).
type LostScenarioJob struct {
	Operation string           // importExcel, copyScenario, ...
	Subject   string           // what was sent: "workbook plan.xlsx", "scenario 101 as SIM"
	Project   ids.ProjectID    // the project the new scenario is in
	Name      string           // the new scenario's name
	Known     []ids.ScenarioID // the scenarios of the name before it was sent
}

// SettleByName settles an import or a copy whose answer was lost by the
// new scenario's name: the newest scenario of the project with the name
// that is not one of job.Known is the scenario it made. Such a job makes
// its scenario only once it is done, so none yet does not say that
// nothing was sent: it is a [*StartUnknownError] (matching
// [ErrStartUnknown]) of job.Operation and job.Subject, and the caller
// looks again later, or sends the job again only once the user has
// checked. A real server was seen to name a copy null whatever its
// newName said: a lost copy is found only where copies are named as
// asked.
//
//scm:helper
func (s *ScenariosService) SettleByName(ctx context.Context, job LostScenarioJob) (ids.ScenarioID, error) {
	named, err := s.Named(ctx, job.Project, job.Name)
	if err != nil {
		return 0, err
	}
	for _, id := range slices.Backward(named) {
		if !slices.Contains(job.Known, id) {
			return id, nil
		}
	}
	return 0, &StartUnknownError{Operation: job.Operation, Subject: job.Subject,
		Reason: fmt.Sprintf("it may have reached the server, but project %d has no new scenario %q yet (its job may still be running, or the server named the scenario otherwise)", job.Project, job.Name),
		Check:  fmt.Sprintf("the scenarios of project %d besides the %d named %q before; send it again only if none is its", job.Project, len(job.Known), job.Name)}
}

// Remove deletes a scenario and reports what the server answered.
//
//scm:operation removeScenarioById
func (s *ScenariosService) Remove(ctx context.Context, scenarioID ids.ScenarioID) (bool, error) {
	if err := check(gen.OpRemoveScenarioById).scenario(scenarioID).done(); err != nil {
		return false, err
	}
	return callJSON[bool](ctx, s.c, newCall(gen.OpRemoveScenarioById, func(srv string) (*http.Request, error) {
		return gen.NewRemoveScenarioByIdRequest(srv, &gen.RemoveScenarioByIdParams{ScenarioId: scenarioID})
	}))
}

// Copy starts an asynchronous copy of a scenario as newType and returns its
// job. opts may be nil. See also [Client.CopyScenarioAndWait].
//
//scm:operation copyScenario
func (s *ScenariosService) Copy(ctx context.Context, scenarioID ids.ScenarioID, newType gen.ScenarioType, opts *NewScenarioOptions) (*Job, error) {
	if err := check(gen.OpCopyScenario).scenario(scenarioID).scenarioType("newType", newType).done(); err != nil {
		return nil, err
	}
	body := opts.body()
	params := &gen.CopyScenarioParams{NewType: newType, ScenarioId: scenarioID}
	return s.c.startJob(ctx, newCall(gen.OpCopyScenario, func(srv string) (*http.Request, error) {
		return gen.NewCopyScenarioRequest(srv, params, body)
	}).withBody(body))
}

// CopySync copies a scenario as newType and returns the new scenario when
// the copy is done. opts may be nil.
//
//scm:operation copyScenarioSynchronously
func (s *ScenariosService) CopySync(ctx context.Context, scenarioID ids.ScenarioID, newType gen.ScenarioType, opts *NewScenarioOptions) (*gen.ApiScenarioData, error) {
	if err := check(gen.OpCopyScenarioSynchronously).scenario(scenarioID).scenarioType("newType", newType).done(); err != nil {
		return nil, err
	}
	body := opts.body()
	params := &gen.CopyScenarioSynchronouslyParams{NewType: newType, ScenarioId: scenarioID}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpCopyScenarioSynchronously, func(srv string) (*http.Request, error) {
		return gen.NewCopyScenarioSynchronouslyRequest(srv, params, body)
	}).withBody(body))
}

// ConvertGFAResult turns the result of a GFA run into a new scenario.
// opts may be nil.
//
//scm:operation convertGFAResultToScenario
func (s *ScenariosService) ConvertGFAResult(ctx context.Context, runID ids.RunID, scenarioType gen.ScenarioType, opts *NewScenarioOptions) (*gen.ApiScenarioData, error) {
	if err := check(gen.OpConvertGFAResultToScenario).run(runID).scenarioType("scenarioType", scenarioType).done(); err != nil {
		return nil, err
	}
	body := opts.body()
	params := &gen.ConvertGFAResultToScenarioParams{RunId: runID, ScenarioType: scenarioType}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpConvertGFAResultToScenario, func(srv string) (*http.Request, error) {
		return gen.NewConvertGFAResultToScenarioRequest(srv, params, body)
	}).withBody(body))
}

// ConvertNOResult turns one iteration (result option) of a network
// optimization run into a new scenario. opts may be nil.
//
//scm:operation convertNOResultToScenario
func (s *ScenariosService) ConvertNOResult(ctx context.Context, runID ids.RunID, resultOptionID int64, scenarioType gen.ScenarioType, opts *NewScenarioOptions) (*gen.ApiScenarioData, error) {
	err := check(gen.OpConvertNOResultToScenario).run(runID).int32ID("resultOptionId", resultOptionID).
		scenarioType("scenarioType", scenarioType).done()
	if err != nil {
		return nil, err
	}
	body := opts.body()
	params := &gen.ConvertNOResultToScenarioParams{RunId: runID, ResultOptionId: int32(resultOptionID), ScenarioType: scenarioType}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpConvertNOResultToScenario, func(srv string) (*http.Request, error) {
		return gen.NewConvertNOResultToScenarioRequest(srv, params, body)
	}).withBody(body))
}

// ConvertSSEResult turns the result of a safety stock run into a scenario,
// or updates the parent scenario when updateParent is true. opts may be nil.
//
//scm:operation convertSSEResultToScenario
func (s *ScenariosService) ConvertSSEResult(ctx context.Context, runID ids.RunID, updateParent bool, opts *NewScenarioOptions) (*gen.ApiScenarioData, error) {
	if err := check(gen.OpConvertSSEResultToScenario).run(runID).done(); err != nil {
		return nil, err
	}
	body := opts.body()
	params := &gen.ConvertSSEResultToScenarioParams{RunId: runID, UpdateParentScenario: updateParent}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpConvertSSEResultToScenario, func(srv string) (*http.Request, error) {
		return gen.NewConvertSSEResultToScenarioRequest(srv, params, body)
	}).withBody(body))
}

// ConvertVariationResult turns one iteration of a variation run into a new
// scenario.
//
//scm:operation convertVariationResultToScenario
func (s *ScenariosService) ConvertVariationResult(ctx context.Context, runID ids.RunID, resultOptionID int64) (*gen.ApiScenarioData, error) {
	if err := check(gen.OpConvertVariationResultToScenario).run(runID).int32ID("resultOptionId", resultOptionID).done(); err != nil {
		return nil, err
	}
	params := &gen.ConvertVariationResultToScenarioParams{RunId: runID, ResultOptionId: int32(resultOptionID)}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpConvertVariationResultToScenario, func(srv string) (*http.Request, error) {
		return gen.NewConvertVariationResultToScenarioRequest(srv, params)
	}))
}

// ConvertLastMileResult turns a last mile optimization result into a new
// scenario, named scenarioName or, when empty, by the server.
//
//scm:operation convertLastMileOptimizationResultToScenario
func (s *ScenariosService) ConvertLastMileResult(ctx context.Context, runID ids.RunID, scenarioName string) (*gen.ApiScenarioData, error) {
	if err := check(gen.OpConvertLastMileOptimizationResultToScenario).run(runID).done(); err != nil {
		return nil, err
	}
	params := &gen.ConvertLastMileOptimizationResultToScenarioParams{RunId: runID, ScenarioName: optString(scenarioName)}
	return callPtr[gen.ApiScenarioData](ctx, s.c, newCall(gen.OpConvertLastMileOptimizationResultToScenario, func(srv string) (*http.Request, error) {
		return gen.NewConvertLastMileOptimizationResultToScenarioRequest(srv, params)
	}))
}
