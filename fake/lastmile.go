package fake

import (
	"maps"
	"os"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// milkRunSize is how many orders a full milk run serves; a shorter one (the
// last) is invalid.
const milkRunSize = 3

// lastMileTable is a table of a last mile optimization experiment whose
// records are selected and deselected by row index: the orders, and the
// shipments and milk runs generated from the selected orders. A record covers
// orders (row indexes of the scenario's Orders table) and its selection is
// kept under the first of them.
type lastMileTable struct {
	name    string // the table's name, and its workbook sheet's
	what    string // what its records are, in messages
	target  string // the scenario table the add operation adds to by default
	columns []column
	// generated tables are made from the selected orders; their records
	// start selected, orders do not.
	generated bool
	records   func(st lastMileState, orders int64) [][]int64
	row       func(w *world, rcID ids.RcID, index int64, covers []int64) gen.Row
}

var (
	lastMileOrders = &lastMileTable{name: "Orders", what: "orders",
		columns: []column{{"id", "Order", "STRING"}, {"customer", "Customer", "STRING"}, {"quantity", "Quantity", "INTEGER"}, {"weight", "Weight", "DOUBLE"}},
		records: func(_ lastMileState, orders int64) [][]int64 { return eachOrder(orders) }, row: (*world).orderRow}
	lastMileShipments = &lastMileTable{name: "Shipments", what: "shipments", target: "Shipments", generated: true,
		columns: []column{{"id", "Shipment", "STRING"}, {"order", "Order", "STRING"}, {"weight", "Weight", "DOUBLE"}},
		records: func(st lastMileState, orders int64) [][]int64 { return groups(st.selectedOrders(orders), 1) }, row: (*world).shipmentRow}
	lastMileMilkRuns = &lastMileTable{name: "Milk runs", what: "milk runs", target: "MilkRuns", generated: true,
		columns: []column{{"id", "Milk run", "STRING"}, {"orders", "Orders", "STRING"}, {"stops", "Stops", "INTEGER"}},
		records: func(st lastMileState, orders int64) [][]int64 { return groups(st.selectedOrders(orders), milkRunSize) }, row: milkRunRow}
)

func eachOrder(n int64) [][]int64 {
	out := make([][]int64, n)
	for i := range out {
		out[i] = []int64{int64(i)}
	}
	return out
}

// groups cuts orders into consecutive groups of size; the last may be
// shorter.
func groups(orders []int64, size int) [][]int64 {
	var out [][]int64
	for i := 0; i < len(orders); i += size {
		out = append(out, orders[i:min(i+size, len(orders))])
	}
	return out
}

// lastMileState is the selection state of a last mile experiment: per table
// name, the keys of the records whose selection differs from the table's
// start.
type lastMileState map[string]map[int64]bool

func (t *lastMileTable) selected(st lastMileState, key int64) bool {
	return st[t.name][key] != t.generated
}

// setSelected selects or deselects the record key and reports whether that
// changed it.
func (t *lastMileTable) setSelected(st lastMileState, key int64, on bool) bool {
	if t.selected(st, key) == on {
		return false
	}
	toggled := st[t.name]
	if toggled == nil {
		toggled = map[int64]bool{}
		st[t.name] = toggled
	}
	if on != t.generated {
		toggled[key] = true
	} else {
		delete(toggled, key)
	}
	return true
}

// clone copies the state, to read it without the world's lock.
func (st lastMileState) clone() lastMileState {
	out := make(lastMileState, len(st))
	for table, toggled := range st {
		out[table] = maps.Clone(toggled)
	}
	return out
}

func (st lastMileState) selectedOrders(orders int64) []int64 {
	var out []int64
	for i := range orders {
		if lastMileOrders.selected(st, i) {
			out = append(out, i)
		}
	}
	return out
}

// lastMile returns the state of a last mile experiment and its order count
// (the rows of its scenario's Orders table).
func (w *world) lastMile(rcID ids.RcID) (lastMileState, int64, error) {
	rc, err := w.runConfigOfType(rcID, gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return nil, 0, err
	}
	st, ok := w.lastMiles[rcID]
	if !ok {
		st = lastMileState{}
		w.lastMiles[rcID] = st
	}
	var orders int64
	if t := w.scenarios[rc.scenarioID].table("Orders"); t != nil {
		orders = t.rows
	}
	return st, orders, nil
}

func orderName(i int64) string { return "O" + itoa(i+1) }

func (w *world) orderRow(rcID ids.RcID, i int64, _ []int64) gen.Row {
	h := mix(w.cfg.seed, int64(rcID), i)
	return gen.Row{Index: i, Cells: []gen.Cell{cell("STRING", orderName(i)),
		cell("STRING", "Customer "+itoa(int64(h%50)+1)), cell("INTEGER", int64(h%20)+1), cell("DOUBLE", round2(unit(h)*500))}}
}

func (w *world) shipmentRow(rcID ids.RcID, index int64, covers []int64) gen.Row {
	order := covers[0]
	return gen.Row{Index: index, Cells: []gen.Cell{cell("STRING", "S"+itoa(order+1)),
		cell("STRING", orderName(order)), cell("DOUBLE", round2(unit(mix(w.cfg.seed, int64(rcID), order))*500))}}
}

func milkRunRow(_ *world, _ ids.RcID, index int64, orders []int64) gen.Row {
	names := make([]string, len(orders))
	for i, o := range orders {
		names[i] = orderName(o)
	}
	return gen.Row{Index: index, Valid: ptr(len(orders) == milkRunSize), Cells: []gen.Cell{
		cell("STRING", "M"+itoa(index+1)), cell("STRING", strings.Join(names, ", ")), cell("INTEGER", len(orders))}}
}

// lastMileRow is row index of the table, with its selection.
func (w *world) lastMileRow(t *lastMileTable, rcID ids.RcID, st lastMileState, index int64, covers []int64) gen.Row {
	r := t.row(w, rcID, index, covers)
	r.Selected = ptr(t.selected(st, covers[0]))
	return r
}

// lastMilePage answers a page of the rows of a table whose records keep
// accepts (nil accepts all); rows keep their index in the whole table.
// The lock is held only to copy the selection: the table is built outside
// it.
func (w *world) lastMilePage(t *lastMileTable, rcID ids.RcID, skip, take int32, keep func([]int64) bool) (gen.ApiStrictTableChartData, error) {
	w.lock()
	st, orders, err := w.lastMile(rcID)
	st = st.clone()
	w.unlock()
	if err != nil {
		return gen.ApiStrictTableChartData{}, err
	}
	records := t.records(st, orders)
	var kept []int64
	for i, rec := range records {
		if keep == nil || keep(rec) {
			kept = append(kept, int64(i))
		}
	}
	from, to := pageBounds(skip, take, int64(len(kept)))
	rows := make([]gen.Row, 0, to-from)
	for _, i := range kept[from:to] {
		rows = append(rows, w.lastMileRow(t, rcID, st, i, records[i]))
	}
	n := int64(len(kept))
	return gen.ApiStrictTableChartData{EntityList: rows, Id: int64(rcID), TotalEntityCount: n, TotalTechnicalRowCount: n, Type: "TABLE"}, nil
}

// lastMileMark selects or deselects the records of a table at the body's
// row indexes.
func (w *world) lastMileMark(t *lastMileTable, rcID ids.RcID, body *gen.ApiIndexColumnSelection, on bool) (gen.ApiCheckUncheckResponse, error) {
	w.lock()
	defer w.unlock()
	st, orders, err := w.lastMile(rcID)
	if err != nil {
		return gen.ApiCheckUncheckResponse{}, err
	}
	records := t.records(st, orders)
	total := int64(len(records))
	for _, r := range body.RowIndexes {
		if r < 0 || r >= total {
			return gen.ApiCheckUncheckResponse{}, failure("body rowIndexes: %d is outside 0..%d", r, total-1)
		}
	}
	var changed int64
	for _, r := range body.RowIndexes {
		if t.setSelected(st, records[r][0], on) {
			changed++
		}
	}
	return gen.ApiCheckUncheckResponse{SelectedCount: t.countSelected(st, records), TotalCount: &total, Changed: &changed}, nil
}

func (t *lastMileTable) countSelected(st lastMileState, records [][]int64) int64 {
	var n int64
	for _, rec := range records {
		if t.selected(st, rec[0]) {
			n++
		}
	}
	return n
}

// lastMileAdd adds as many rows as the table has selected records to a
// table of the experiment's scenario: targetTableID, or the table's target.
func (w *world) lastMileAdd(t *lastMileTable, rcID ids.RcID, targetTableID *string, replace bool) error {
	w.lock()
	defer w.unlock()
	st, orders, err := w.lastMile(rcID)
	if err != nil {
		return err
	}
	n := t.countSelected(st, t.records(st, orders))
	if n == 0 {
		return failure("no %s are selected; nothing to add", t.what)
	}
	target := t.target
	if targetTableID != nil && *targetTableID != "" {
		target = *targetTableID
	}
	w.scenarios[w.rcs[rcID].scenarioID].addRows(target, n, replace)
	return nil
}

// lastMileExport writes every row of a table, with a Selected column, to a
// workbook; the lock is not held while it is written.
func (w *world) lastMileExport(t *lastMileTable, rcID ids.RcID) (*os.File, int64, error) {
	w.lock()
	st, orders, err := w.lastMile(rcID)
	var rows []gen.Row
	if err == nil {
		for i, rec := range t.records(st, orders) {
			rows = append(rows, w.lastMileRow(t, rcID, st, int64(i), rec))
		}
	}
	w.unlock()
	if err != nil {
		return nil, 0, err
	}
	return writeWorkbook([]sheet{lastMileSheet(t.name, t.columns, rows)})
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
