package bench

import (
	"encoding/json"
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

// The spaced pages are the compact ones with a space after each comma and
// colon outside strings: the same value, and none inside a string.
func TestSpaceOut(t *testing.T) {
	compact := []byte(`{"a":[1,"x, y: \"z\\",{"b":null}],"c":"\\"}`)
	spaced := spaceOut(compact)
	if want := `{"a": [1, "x, y: \"z\\", {"b": null}], "c": "\\"}`; string(spaced) != want {
		t.Fatalf("spaceOut gives %s, want %s", spaced, want)
	}
	var a, b any
	if json.Unmarshal(compact, &a) != nil || json.Unmarshal(spaced, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatal("the spaced page is not the same value")
	}
}
