package bench

import (
	"reflect"
	"testing"

	"github.com/scmodel/scmgo/bench/internal/pagebench"
	"github.com/scmodel/scmgo/gen"
)

// The bound copies exactly the rows the facade decodes, on every shape,
// and so does its copy into the layout of values.
func TestSkipCopyMakesTheDecodedRows(t *testing.T) {
	for _, shape := range append(pagebench.Shapes, pagebench.TolerantShapes...) {
		page := shape.Page(1)
		var want gen.ApiStrictTableChartData
		if err := gen.DecodeAnswer(page, &want, "page", nil); err != nil {
			t.Fatalf("%s: %v", shape.Name, err)
		}
		tmpl := templateOf(want.EntityList)
		if rows := tmpl.copy(); !reflect.DeepEqual(rows, want.EntityList) {
			t.Errorf("%s: the copy differs from the decoded rows", shape.Name)
		}
		if rows := tmpl.copyValues(); !reflect.DeepEqual(rows, asValues(want.EntityList)) {
			t.Errorf("%s: the copy into values differs from the decoded rows", shape.Name)
		}
	}
}

func asValues(rows []gen.Row) []valueRow {
	out := make([]valueRow, len(rows))
	for i, r := range rows {
		out[i] = valueRow{Index: r.Index, AdditionalProperties: r.AdditionalProperties, Cells: make([]valueCell, len(r.Cells))}
		for j, c := range r.Cells {
			v := valueCell{AdditionalProperties: c.AdditionalProperties}
			if c.Type != nil {
				v.Type = *c.Type
			}
			if c.Value != nil {
				v.Value = *c.Value
			}
			out[i].Cells[j] = v
		}
	}
	return out
}
