package facade

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// A variationId goes on the wire as the operation defines it: new for
// ids.NewVariation where a string is taken, the decimal id otherwise; an
// objectId as the text it is; every id as its number.
func TestVariationIDsOnTheWire(t *testing.T) {
	var (
		mu      sync.Mutex
		queries []string
	)
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`true`))
	})
	sel := gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}}
	ref := ParameterRef{ObjectTypeID: "SiteData_SIM_FULL", ObjectID: "103", ParameterID: "period"}
	cases := []struct {
		call func() error
		want string
	}{
		{func() error {
			_, err := c.Variations.HasSelectedData(testCtx(t), 10105, "103", ids.NewVariation)
			return err
		},
			"objectId=103&rcId=10105&variationId=new"},
		{func() error { _, err := c.Variations.HasSelectedData(testCtx(t), 10105, "103", 3001); return err },
			"objectId=103&rcId=10105&variationId=3001"},
		{func() error {
			_, err := c.Variations.UpdateSelection(testCtx(t), 10105, ids.NewVariation, ref, sel)
			return err
		},
			"objectId=103&objectTypeId=SiteData_SIM_FULL&parameterId=period&rcId=10105&variationId=new"},
		{func() error { _, err := c.Variations.UpdateSelection(testCtx(t), 10105, 3001, ref, sel); return err },
			"objectId=103&objectTypeId=SiteData_SIM_FULL&parameterId=period&rcId=10105&variationId=3001"},
	}
	for i, tc := range cases {
		require.NoError(t, tc.call(), "case %d", i)
		mu.Lock()
		assert.Equal(t, tc.want, queries[len(queries)-1], "case %d", i)
		mu.Unlock()
	}
}
