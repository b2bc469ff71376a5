package fake

import (
	"context"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// validationFindings returns the errors and warnings of a scenario: the
// scenario "Broken Data" (id 104) has two errors, every scenario one warning.
// Each names its source as the table and the row, the {message, source} a
// real server's synchronous run answered.
func validationFindings(sc *scenario) ([]gen.ApiValidationError, []gen.ApiValidationWarning) {
	warnings := []gen.ApiValidationWarning{{Message: "Vehicle R1 is not used by any route", Source: &[]string{"Vehicles", "1"}}}
	if !sc.broken {
		return []gen.ApiValidationError{}, warnings
	}
	errs := []gen.ApiValidationError{
		{Message: "Demand must not be negative", Source: []string{"Demand", "4"}},
		{Message: "Site R8 has no location", Source: []string{"Sites", "8"}},
	}
	return errs, warnings
}

// scenarioFindings finds the scenario and returns its findings.
func (w *world) scenarioFindings(id ids.ScenarioID) ([]gen.ApiValidationError, []gen.ApiValidationWarning, error) {
	w.lock()
	defer w.unlock()
	sc, err := w.scenario(id)
	if err != nil {
		return nil, nil, err
	}
	errs, warnings := validationFindings(sc)
	return errs, warnings, nil
}

func (s *service) GetScenarioValidationStatus(_ context.Context, req genserver.GetScenarioValidationStatusRequestObject) (genserver.GetScenarioValidationStatusResponseObject, error) {
	errs, warnings, err := s.w.scenarioFindings(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	return genserver.GetScenarioValidationStatus200JSONResponse{ScenarioId: req.Params.ScenarioId, Valid: len(errs) == 0,
		ErrorCount: ptr(int64(len(errs))), WarningCount: ptr(int64(len(warnings)))}, nil
}

func (s *service) GetValidationErrors(_ context.Context, req genserver.GetValidationErrorsRequestObject) (genserver.GetValidationErrorsResponseObject, error) {
	errs, _, err := s.w.scenarioFindings(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	return genserver.GetValidationErrors200JSONResponse(errs), nil
}

func (s *service) GetValidationWarnings(_ context.Context, req genserver.GetValidationWarningsRequestObject) (genserver.GetValidationWarningsResponseObject, error) {
	_, warnings, err := s.w.scenarioFindings(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	return genserver.GetValidationWarnings200JSONResponse(warnings), nil
}

// runValidationErrors are the validationErrors a synchronous run of a
// scenario with validation errors answers: the scenario's own, then the
// repeats a real server answered, over 300 of them (Product is not defined
// 90 times, From and To 85, Site 18, Time Period 13, extension type not
// found 4), each with a one-element source of free text.
func runValidationErrors(sc *scenario) []gen.ApiValidationError {
	errs, _ := validationFindings(sc)
	for _, rep := range []struct {
		msg, source string
		n           int
	}{
		{"Product is not defined", "Demand: DC Berlin", 90}, {"From is not defined", "Paths: DC Berlin", 85},
		{"To is not defined", "Paths: DC Hamburg", 85}, {"Site is not defined", "DC Berlin", 18},
		{"Time Period is not defined", "Tariff: [null - null], for product: no product, for type: Compound", 13},
		{"extension type not found", "Sites", 4},
	} {
		for range rep.n {
			errs = append(errs, gen.ApiValidationError{Message: rep.msg, Source: []string{rep.source}})
		}
	}
	return errs
}
