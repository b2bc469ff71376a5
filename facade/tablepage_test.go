package facade

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

var tablePageCases = []string{
	`{"columns":[{"id":"a","name":"A","type":"STRING"}],"rows":[{"index":0,"cells":[{"type":"STRING","value":"x"},{"value":12345678901234567890}],"selected":true}],"totalRows":1}`,
	`{"chartId":101,"name":"T","columns":[],"rows":[],"totalRows":0,"sort":[{"columnId":"a","ascending":true}]}`,
	`{"rows":[{"index":1,"cells":[{"value":null},{"type":null}],"valid":false}],"totalRows":3,"columns":null}`,
	`{"rows":[{"index":1,"cells":[],"extra":"kept"}],"totalRows":1,"columns":[]}`,         // unknown row field
	`{"rows":[{"index":1,"cells":[{"value":1,"unit":"kg"}]}],"totalRows":1,"columns":[]}`, // unknown cell field
	`{"rows":[],"totalRows":0,"columns":[],"futureField":{"a":1}}`,                        // unknown page field
	`{"rows":[{"Index":7,"cells":[]}],"totalRows":1,"columns":[]}`,                        // a key in another case
	`{"rows":[{"index":7,"cells":[{"Value":1}]}],"totalRows":1,"columns":[]}`,
	`{"ROWS":[],"totalRows":1,"columns":[]}`,
	`{"rows":[{"ind\u0065x":7,"cells":[]}],"totalRows":1,"columns":[]}`,
	`{"rows":[{"index":1,"index":2,"cells":[]}],"totalRows":1,"columns":[]}`,
	`{"rows":[{"index":"one","cells":[]}],"totalRows":1,"columns":[]}`,
	`{"rows":[],"totalRows":1,"columns":[]} trailing`,
	`{"rows":[],"totalRows":1,"columns":[]}   `,
	`{"rows":[{"index":1,"cells":[{"value":[1,{"a":"]"}]}]}],"totalRows":1,"columns":[]}`,
	`[]`,
	`null`,
	``,
}

// sameAsGenerated decodes body with the fast path and with the generated
// decoder and fails unless both give the same page or both fail.
func sameAsGenerated[P any](t *testing.T, body []byte) {
	t.Helper()
	var fast, slow P
	fastErr := decodePage(body, &fast)
	slowErr := json.Unmarshal(body, &slow)
	require.Equal(t, slowErr == nil, fastErr == nil, "errors differ for %q: fast %v, generated %v", body, fastErr, slowErr)
	if slowErr != nil {
		return
	}
	fastJSON, err := json.Marshal(fast)
	require.NoError(t, err)
	slowJSON, err := json.Marshal(slow)
	require.NoError(t, err)
	require.Equal(t, string(slowJSON), string(fastJSON), "pages differ for %q", body)
	assert.Equal(t, slow, fast, "%q", body)
}

func TestFastTablePagesDecodeAsTheGeneratedModels(t *testing.T) {
	for _, body := range tablePageCases {
		sameAsGenerated[*gen.ApiStrictTableChartData](t, []byte(body))
		sameAsGenerated[*gen.ApiStrictTableData](t, []byte(body))
	}
}

// The fast path is taken for pages of known fields only.
func TestFastPathIsTakenOnlyForKnownFields(t *testing.T) {
	var f fastChartTable
	assert.True(t, decodeKnown([]byte(tablePageCases[0]), chartTableKeys, &f))
	for _, i := range []int{3, 4, 5, 6, 7, 8, 9, 12} {
		assert.False(t, decodeKnown([]byte(tablePageCases[i]), chartTableKeys, &fastChartTable{}), tablePageCases[i])
	}
}

func FuzzFastTablePage(f *testing.F) {
	for _, body := range tablePageCases {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsGenerated[*gen.ApiStrictTableChartData](t, body)
		sameAsGenerated[*gen.ApiStrictTableData](t, body)
	})
}
