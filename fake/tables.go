package fake

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/scmodel/scmgo/gen"
)

// column is a column of a table the server generates.
type column struct {
	id, name, typ string // typ: STRING, INTEGER, DOUBLE or BOOLEAN
}

// catalogueTable is a table every scenario can hold.
type catalogueTable struct {
	id, name string
	rows     int64 // rows in a seeded scenario
	columns  []column
}

var (
	colID     = column{"id", "Id", "STRING"}
	colName   = column{"name", "Name", "STRING"}
	colAmount = column{"amount", "Amount", "DOUBLE"}
	colCount  = column{"count", "Count", "INTEGER"}
)

// tableCatalogue lists the importable tables, in getTablesMeta order.
var tableCatalogue = []catalogueTable{
	{"Customers", "Customers", 120, []column{colID, colName, colAmount}},
	{"Sites", "Sites", 12, []column{colID, colName, colCount}},
	{"Products", "Products", 30, []column{colID, colName, colAmount}},
	{"Demand", "Demand", 480, []column{colID, colCount, colAmount}},
	{"Vehicles", "Vehicles", 8, []column{colID, colName, colCount}},
	{"Orders", "Orders", defaultOrdersPerLMO, []column{colID, colCount, colAmount}},
	{"Shipments", "Shipments", 0, []column{colID, colCount, colAmount}},
	{"MilkRuns", "Milk runs", 0, []column{colID, colCount, colAmount}},
}

func seededTables() []tableData {
	out := make([]tableData, len(tableCatalogue))
	for i, t := range tableCatalogue {
		out[i] = tableData{id: t.id, rows: t.rows}
	}
	return out
}

func catalogueEntry(id string) (catalogueTable, bool) {
	for _, t := range tableCatalogue {
		if t.id == id {
			return t, true
		}
	}
	return catalogueTable{}, false
}

// tableMeta describes a scenario's table; tables outside the catalogue (from
// an imported workbook) have no known columns.
func tableMeta(t tableData) gen.ApiTableMeta {
	m := gen.ApiTableMeta{Id: t.id, Name: ptr(t.id), RowCount: ptr(t.rows)}
	if c, ok := catalogueEntry(t.id); ok {
		m.Name = ptr(c.name)
		props := make([]gen.ApiTableProperties, len(c.columns))
		for i, col := range c.columns {
			props[i] = gen.ApiTableProperties{Id: col.id, Name: ptr(col.name), Type: ptr(col.typ)}
		}
		m.Properties = &props
	}
	return m
}

func columnsOf(cols []column) []gen.ApiStrictClassData {
	out := make([]gen.ApiStrictClassData, len(cols))
	for i, c := range cols {
		out[i] = gen.ApiStrictClassData{Id: c.id, Name: c.name, Type: ptr(c.typ), Editable: ptr(false)}
	}
	return out
}

// pageBounds turns skip and take into the half-open range of the items
// they select among total.
func pageBounds(skip, take int32, total int64) (from, to int64) {
	from = min(int64(skip), total)
	return from, min(from+int64(take), total)
}

// pageOf returns the page of items that skip and take select.
func pageOf[T any](items []T, skip, take int32) []T {
	from, to := pageBounds(skip, take, int64(len(items)))
	return append([]T{}, items[from:to]...)
}

// mix hashes its parts with the data seed (splitmix64), the source of every
// generated value.
func mix(seed int64, parts ...int64) uint64 {
	x := uint64(seed) ^ 0x9e3779b97f4a7c15
	for _, p := range parts {
		x ^= uint64(p)
		x += 0x9e3779b97f4a7c15
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
		x = (x ^ (x >> 27)) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return x
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// round2 rounds to two decimals, so values print the same everywhere.
func round2(f float64) float64 { return math.Round(f*100) / 100 }

func cell(typ string, v any) gen.Cell {
	b, _ := json.Marshal(v)
	raw := gen.RawJSON(b)
	return gen.Cell{Type: ptr(typ), Value: &raw}
}

// value is a generated cell value of its column's type: an INTEGER n, a
// DOUBLE f, a BOOLEAN b, or a STRING made of a label and the number n ("R7",
// "Name 7"). It is kept unboxed so that rows streamed by the million cost no
// allocation.
type value struct {
	typ        string
	label      string
	labelSpace bool // a space between label and n
	n          int64
	f          float64
	b          bool
}

// genValue generates the value of column col in row i of the table key.
func genValue(seed int64, col column, key, i int64) value {
	h := mix(seed, key, i, int64(len(col.id)), int64(col.id[0]))
	switch col.typ {
	case "INTEGER":
		return value{typ: col.typ, n: int64(h % 1000)}
	case "DOUBLE":
		return value{typ: col.typ, f: round2(unit(h) * 10000)}
	case "BOOLEAN":
		return value{typ: col.typ, b: h%2 == 0}
	}
	if col.id == "id" {
		return value{typ: col.typ, label: "R", n: i + 1}
	}
	return value{typ: col.typ, label: col.name, labelSpace: true, n: i + 1}
}

// any returns the value as a Go value, for a workbook or a gen.Cell.
func (v value) any() any {
	switch v.typ {
	case "INTEGER":
		return v.n
	case "DOUBLE":
		return v.f
	case "BOOLEAN":
		return v.b
	}
	return v.text()
}

func (v value) text() string {
	if v.labelSpace {
		return v.label + " " + strconv.FormatInt(v.n, 10)
	}
	return v.label + strconv.FormatInt(v.n, 10)
}

// genValues generates row i of the table key: a value per column.
func genValues(seed int64, cols []column, key, i int64) []any {
	out := make([]any, len(cols))
	for c, col := range cols {
		out[c] = genValue(seed, col, key, i).any()
	}
	return out
}

// cellValue decodes a cell's value for a workbook.
func cellValue(c gen.Cell) any {
	if c.Value == nil {
		return nil
	}
	var v any
	_ = json.Unmarshal(*c.Value, &v)
	return v
}
