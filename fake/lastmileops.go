package fake

import (
	"context"
	"net/http"

	"github.com/scmodel/scmgo/fake/internal/genserver"
)

// The operations of last mile optimization, on the three tables of
// lastmile.go.

func (s *service) GetLastMileOptimizationOrdersTableData(_ context.Context, req genserver.GetLastMileOptimizationOrdersTableDataRequestObject) (genserver.GetLastMileOptimizationOrdersTableDataResponseObject, error) {
	p := req.Params
	out, err := s.w.lastMilePage(lastMileOrders, p.RcId, p.Skip, p.Take, nil)
	return genserver.GetLastMileOptimizationOrdersTableData200JSONResponse(out), err
}

func (s *service) GetLastMileOptimizationShipmentsTableData(_ context.Context, req genserver.GetLastMileOptimizationShipmentsTableDataRequestObject) (genserver.GetLastMileOptimizationShipmentsTableDataResponseObject, error) {
	p := req.Params
	out, err := s.w.lastMilePage(lastMileShipments, p.RcId, p.Skip, p.Take, nil)
	return genserver.GetLastMileOptimizationShipmentsTableData200JSONResponse(out), err
}

// GetLastMileOptimizationMilkRunsTableData lists the milk runs; with
// showInvalidRows=false the short (invalid) one is left out.
func (s *service) GetLastMileOptimizationMilkRunsTableData(_ context.Context, req genserver.GetLastMileOptimizationMilkRunsTableDataRequestObject) (genserver.GetLastMileOptimizationMilkRunsTableDataResponseObject, error) {
	p := req.Params
	var keep func([]int64) bool
	if p.ShowInvalidRows != nil && !*p.ShowInvalidRows {
		keep = func(orders []int64) bool { return len(orders) == milkRunSize }
	}
	out, err := s.w.lastMilePage(lastMileMilkRuns, p.RcId, p.Skip, p.Take, keep)
	return genserver.GetLastMileOptimizationMilkRunsTableData200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationOrderInOrdersTable(_ context.Context, req genserver.SelectLastMileOptimizationOrderInOrdersTableRequestObject) (genserver.SelectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileOrders, req.Params.RcId, req.Body, true)
	return genserver.SelectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationOrderInOrdersTable(_ context.Context, req genserver.DeselectLastMileOptimizationOrderInOrdersTableRequestObject) (genserver.DeselectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileOrders, req.Params.RcId, req.Body, false)
	return genserver.DeselectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req genserver.SelectLastMileOptimizationShipmentInShipmentsTableRequestObject) (genserver.SelectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileShipments, req.Params.RcId, req.Body, true)
	return genserver.SelectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req genserver.DeselectLastMileOptimizationShipmentInShipmentsTableRequestObject) (genserver.DeselectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileShipments, req.Params.RcId, req.Body, false)
	return genserver.DeselectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req genserver.SelectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (genserver.SelectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileMilkRuns, req.Params.RcId, req.Body, true)
	return genserver.SelectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req genserver.DeselectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (genserver.DeselectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.lastMileMark(lastMileMilkRuns, req.Params.RcId, req.Body, false)
	return genserver.DeselectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

// AddLastMileOptimizationShipmentsToScenario adds exactly the selected
// shipments to the scenario's Shipments table (or targetTableId).
func (s *service) AddLastMileOptimizationShipmentsToScenario(_ context.Context, req genserver.AddLastMileOptimizationShipmentsToScenarioRequestObject) (genserver.AddLastMileOptimizationShipmentsToScenarioResponseObject, error) {
	b := deref(req.Body)
	if err := s.w.lastMileAdd(lastMileShipments, req.Params.RcId, b.TargetTableId, deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return genserver.AddLastMileOptimizationShipmentsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

// AddLastMileOptimizationMilkRunsToScenario adds exactly the selected milk
// runs to the scenario's MilkRuns table (or targetTableId).
func (s *service) AddLastMileOptimizationMilkRunsToScenario(_ context.Context, req genserver.AddLastMileOptimizationMilkRunsToScenarioRequestObject) (genserver.AddLastMileOptimizationMilkRunsToScenarioResponseObject, error) {
	b := deref(req.Body)
	if err := s.w.lastMileAdd(lastMileMilkRuns, req.Params.RcId, b.TargetTableId, deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return genserver.AddLastMileOptimizationMilkRunsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

func (s *service) ExportLastMileOptimizationShipmentsResultsPage(_ context.Context, req genserver.ExportLastMileOptimizationShipmentsResultsPageRequestObject) (genserver.ExportLastMileOptimizationShipmentsResultsPageResponseObject, error) {
	f, n, err := s.w.lastMileExport(lastMileShipments, req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return genserver.ExportLastMileOptimizationShipmentsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}

func (s *service) ExportLastMileOptimizationMilkRunsResultsPage(_ context.Context, req genserver.ExportLastMileOptimizationMilkRunsResultsPageRequestObject) (genserver.ExportLastMileOptimizationMilkRunsResultsPageResponseObject, error) {
	f, n, err := s.w.lastMileExport(lastMileMilkRuns, req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return genserver.ExportLastMileOptimizationMilkRunsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}
