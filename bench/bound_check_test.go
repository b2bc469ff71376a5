package bench

import (
	"reflect"
	"testing"

	"github.com/scmodel/scmgo/bench/internal/pagebench"
	"github.com/scmodel/scmgo/gen"
)

// The bound copies exactly the rows the facade decodes, on every shape.
func TestSkipCopyMakesTheDecodedRows(t *testing.T) {
	for _, shape := range append(pagebench.Shapes, pagebench.TolerantShapes...) {
		page := shape.Page(1)
		var want gen.ApiStrictTableChartData
		if err := gen.DecodeAnswer(page, &want, "page", nil); err != nil {
			t.Fatalf("%s: %v", shape.Name, err)
		}
		if rows := templateOf(want.EntityList).copy(); !reflect.DeepEqual(rows, want.EntityList) {
			t.Errorf("%s: the copy differs from the decoded rows", shape.Name)
		}
	}
}
