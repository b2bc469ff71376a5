package fake

import (
	"context"
	"fmt"

	"github.com/scmodel/scmgo/gen"
)

func (w *world) scenarioData(sc *scenario) gen.ApiScenarioData {
	tables := make([]gen.ApiTableMeta, len(sc.tables))
	for i, t := range sc.tables {
		tables[i] = tableMeta(t)
	}
	d := gen.ApiScenarioData{Id: sc.id, Name: sc.name, ProjectId: ptr(sc.projectID), Type: ptr(sc.typ), Tables: &tables}
	if sc.about != "" {
		d.Description = ptr(sc.about)
	}
	if sc.parentID != 0 {
		d.ParentScenarioId = ptr(sc.parentID)
	}
	return d
}

func (s *service) GetScenarios(_ context.Context, req gen.GetScenariosRequestObject) (gen.GetScenariosResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.project(req.Params.ProjectId); err != nil {
		return nil, err
	}
	return w.scenarioList(req.Params.ProjectId), nil
}

// RemoveScenarioById deletes a scenario and its experiments; a scenario with
// a run in progress is a conflict.
func (s *service) RemoveScenarioById(_ context.Context, req gen.RemoveScenarioByIdRequestObject) (gen.RemoveScenarioByIdResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	for _, r := range w.scenarioRuns(sc.id) {
		if r.active(now) {
			return nil, conflict("scenarioId %d: run %d is in progress", sc.id, r.id)
		}
	}
	w.removeScenario(sc.id)
	return gen.RemoveScenarioById200JSONResponse(true), nil
}

// copyName is the name of a copy or conversion: the one the parameters give,
// or the parent's with a suffix.
func copyName(params *gen.ApiConvertAndCopyParameters, parent, suffix string) (string, string) {
	name, about := parent+" ("+suffix+")", ""
	if params != nil && params.NewScenarioName != nil && *params.NewScenarioName != "" {
		name = *params.NewScenarioName
	}
	if params != nil && params.NewScenarioDescription != nil {
		about = *params.NewScenarioDescription
	}
	return name, about
}

// derive makes a new scenario from a parent: same project and tables.
func (w *world) derive(parent *scenario, typ gen.ScenarioType, params *gen.ApiConvertAndCopyParameters, suffix string) *scenario {
	name, about := copyName(params, parent.name, suffix)
	sc := w.newScenario(parent.projectID, parent.id, name, typ, parent.copyTables())
	sc.about = about
	return sc
}

func (s *service) CopyScenario(_ context.Context, req gen.CopyScenarioRequestObject) (gen.CopyScenarioResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	src, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	name, _ := copyName(req.Body, src.name, "copy")
	srcID, typ, body := src.id, req.Params.NewType, req.Body
	j := w.startJob(now, name, "", func(w *world) (*scenario, error) {
		parent, ok := w.scenarios[srcID]
		if !ok {
			return nil, fmt.Errorf("the source scenario %d was deleted", srcID)
		}
		return w.derive(parent, typ, body, "copy"), nil
	})
	return gen.CopyScenario200JSONResponse(j.response(now)), nil
}

func (s *service) CopyScenarioSynchronously(_ context.Context, req gen.CopyScenarioSynchronouslyRequestObject) (gen.CopyScenarioSynchronouslyResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	src, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	return gen.CopyScenarioSynchronously200JSONResponse(w.scenarioData(w.derive(src, req.Params.NewType, req.Body, "copy"))), nil
}

// resultRun finds a run for a conversion: it must exist, be of one of the
// types, and have finished.
func (w *world) resultRun(runID int64, types ...gen.ExperimentType) (*run, *scenario, error) {
	r, ok := w.runs[runID]
	if !ok {
		return nil, nil, notFound("runId %d: no such run", runID)
	}
	if _, err := w.runConfigOfType(r.rcID, types...); err != nil {
		return nil, nil, badRequest("runId %d: a run of a %s experiment, this operation needs %s", runID, r.typ, joinTypes(types))
	}
	if st, _ := r.state(w.clock.Now()); st != gen.ExecutionStateValueFINISHED {
		return nil, nil, conflict("runId %d: the run is %s, not FINISHED", runID, st)
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

func (s *service) ConvertGFAResultToScenario(_ context.Context, req gen.ConvertGFAResultToScenarioRequestObject) (gen.ConvertGFAResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeGFA, gen.ExperimentTypeGFAWITHROADS)
	if err != nil {
		return nil, err
	}
	sc := w.derive(parent, req.Params.ScenarioType, req.Body, "GFA result")
	return gen.ConvertGFAResultToScenario200JSONResponse(w.scenarioData(sc)), nil
}

func (s *service) ConvertNOResultToScenario(_ context.Context, req gen.ConvertNOResultToScenarioRequestObject) (gen.ConvertNOResultToScenarioResponseObject, error) {
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
	sc := w.derive(parent, req.Params.ScenarioType, req.Body, fmt.Sprintf("NO result %d", req.Params.ResultOptionId))
	return gen.ConvertNOResultToScenario200JSONResponse(w.scenarioData(sc)), nil
}

// ConvertSSEResultToScenario writes a safety stock result into a new
// scenario, or into the run's own scenario with updateParentScenario.
func (s *service) ConvertSSEResultToScenario(_ context.Context, req gen.ConvertSSEResultToScenarioRequestObject) (gen.ConvertSSEResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeSAFETYSTOCK)
	if err != nil {
		return nil, err
	}
	if req.Params.UpdateParentScenario {
		parent.addRows("Products", 0, false)
		return gen.ConvertSSEResultToScenario200JSONResponse(w.scenarioData(parent)), nil
	}
	sc := w.derive(parent, parent.typ, req.Body, "safety stock result")
	return gen.ConvertSSEResultToScenario200JSONResponse(w.scenarioData(sc)), nil
}

func (s *service) ConvertVariationResultToScenario(_ context.Context, req gen.ConvertVariationResultToScenarioRequestObject) (gen.ConvertVariationResultToScenarioResponseObject, error) {
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
	sc := w.derive(parent, parent.typ, nil, fmt.Sprintf("variation result %d", req.Params.ResultOptionId))
	return gen.ConvertVariationResultToScenario200JSONResponse(w.scenarioData(sc)), nil
}

func (s *service) ConvertLastMileOptimizationResultToScenario(_ context.Context, req gen.ConvertLastMileOptimizationResultToScenarioRequestObject) (gen.ConvertLastMileOptimizationResultToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	_, parent, err := w.resultRun(req.Params.RunId, gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return nil, err
	}
	sc := w.derive(parent, parent.typ, &gen.ApiConvertAndCopyParameters{NewScenarioName: req.Params.ScenarioName}, "last mile result")
	return gen.ConvertLastMileOptimizationResultToScenario200JSONResponse(w.scenarioData(sc)), nil
}
