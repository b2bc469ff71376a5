package fake

import (
	"context"
	"fmt"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func scenarioData(sc *scenario) gen.ApiScenarioData {
	return gen.ApiScenarioData{Id: sc.id, Name: ptr(sc.name), Type: sc.typ}
}

func (s *service) GetScenarios(_ context.Context, req genserver.GetScenariosRequestObject) (genserver.GetScenariosResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.project(req.Params.ProjectId); err != nil {
		return nil, err
	}
	return w.scenarioList(req.Params.ProjectId), nil
}

// RemoveScenarioById deletes a scenario and its experiments; a scenario with
// a run under way cannot be removed.
func (s *service) RemoveScenarioById(_ context.Context, req genserver.RemoveScenarioByIdRequestObject) (genserver.RemoveScenarioByIdResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	for _, r := range w.scenarioRuns(sc.id) {
		if r.active(now) {
			return nil, failure("scenarioId %d: run %d is in progress", sc.id, r.id)
		}
	}
	w.removeScenario(sc.id)
	return genserver.RemoveScenarioById200JSONResponse(true), nil
}

// convertName is the name of a scenario made from a result: the newName
// the parameters give, or the parent's with a suffix.
func convertName(params *gen.ApiConvertAndCopyParameters, parent, suffix string) string {
	if params != nil && params.NewName != nil && *params.NewName != "" {
		return *params.NewName
	}
	return parent + " (" + suffix + ")"
}

// derive makes a new scenario from a parent: same project and tables.
func (w *world) derive(parent *scenario, typ gen.ScenarioType, name string) *scenario {
	return w.newScenario(parent.projectID, name, typ, parent.copyTables())
}

// copyOf copies a scenario as the real server was seen to: the copy has no
// name of its own, whatever newName says, and is listed as "null", then
// "null 2", "null 3", ... (the first such name free in the project, found
// from the project's index: a copy costs the same with 100 scenarios as
// with 100,000).
func (w *world) copyOf(parent *scenario, typ gen.ScenarioType) *scenario {
	return w.derive(parent, typ, w.scenarioIndex(parent.projectID).firstFree())
}

// CopyScenario starts a job that copies the scenario (see copyOf).
func (s *service) CopyScenario(_ context.Context, req genserver.CopyScenarioRequestObject) (genserver.CopyScenarioResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	src, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	srcID, typ := src.id, req.Params.NewType
	j := w.startJob(now, "", func(w *world) (*scenario, error) {
		parent, ok := w.scenarios[srcID]
		if !ok {
			return nil, fmt.Errorf("the source scenario %d was deleted", srcID)
		}
		return w.copyOf(parent, typ), nil
	})
	return genserver.CopyScenario200JSONResponse(j.response()), nil
}

// CopyScenarioSynchronously copies the scenario (see copyOf) and answers the
// copy with name null, as the real server does.
func (s *service) CopyScenarioSynchronously(_ context.Context, req genserver.CopyScenarioSynchronouslyRequestObject) (genserver.CopyScenarioSynchronouslyResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	src, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	out := scenarioData(w.copyOf(src, req.Params.NewType))
	out.Name = nil
	return genserver.CopyScenarioSynchronously200JSONResponse(out), nil
}

// resultRun finds a run for a conversion: it must exist, be of one of the
// types, and have finished.
func (w *world) resultRun(runID ids.RunID, types ...gen.ExperimentType) (*run, *scenario, error) {
	r, ok := w.runs[runID]
	if !ok {
		return nil, nil, notFound("runId %d: no such run", runID)
	}
	if _, err := w.runConfigOfType(r.rcID, types...); err != nil {
		return nil, nil, failure("runId %d: a run of a %s experiment, this operation needs %s", runID, r.typ, joinTypes(types))
	}
	if !r.finished(w.clock.Now()) {
		return nil, nil, failure("runId %d: the run has not finished", runID)
	}
	parent, err := w.scenario(r.scenarioID)
	return r, parent, err
}

// checkResultOption checks an iteration number of a run's result.
func checkResultOption(id int32) error {
	if id < 1 || id > resultOptionCount {
		return notFound("resultOptionId %d: the result has options 1 to %d", id, resultOptionCount)
	}
	return nil
}

func (s *service) ConvertGFAResultToScenario(_ context.Context, req genserver.ConvertGFAResultToScenarioRequestObject) (genserver.ConvertGFAResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeGFA, gen.ExperimentTypeGFAWITHROADS)
	if err != nil {
		return nil, err
	}
	sc := w.derive(parent, req.Params.ScenarioType, convertName(req.Body, parent.name, "GFA result"))
	return genserver.ConvertGFAResultToScenario200JSONResponse(scenarioData(sc)), nil
}

func (s *service) ConvertNOResultToScenario(_ context.Context, req genserver.ConvertNOResultToScenarioRequestObject) (genserver.ConvertNOResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeNETWORKOPTIMIZATION)
	if err != nil {
		return nil, err
	}
	if err := checkResultOption(req.Params.ResultOptionId); err != nil {
		return nil, err
	}
	sc := w.derive(parent, req.Params.ScenarioType, convertName(req.Body, parent.name, fmt.Sprintf("NO result %d", req.Params.ResultOptionId)))
	return genserver.ConvertNOResultToScenario200JSONResponse(scenarioData(sc)), nil
}

// ConvertSSEResultToScenario writes a safety stock result into a new
// scenario, or into the run's own scenario with updateParentScenario.
func (s *service) ConvertSSEResultToScenario(_ context.Context, req genserver.ConvertSSEResultToScenarioRequestObject) (genserver.ConvertSSEResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeSAFETYSTOCK)
	if err != nil {
		return nil, err
	}
	if req.Params.UpdateParentScenario {
		parent.addRows("Products", 0, false)
		return genserver.ConvertSSEResultToScenario200JSONResponse(scenarioData(parent)), nil
	}
	sc := w.derive(parent, parent.typ, convertName(req.Body, parent.name, "safety stock result"))
	return genserver.ConvertSSEResultToScenario200JSONResponse(scenarioData(sc)), nil
}

func (s *service) ConvertVariationResultToScenario(_ context.Context, req genserver.ConvertVariationResultToScenarioRequestObject) (genserver.ConvertVariationResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeVARIATION)
	if err != nil {
		return nil, err
	}
	if err := checkResultOption(req.Params.ResultOptionId); err != nil {
		return nil, err
	}
	sc := w.derive(parent, parent.typ, convertName(nil, parent.name, fmt.Sprintf("variation result %d", req.Params.ResultOptionId)))
	return genserver.ConvertVariationResultToScenario200JSONResponse(scenarioData(sc)), nil
}

func (s *service) ConvertLastMileOptimizationResultToScenario(_ context.Context, req genserver.ConvertLastMileOptimizationResultToScenarioRequestObject) (genserver.ConvertLastMileOptimizationResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return nil, err
	}
	sc := w.derive(parent, parent.typ, convertName(&gen.ApiConvertAndCopyParameters{NewName: req.Params.ScenarioName}, parent.name, "last mile result"))
	return genserver.ConvertLastMileOptimizationResultToScenario200JSONResponse(scenarioData(sc)), nil
}
