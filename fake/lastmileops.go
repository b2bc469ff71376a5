package fake

import (
	"context"
	"net/http"

	"github.com/scmodel/scmgo/gen"
)

// The operations of last mile optimization, on the three tables of
// lastmile.go.

func (s *service) GetLastMileOptimizationOrdersTableData(_ context.Context, req gen.GetLastMileOptimizationOrdersTableDataRequestObject) (gen.GetLastMileOptimizationOrdersTableDataResponseObject, error) {
	p := req.Params
	out, err := s.w.lastMilePage(lastMileOrders, p.RcId, p.Skip, p.Take, nil)
	return gen.GetLastMileOptimizationOrdersTableData200JSONResponse(out), err
}

func (s *service) GetLastMileOptimizationShipmentsTableData(_ context.Context, req gen.GetLastMileOptimizationShipmentsTableDataRequestObject) (gen.GetLastMileOptimizationShipmentsTableDataResponseObject, error) {
	p := req.Params
	out, err := s.w.lastMilePage(lastMileShipments, p.RcId, p.Skip, p.Take, nil)
	return gen.GetLastMileOptimizationShipmentsTableData200JSONResponse(out), err
}

// GetLastMileOptimizationMilkRunsTableData lists the milk runs; with
// showInvalidRows=false the short (invalid) one is left out.
func (s *service) GetLastMileOptimizationMilkRunsTableData(_ context.Context, req gen.GetLastMileOptimizationMilkRunsTableDataRequestObject) (gen.GetLastMileOptimizationMilkRunsTableDataResponseObject, error) {
	p := req.Params
	var keep func([]int64) bool
	if p.ShowInvalidRows != nil && !*p.ShowInvalidRows {
		keep = func(orders []int64) bool { return len(orders) == milkRunSize }
	}
	out, err := s.w.lastMilePage(lastMileMilkRuns, p.RcId, p.Skip, p.Take, keep)
	return gen.GetLastMileOptimizationMilkRunsTableData200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationOrderInOrdersTable(_ context.Context, req gen.SelectLastMileOptimizationOrderInOrdersTableRequestObject) (gen.SelectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileOrders, req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationOrderInOrdersTable(_ context.Context, req gen.DeselectLastMileOptimizationOrderInOrdersTableRequestObject) (gen.DeselectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileOrders, req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req gen.SelectLastMileOptimizationShipmentInShipmentsTableRequestObject) (gen.SelectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileShipments, req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req gen.DeselectLastMileOptimizationShipmentInShipmentsTableRequestObject) (gen.DeselectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileShipments, req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req gen.SelectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (gen.SelectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileMilkRuns, req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileMilkRuns, req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

// AddLastMileOptimizationShipmentsToScenario adds exactly the selected
// shipments to the scenario's Shipments table (or targetTableId).
func (s *service) AddLastMileOptimizationShipmentsToScenario(_ context.Context, req gen.AddLastMileOptimizationShipmentsToScenarioRequestObject) (gen.AddLastMileOptimizationShipmentsToScenarioResponseObject, error) {
	b := deref(req.Body)
	if err := s.w.lastMileAdd(lastMileShipments, req.Params.RcId, b.TargetTableId, deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return gen.AddLastMileOptimizationShipmentsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

// AddLastMileOptimizationMilkRunsToScenario adds exactly the selected milk
// runs to the scenario's MilkRuns table (or targetTableId).
func (s *service) AddLastMileOptimizationMilkRunsToScenario(_ context.Context, req gen.AddLastMileOptimizationMilkRunsToScenarioRequestObject) (gen.AddLastMileOptimizationMilkRunsToScenarioResponseObject, error) {
	b := deref(req.Body)
	if err := s.w.lastMileAdd(lastMileMilkRuns, req.Params.RcId, b.TargetTableId, deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return gen.AddLastMileOptimizationMilkRunsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

func (s *service) ExportLastMileOptimizationShipmentsResultsPage(_ context.Context, req gen.ExportLastMileOptimizationShipmentsResultsPageRequestObject) (gen.ExportLastMileOptimizationShipmentsResultsPageResponseObject, error) {
	f, n, err := s.w.lastMileExport(lastMileShipments, req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return gen.ExportLastMileOptimizationShipmentsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}

func (s *service) ExportLastMileOptimizationMilkRunsResultsPage(_ context.Context, req gen.ExportLastMileOptimizationMilkRunsResultsPageRequestObject) (gen.ExportLastMileOptimizationMilkRunsResultsPageResponseObject, error) {
	f, n, err := s.w.lastMileExport(lastMileMilkRuns, req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return gen.ExportLastMileOptimizationMilkRunsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}
