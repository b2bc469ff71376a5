package fake

import (
	"context"

	"github.com/scmodel/scmgo/gen"
)

// validationFindings returns the errors and warnings of a scenario: the
// scenario "Broken Data" (id 104) has two errors, every scenario one warning.
func validationFindings(sc *scenario) ([]gen.ApiValidationError, []gen.ApiValidationWarning) {
	warnings := []gen.ApiValidationWarning{{TableId: ptr("Vehicles"), RowIndex: ptr(int64(0)), Code: ptr("W_UNUSED_VEHICLE"), Message: "vehicle R1 is not used by any route"}}
	if !sc.broken {
		return []gen.ApiValidationError{}, warnings
	}
	errs := []gen.ApiValidationError{
		{TableId: ptr("Demand"), RowIndex: ptr(int64(3)), Code: ptr("E_NEGATIVE_DEMAND"), Message: "demand must not be negative"},
		{TableId: ptr("Sites"), RowIndex: ptr(int64(7)), Code: ptr("E_MISSING_LOCATION"), Message: "site R8 has no location"},
	}
	return errs, warnings
}

func (s *service) GetScenarioValidationStatus(_ context.Context, req gen.GetScenarioValidationStatusRequestObject) (gen.GetScenarioValidationStatusResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	errs, warnings := validationFindings(sc)
	return gen.GetScenarioValidationStatus200JSONResponse{ScenarioId: sc.id, Valid: len(errs) == 0,
		ErrorCount: ptr(int64(len(errs))), WarningCount: ptr(int64(len(warnings)))}, nil
}

func (s *service) GetValidationErrors(_ context.Context, req gen.GetValidationErrorsRequestObject) (gen.GetValidationErrorsResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	errs, _ := validationFindings(sc)
	return gen.GetValidationErrors200JSONResponse(errs), nil
}

func (s *service) GetValidationWarnings(_ context.Context, req gen.GetValidationWarningsRequestObject) (gen.GetValidationWarningsResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	_, warnings := validationFindings(sc)
	return gen.GetValidationWarnings200JSONResponse(warnings), nil
}
