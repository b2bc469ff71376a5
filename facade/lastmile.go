package facade

import (
	"context"
	"iter"
	"net/http"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// LastMileService runs the last mile optimization workflow: read the
// orders, shipments and milk runs tables, select or deselect records, add
// the selected ones to the scenario, and export the result pages.
//
// The add operations add only the records currently selected; deselecting
// a record before the add excludes it. [LastMileService.AddOnlyShipments]
// and [LastMileService.AddOnlyMilkRuns] make that explicit.
type LastMileService struct{ service }

// AddOptions are the optional inputs of the add operations.
type AddOptions struct {
	ReplaceExisting bool   // replace what the target table holds
	TargetTableID   string // "" lets the server choose
}

// MilkRunsOptions are the optional inputs of the milk runs table.
type MilkRunsOptions struct {
	PageOptions
	HideInvalid bool // leave out invalid milk runs (showInvalidRows=false)
}

// rowsTableOp is a last mile table: its operation, its request and where
// its page holds the rows (the operation's x-paged-items).
type rowsTableOp struct {
	op    gen.OperationID
	build func(srv string, rcID ids.RcID, skip, take int32) (*http.Request, error)
	rows  func(*gen.ApiStrictTableChartData) []gen.Row
}

func (s *LastMileService) tableSource(t rowsTableOp, rcID ids.RcID) pageSource[gen.Row, *gen.ApiStrictTableChartData] {
	return pager(s.c, t.op, func(skip, take int32) call {
		return newCall(t.op, func(srv string) (*http.Request, error) { return t.build(srv, rcID, skip, take) })
	}, t.rows)
}

func (s *LastMileService) rows(ctx context.Context, t rowsTableOp, rcID ids.RcID, opts *PageOptions) iter.Seq2[gen.Row, error] {
	if err := check(t.op).rc(rcID).done(); err != nil {
		return failedSeq[gen.Row](err)
	}
	return itemsSeq(ctx, s.tableSource(t, rcID), opts)
}

func (s *LastMileService) pages(ctx context.Context, t rowsTableOp, rcID ids.RcID, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	if err := check(t.op).rc(rcID).done(); err != nil {
		return failedSeq[*gen.ApiStrictTableChartData](err)
	}
	return pagesSeq(ctx, s.tableSource(t, rcID), opts)
}

var ordersTable = rowsTableOp{gen.OpGetLastMileOptimizationOrdersTableData, func(srv string, rcID ids.RcID, skip, take int32) (*http.Request, error) {
	return gen.NewGetLastMileOptimizationOrdersTableDataRequest(srv, &gen.GetLastMileOptimizationOrdersTableDataParams{RcId: rcID, Skip: skip, Take: take})
}, gen.GetLastMileOptimizationOrdersTableDataPageItems}

var shipmentsTable = rowsTableOp{gen.OpGetLastMileOptimizationShipmentsTableData, func(srv string, rcID ids.RcID, skip, take int32) (*http.Request, error) {
	return gen.NewGetLastMileOptimizationShipmentsTableDataRequest(srv, &gen.GetLastMileOptimizationShipmentsTableDataParams{RcId: rcID, Skip: skip, Take: take})
}, gen.GetLastMileOptimizationShipmentsTableDataPageItems}

func milkRunsTable(showInvalid *bool) rowsTableOp {
	return rowsTableOp{gen.OpGetLastMileOptimizationMilkRunsTableData, func(srv string, rcID ids.RcID, skip, take int32) (*http.Request, error) {
		return gen.NewGetLastMileOptimizationMilkRunsTableDataRequest(srv, &gen.GetLastMileOptimizationMilkRunsTableDataParams{
			RcId: rcID, ShowInvalidRows: showInvalid, Skip: skip, Take: take})
	}, gen.GetLastMileOptimizationMilkRunsTableDataPageItems}
}

func (o *MilkRunsOptions) split() (*bool, *PageOptions) {
	if o == nil {
		return nil, nil
	}
	var show *bool
	if o.HideInvalid {
		show = ptr(false)
	}
	return show, &o.PageOptions
}

// selectionOp is an operation that selects or deselects rows of a table
// by index.
type selectionOp struct {
	op    gen.OperationID
	build func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error)
}

// selectionOps are the select and deselect operations of one table.
type selectionOps struct{ selectRows, deselectRows selectionOp }

var orderSelection = selectionOps{
	selectionOp{gen.OpSelectLastMileOptimizationOrderInOrdersTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewSelectLastMileOptimizationOrderInOrdersTableRequest(srv, &gen.SelectLastMileOptimizationOrderInOrdersTableParams{RcId: rcID}, body)
	}},
	selectionOp{gen.OpDeselectLastMileOptimizationOrderInOrdersTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewDeselectLastMileOptimizationOrderInOrdersTableRequest(srv, &gen.DeselectLastMileOptimizationOrderInOrdersTableParams{RcId: rcID}, body)
	}},
}

var shipmentSelection = selectionOps{
	selectionOp{gen.OpSelectLastMileOptimizationShipmentInShipmentsTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewSelectLastMileOptimizationShipmentInShipmentsTableRequest(srv, &gen.SelectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcID}, body)
	}},
	selectionOp{gen.OpDeselectLastMileOptimizationShipmentInShipmentsTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewDeselectLastMileOptimizationShipmentInShipmentsTableRequest(srv, &gen.DeselectLastMileOptimizationShipmentInShipmentsTableParams{RcId: rcID}, body)
	}},
}

var milkRunSelection = selectionOps{
	selectionOp{gen.OpSelectLastMileOptimizationMilkRunInMilkRunsTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewSelectLastMileOptimizationMilkRunInMilkRunsTableRequest(srv, &gen.SelectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcID}, body)
	}},
	selectionOp{gen.OpDeselectLastMileOptimizationMilkRunInMilkRunsTable, func(srv string, rcID ids.RcID, body gen.ApiIndexColumnSelection) (*http.Request, error) {
		return gen.NewDeselectLastMileOptimizationMilkRunInMilkRunsTableRequest(srv, &gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableParams{RcId: rcID}, body)
	}},
}

// selection sends a select or deselect of rows.
func (s *LastMileService) selection(ctx context.Context, sel selectionOp, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	if err := check(sel.op).rc(rcID).rows("rowIndexes", rows).done(); err != nil {
		return nil, err
	}
	body := gen.ApiIndexColumnSelection{RowIndexes: rows}
	return callPtr[gen.ApiCheckUncheckResponse](ctx, s.c, newCall(sel.op, func(srv string) (*http.Request, error) {
		return sel.build(srv, rcID, body)
	}).withBody(body))
}

// Orders yields the rows of the order preview table. opts may be nil.
//
//scm:operation getLastMileOptimizationOrdersTableData
func (s *LastMileService) Orders(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[gen.Row, error] {
	return s.rows(ctx, ordersTable, rcID, opts)
}

// OrderBatches yields the whole pages behind [LastMileService.Orders].
//
//scm:pages getLastMileOptimizationOrdersTableData
func (s *LastMileService) OrderBatches(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	return s.pages(ctx, ordersTable, rcID, opts)
}

// SelectOrders marks orders, by row index, as part of the problem to solve.
//
//scm:operation selectLastMileOptimizationOrderInOrdersTable
func (s *LastMileService) SelectOrders(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, orderSelection.selectRows, rcID, rows)
}

// DeselectOrders removes orders, by row index, from the problem to solve.
//
//scm:operation deselectLastMileOptimizationOrderInOrdersTable
func (s *LastMileService) DeselectOrders(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, orderSelection.deselectRows, rcID, rows)
}

// Shipments yields the rows of the generated shipments table. opts may be
// nil.
//
//scm:operation getLastMileOptimizationShipmentsTableData
func (s *LastMileService) Shipments(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[gen.Row, error] {
	return s.rows(ctx, shipmentsTable, rcID, opts)
}

// ShipmentBatches yields the whole pages behind [LastMileService.Shipments].
//
//scm:pages getLastMileOptimizationShipmentsTableData
func (s *LastMileService) ShipmentBatches(ctx context.Context, rcID ids.RcID, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	return s.pages(ctx, shipmentsTable, rcID, opts)
}

// SelectShipments marks shipments, by row index, to be added.
//
//scm:operation selectLastMileOptimizationShipmentInShipmentsTable
func (s *LastMileService) SelectShipments(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, shipmentSelection.selectRows, rcID, rows)
}

// DeselectShipments unmarks shipments, by row index.
//
//scm:operation deselectLastMileOptimizationShipmentInShipmentsTable
func (s *LastMileService) DeselectShipments(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, shipmentSelection.deselectRows, rcID, rows)
}

func (o *AddOptions) shipmentBody() gen.ApiShipmentGenerateRequest {
	if o == nil {
		return gen.ApiShipmentGenerateRequest{}
	}
	return gen.ApiShipmentGenerateRequest{ReplaceExisting: optBool(o.ReplaceExisting), TargetTableId: optString(o.TargetTableID)}
}

func (o *AddOptions) milkRunBody() gen.ApiMilkRunsGenerateRequest {
	if o == nil {
		return gen.ApiMilkRunsGenerateRequest{}
	}
	return gen.ApiMilkRunsGenerateRequest{ReplaceExisting: optBool(o.ReplaceExisting), TargetTableId: optString(o.TargetTableID)}
}

// AddSelectedShipments adds the shipments that are currently selected, and
// only those, to the scenario. opts may be nil.
//
//scm:operation addLastMileOptimizationShipmentsToScenario
func (s *LastMileService) AddSelectedShipments(ctx context.Context, rcID ids.RcID, opts *AddOptions) error {
	if err := check(gen.OpAddLastMileOptimizationShipmentsToScenario).rc(rcID).done(); err != nil {
		return err
	}
	body := opts.shipmentBody()
	params := &gen.AddLastMileOptimizationShipmentsToScenarioParams{RcId: rcID}
	return callEmpty(ctx, s.c, newCall(gen.OpAddLastMileOptimizationShipmentsToScenario, func(srv string) (*http.Request, error) {
		return gen.NewAddLastMileOptimizationShipmentsToScenarioRequest(srv, params, body)
	}).withBody(body))
}

// MilkRuns yields the rows of the milk runs table. opts may be nil.
//
//scm:operation getLastMileOptimizationMilkRunsTableData
func (s *LastMileService) MilkRuns(ctx context.Context, rcID ids.RcID, opts *MilkRunsOptions) iter.Seq2[gen.Row, error] {
	show, page := opts.split()
	return s.rows(ctx, milkRunsTable(show), rcID, page)
}

// MilkRunBatches yields the whole pages behind [LastMileService.MilkRuns].
//
//scm:pages getLastMileOptimizationMilkRunsTableData
func (s *LastMileService) MilkRunBatches(ctx context.Context, rcID ids.RcID, opts *MilkRunsOptions) iter.Seq2[*gen.ApiStrictTableChartData, error] {
	show, page := opts.split()
	return s.pages(ctx, milkRunsTable(show), rcID, page)
}

// SelectMilkRuns marks milk runs, by row index, to be added.
//
//scm:operation selectLastMileOptimizationMilkRunInMilkRunsTable
func (s *LastMileService) SelectMilkRuns(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, milkRunSelection.selectRows, rcID, rows)
}

// DeselectMilkRuns unmarks milk runs, by row index.
//
//scm:operation deselectLastMileOptimizationMilkRunInMilkRunsTable
func (s *LastMileService) DeselectMilkRuns(ctx context.Context, rcID ids.RcID, rows []int64) (*gen.ApiCheckUncheckResponse, error) {
	return s.selection(ctx, milkRunSelection.deselectRows, rcID, rows)
}

// AddSelectedMilkRuns adds the milk runs that are currently selected, and
// only those, to the scenario. opts may be nil.
//
//scm:operation addLastMileOptimizationMilkRunsToScenario
func (s *LastMileService) AddSelectedMilkRuns(ctx context.Context, rcID ids.RcID, opts *AddOptions) error {
	if err := check(gen.OpAddLastMileOptimizationMilkRunsToScenario).rc(rcID).done(); err != nil {
		return err
	}
	body := opts.milkRunBody()
	params := &gen.AddLastMileOptimizationMilkRunsToScenarioParams{RcId: rcID}
	return callEmpty(ctx, s.c, newCall(gen.OpAddLastMileOptimizationMilkRunsToScenario, func(srv string) (*http.Request, error) {
		return gen.NewAddLastMileOptimizationMilkRunsToScenarioRequest(srv, params, body)
	}).withBody(body))
}

// ExportShipments streams the shipments result page as a workbook.
//
//scm:operation exportLastMileOptimizationShipmentsResultsPage
func (s *LastMileService) ExportShipments(ctx context.Context, rcID ids.RcID) (*Download, error) {
	if err := check(gen.OpExportLastMileOptimizationShipmentsResultsPage).rc(rcID).done(); err != nil {
		return nil, err
	}
	params := &gen.ExportLastMileOptimizationShipmentsResultsPageParams{RcId: rcID}
	return s.c.download(ctx, newCall(gen.OpExportLastMileOptimizationShipmentsResultsPage, func(srv string) (*http.Request, error) {
		return gen.NewExportLastMileOptimizationShipmentsResultsPageRequest(srv, params)
	}))
}

// ExportMilkRuns streams the milk runs result page as a workbook.
//
//scm:operation exportLastMileOptimizationMilkRunsResultsPage
func (s *LastMileService) ExportMilkRuns(ctx context.Context, rcID ids.RcID) (*Download, error) {
	if err := check(gen.OpExportLastMileOptimizationMilkRunsResultsPage).rc(rcID).done(); err != nil {
		return nil, err
	}
	params := &gen.ExportLastMileOptimizationMilkRunsResultsPageParams{RcId: rcID}
	return s.c.download(ctx, newCall(gen.OpExportLastMileOptimizationMilkRunsResultsPage, func(srv string) (*http.Request, error) {
		return gen.NewExportLastMileOptimizationMilkRunsResultsPageRequest(srv, params)
	}))
}
