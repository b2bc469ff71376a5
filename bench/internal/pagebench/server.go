package pagebench

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/scmodel/scmgo/gen"
)

// Pages and Rows are the size of the table every run pages through, Rows
// being also the page size.
const Pages, Rows = 100, 1000

// Shape is what a row of the table holds.
type Shape struct {
	Name    string
	Cells   int    // 1: an INTEGER; 4: the fake's id, name, amount and count; more: long strings with escapes
	Unknown bool   // a field the spec does not name on every row
	Retyped string // a value of the wrong type on every row: RetypedObject or RetypedIndex
}

// The wrong-typed values of the tolerant shapes: an object where a string
// belongs (the first cell's type), and a row's index sent as a string.
const (
	RetypedObject = "object-for-string"
	RetypedIndex  = "index-as-string"
)

// TolerantShapes are the four cells of the fake with a value of the wrong
// type on every row, for the decoders that tolerate it; the plain decoders
// fail on them.
var TolerantShapes = []Shape{
	{Name: "4cells+" + RetypedObject, Cells: 4, Retyped: RetypedObject},
	{Name: "4cells+" + RetypedIndex, Cells: 4, Retyped: RetypedIndex},
}

// Shapes are the row shapes the benchmarks measure.
var Shapes = []Shape{
	{Name: "1cell", Cells: 1},
	{Name: "4cells", Cells: 4},
	{Name: "4cells+unknown", Cells: 4, Unknown: true},
	{Name: "wide-escaped", Cells: 12},
}

// Page encodes page p (from 0) of the table: Rows rows, none past Pages.
func (s Shape) Page(p int) []byte {
	page := gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Id: 101, TotalEntityCount: Pages * Rows,
		TotalTechnicalRowCount: Pages * Rows, Type: "TABLE"}
	if p < Pages {
		for i := p * Rows; i < (p+1)*Rows; i++ {
			page.EntityList = append(page.EntityList, s.row(int64(i)))
		}
	}
	b, err := json.Marshal(page)
	if err != nil {
		panic(err)
	}
	return b
}

func (s Shape) row(i int64) gen.Row {
	r := gen.Row{Index: i}
	switch {
	case s.Cells == 1:
		r.Cells = []gen.Cell{cell("INTEGER", i)}
	case s.Cells > 4:
		for c := range s.Cells {
			r.Cells = append(r.Cells, cell("STRING", escapedText(i, c)))
		}
	default:
		r.Cells = []gen.Cell{cell("STRING", "R"+strconv.FormatInt(i+1, 10)), cell("STRING", "Name "+strconv.FormatInt(i+1, 10)),
			cell("DOUBLE", float64(i%10000)+0.25), cell("INTEGER", i%1000)}
	}
	if s.Unknown {
		r.AdditionalProperties.Set("rowKey", gen.RawJSON(strconv.Quote("k"+strconv.FormatInt(i, 36))))
	}
	switch s.Retyped { // a value kept raw under a field's name is sent while the field is unset
	case RetypedObject:
		r.Cells[0].Type = nil
		r.Cells[0].AdditionalProperties.Set("type", gen.RawJSON(`{"name":"STRING","width":12}`))
	case RetypedIndex:
		r.Index = 0
		r.Set("index", gen.RawJSON(strconv.Quote(strconv.FormatInt(i, 10))))
	}
	return r
}

// escapedText is a long string that JSON escapes: quotes, backslashes,
// line breaks, a tab and letters beyond ASCII.
func escapedText(row int64, col int) string {
	return fmt.Sprintf("Line %d of \"Warehouse Süd\", column %d:\n\tC:\\data\\run-%d.xlsx — délai ≥ 2 j\r\nnotes: \"ok\"", row, col, row*7+int64(col))
}

func cell(typ string, v any) gen.Cell {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	raw := gen.RawJSON(b)
	return gen.Cell{Type: &typ, Value: &raw}
}

// NewServer serves the table of shape s under any path, answering the page
// that skip (a multiple of Rows) asks for. Close it when done.
func NewServer(s Shape) *httptest.Server {
	pages := make([][]byte, Pages+1)
	for p := range pages {
		pages[p] = s.Page(p)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(pages[min(max(skip, 0)/Rows, Pages)])
	}))
}
