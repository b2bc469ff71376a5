package fake

import (
	"context"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// milkRunSize is how many orders a full milk run serves; a shorter one (the
// last) is invalid.
const milkRunSize = 3

// lastMileState is the selection state of a last mile optimization
// experiment. Shipments and milk runs are generated from the selected orders:
// a shipment per selected order, and a milk run per three consecutive
// selected orders. Generated records start selected.
type lastMileState struct {
	orders      map[int64]bool // selected order indexes
	shipmentOff map[int64]bool // order index → its shipment deselected
	milkRunOff  map[int64]bool // first order index → the milk run deselected
}

var (
	orderColumns    = []column{{"id", "Order", "STRING"}, {"customer", "Customer", "STRING"}, {"quantity", "Quantity", "INTEGER"}, {"weight", "Weight", "DOUBLE"}}
	shipmentColumns = []column{{"id", "Shipment", "STRING"}, {"order", "Order", "STRING"}, {"weight", "Weight", "DOUBLE"}}
	milkRunColumns  = []column{{"id", "Milk run", "STRING"}, {"orders", "Orders", "STRING"}, {"stops", "Stops", "INTEGER"}}
)

// lastMile returns the state of a last mile experiment and its order count
// (the rows of its scenario's Orders table).
func (w *world) lastMile(rcID int64) (*lastMileState, int64, error) {
	rc, err := w.runConfigOfType(rcID, gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return nil, 0, err
	}
	st, ok := w.lastMiles[rcID]
	if !ok {
		st = &lastMileState{orders: map[int64]bool{}, shipmentOff: map[int64]bool{}, milkRunOff: map[int64]bool{}}
		w.lastMiles[rcID] = st
	}
	var orders int64
	if t := w.scenarios[rc.scenarioID].table("Orders"); t != nil {
		orders = t.rows
	}
	return st, orders, nil
}

func (st *lastMileState) selectedOrders(total int64) []int64 {
	var out []int64
	for i := int64(0); i < total; i++ {
		if st.orders[i] {
			out = append(out, i)
		}
	}
	return out
}

func (st *lastMileState) milkRuns(total int64) [][]int64 {
	sel := st.selectedOrders(total)
	var out [][]int64
	for i := 0; i < len(sel); i += milkRunSize {
		out = append(out, sel[i:min(i+milkRunSize, len(sel))])
	}
	return out
}

func orderName(i int64) string { return "O" + itoa(i+1) }

func (w *world) orderRow(rcID, i int64, selected bool) gen.Row {
	h := mix(w.cfg.seed, rcID, i)
	return gen.Row{Index: i, Selected: ptr(selected), Cells: []gen.Cell{cell("STRING", orderName(i)),
		cell("STRING", "Customer "+itoa(int64(h%50)+1)), cell("INTEGER", int64(h%20)+1), cell("DOUBLE", round2(unit(h)*500))}}
}

func (w *world) shipmentRow(rcID int64, index, order int64, selected bool) gen.Row {
	return gen.Row{Index: index, Selected: ptr(selected), Cells: []gen.Cell{cell("STRING", "S"+itoa(order+1)),
		cell("STRING", orderName(order)), cell("DOUBLE", round2(unit(mix(w.cfg.seed, rcID, order))*500))}}
}

func milkRunRow(index int64, orders []int64, selected bool) gen.Row {
	names := make([]string, len(orders))
	for i, o := range orders {
		names[i] = orderName(o)
	}
	return gen.Row{Index: index, Selected: ptr(selected), Valid: ptr(len(orders) == milkRunSize), Cells: []gen.Cell{
		cell("STRING", "M"+itoa(index+1)), cell("STRING", strings.Join(names, ", ")), cell("INTEGER", len(orders))}}
}

func tableChart(name string, cols []column, rows []gen.Row, total int64) gen.ApiStrictTableChartData {
	return gen.ApiStrictTableChartData{Name: ptr(name), Columns: columnsOf(cols), Rows: rows, TotalRows: total}
}

func (s *service) GetLastMileOptimizationOrdersTableData(_ context.Context, req gen.GetLastMileOptimizationOrdersTableDataRequestObject) (gen.GetLastMileOptimizationOrdersTableDataResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	from, to := pageBounds(req.Params.Skip, req.Params.Take, total)
	rows := make([]gen.Row, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, w.orderRow(req.Params.RcId, i, st.orders[i]))
	}
	return gen.GetLastMileOptimizationOrdersTableData200JSONResponse(tableChart("Orders", orderColumns, rows, total)), nil
}

func (w *world) shipmentRows(rcID int64, st *lastMileState, total int64) []gen.Row {
	var rows []gen.Row
	for i, o := range st.selectedOrders(total) {
		rows = append(rows, w.shipmentRow(rcID, int64(i), o, !st.shipmentOff[o]))
	}
	return rows
}

func (w *world) milkRunRows(st *lastMileState, total int64, showInvalid bool) []gen.Row {
	var rows []gen.Row
	for i, run := range st.milkRuns(total) {
		r := milkRunRow(int64(i), run, !st.milkRunOff[run[0]])
		if showInvalid || *r.Valid {
			rows = append(rows, r)
		}
	}
	return rows
}

func (s *service) GetLastMileOptimizationShipmentsTableData(_ context.Context, req gen.GetLastMileOptimizationShipmentsTableDataRequestObject) (gen.GetLastMileOptimizationShipmentsTableDataResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	rows := w.shipmentRows(req.Params.RcId, st, total)
	return gen.GetLastMileOptimizationShipmentsTableData200JSONResponse(tableChart("Shipments", shipmentColumns, pageOf(rows, req.Params.Skip, req.Params.Take), int64(len(rows)))), nil
}

func (s *service) GetLastMileOptimizationMilkRunsTableData(_ context.Context, req gen.GetLastMileOptimizationMilkRunsTableDataRequestObject) (gen.GetLastMileOptimizationMilkRunsTableDataResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	showInvalid := req.Params.ShowInvalidRows == nil || *req.Params.ShowInvalidRows
	rows := w.milkRunRows(st, total, showInvalid)
	return gen.GetLastMileOptimizationMilkRunsTableData200JSONResponse(tableChart("Milk runs", milkRunColumns, pageOf(rows, req.Params.Skip, req.Params.Take), int64(len(rows)))), nil
}

// setMarks sets or clears the marks of the records at the given row indexes;
// keys maps a row index to the record's key, n is the row count.
func setMarks(marks map[int64]bool, rowIndexes []int64, n int64, key func(int64) int64, value bool) (int64, error) {
	for _, r := range rowIndexes {
		if r < 0 || r >= n {
			return 0, badRequest("body rowIndexes: %d is outside 0..%d", r, n-1)
		}
	}
	var changed int64
	for _, r := range rowIndexes {
		k := key(r)
		if marks[k] != value {
			changed++
		}
		if value {
			marks[k] = true
		} else {
			delete(marks, k)
		}
	}
	return changed, nil
}

func checkResponse(selected, total, changed int64) gen.ApiCheckUncheckResponse {
	return gen.ApiCheckUncheckResponse{SelectedCount: selected, TotalCount: &total, Changed: &changed}
}

// markOrders selects or deselects orders.
func (w *world) markOrders(rcID int64, body *gen.ApiIndexColumnSelection, on bool) (gen.ApiCheckUncheckResponse, error) {
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(rcID)
	if err != nil {
		return gen.ApiCheckUncheckResponse{}, err
	}
	changed, err := setMarks(st.orders, body.RowIndexes, total, func(r int64) int64 { return r }, on)
	return checkResponse(int64(len(st.orders)), total, changed), err
}

// markShipments selects or deselects shipments by their row index.
func (w *world) markShipments(rcID int64, body *gen.ApiIndexColumnSelection, on bool) (gen.ApiCheckUncheckResponse, error) {
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(rcID)
	if err != nil {
		return gen.ApiCheckUncheckResponse{}, err
	}
	sel := st.selectedOrders(total)
	changed, err := setMarks(st.shipmentOff, body.RowIndexes, int64(len(sel)), func(r int64) int64 { return sel[r] }, !on)
	return checkResponse(countSelected(w.shipmentRows(rcID, st, total)), int64(len(sel)), changed), err
}

// markMilkRuns selects or deselects milk runs by their row index.
func (w *world) markMilkRuns(rcID int64, body *gen.ApiIndexColumnSelection, on bool) (gen.ApiCheckUncheckResponse, error) {
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(rcID)
	if err != nil {
		return gen.ApiCheckUncheckResponse{}, err
	}
	runs := st.milkRuns(total)
	changed, err := setMarks(st.milkRunOff, body.RowIndexes, int64(len(runs)), func(r int64) int64 { return runs[r][0] }, !on)
	return checkResponse(countSelected(w.milkRunRows(st, total, true)), int64(len(runs)), changed), err
}

func countSelected(rows []gen.Row) int64 {
	var n int64
	for _, r := range rows {
		if r.Selected != nil && *r.Selected {
			n++
		}
	}
	return n
}

func (s *service) SelectLastMileOptimizationOrderInOrdersTable(_ context.Context, req gen.SelectLastMileOptimizationOrderInOrdersTableRequestObject) (gen.SelectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.markOrders(req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationOrderInOrdersTable(_ context.Context, req gen.DeselectLastMileOptimizationOrderInOrdersTableRequestObject) (gen.DeselectLastMileOptimizationOrderInOrdersTableResponseObject, error) {
	out, err := s.w.markOrders(req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationOrderInOrdersTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req gen.SelectLastMileOptimizationShipmentInShipmentsTableRequestObject) (gen.SelectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.markShipments(req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationShipmentInShipmentsTable(_ context.Context, req gen.DeselectLastMileOptimizationShipmentInShipmentsTableRequestObject) (gen.DeselectLastMileOptimizationShipmentInShipmentsTableResponseObject, error) {
	out, err := s.w.markShipments(req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationShipmentInShipmentsTable200JSONResponse(out), err
}

func (s *service) SelectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req gen.SelectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (gen.SelectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.markMilkRuns(req.Params.RcId, req.Body, true)
	return gen.SelectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

func (s *service) DeselectLastMileOptimizationMilkRunInMilkRunsTable(_ context.Context, req gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableRequestObject) (gen.DeselectLastMileOptimizationMilkRunInMilkRunsTableResponseObject, error) {
	out, err := s.w.markMilkRuns(req.Params.RcId, req.Body, false)
	return gen.DeselectLastMileOptimizationMilkRunInMilkRunsTable200JSONResponse(out), err
}

// addSelected adds n records to a table of the experiment's scenario.
func (w *world) addSelected(rcID, n int64, what, tableID string, replace bool) error {
	if n == 0 {
		return errorf(http.StatusConflict, "no %s are selected; nothing to add", what)
	}
	sc := w.scenarios[w.rcs[rcID].scenarioID]
	sc.addRows(tableID, n, replace)
	return nil
}

func targetTable(id *string, def string) string {
	if id != nil && *id != "" {
		return *id
	}
	return def
}

// AddLastMileOptimizationShipmentsToScenario adds exactly the selected
// shipments to the scenario's Shipments table (or targetTableId).
func (s *service) AddLastMileOptimizationShipmentsToScenario(_ context.Context, req gen.AddLastMileOptimizationShipmentsToScenarioRequestObject) (gen.AddLastMileOptimizationShipmentsToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	b := deref(req.Body)
	n := countSelected(w.shipmentRows(req.Params.RcId, st, total))
	if err := w.addSelected(req.Params.RcId, n, "shipments", targetTable(b.TargetTableId, "Shipments"), deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return gen.AddLastMileOptimizationShipmentsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

// AddLastMileOptimizationMilkRunsToScenario adds exactly the selected milk
// runs to the scenario's MilkRuns table (or targetTableId).
func (s *service) AddLastMileOptimizationMilkRunsToScenario(_ context.Context, req gen.AddLastMileOptimizationMilkRunsToScenarioRequestObject) (gen.AddLastMileOptimizationMilkRunsToScenarioResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	st, total, err := w.lastMile(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	b := deref(req.Body)
	n := countSelected(w.milkRunRows(st, total, true))
	if err := w.addSelected(req.Params.RcId, n, "milk runs", targetTable(b.TargetTableId, "MilkRuns"), deref(b.ReplaceExisting)); err != nil {
		return nil, err
	}
	return gen.AddLastMileOptimizationMilkRunsToScenariodefaultResponse{StatusCode: http.StatusOK}, nil
}

// lastMileSheet lists rows as a worksheet with a Selected column.
func lastMileSheet(name string, cols []column, rows []gen.Row) sheet {
	header := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		header = append(header, c.name)
	}
	header = append(header, "Selected")
	return sheet{name: name, header: header, rows: func(yield func([]any) bool) {
		for _, r := range rows {
			if !yield(append(rowValues(r), *r.Selected)) {
				return
			}
		}
	}}
}

func (s *service) ExportLastMileOptimizationShipmentsResultsPage(_ context.Context, req gen.ExportLastMileOptimizationShipmentsResultsPageRequestObject) (gen.ExportLastMileOptimizationShipmentsResultsPageResponseObject, error) {
	w := s.w
	w.lock()
	st, total, err := w.lastMile(req.Params.RcId)
	var rows []gen.Row
	if err == nil {
		rows = w.shipmentRows(req.Params.RcId, st, total)
	}
	w.unlock()
	if err != nil {
		return nil, err
	}
	f, n, err := writeWorkbook([]sheet{lastMileSheet("Shipments", shipmentColumns, rows)})
	if err != nil {
		return nil, err
	}
	return gen.ExportLastMileOptimizationShipmentsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}

func (s *service) ExportLastMileOptimizationMilkRunsResultsPage(_ context.Context, req gen.ExportLastMileOptimizationMilkRunsResultsPageRequestObject) (gen.ExportLastMileOptimizationMilkRunsResultsPageResponseObject, error) {
	w := s.w
	w.lock()
	st, total, err := w.lastMile(req.Params.RcId)
	var rows []gen.Row
	if err == nil {
		rows = w.milkRunRows(st, total, true)
	}
	w.unlock()
	if err != nil {
		return nil, err
	}
	f, n, err := writeWorkbook([]sheet{lastMileSheet("Milk runs", milkRunColumns, rows)})
	if err != nil {
		return nil, err
	}
	return gen.ExportLastMileOptimizationMilkRunsResultsPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}
