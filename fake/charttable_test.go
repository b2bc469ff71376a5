package fake

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
)

// generatedChartTable answers a page the way the generated response type
// does, from gen.Row values: the reference the streamed page must match.
func generatedChartTable(t *testing.T, p chartTablePage) *httptest.ResponseRecorder {
	rows := make([]gen.Row, 0, p.to-p.from)
	for i := p.from; i < p.to; i++ {
		cells := make([]gen.Cell, len(chartColumns))
		for c, col := range chartColumns {
			cells[c] = cell(col.typ, genValue(p.seed, col, p.key, i).any())
		}
		rows = append(rows, gen.Row{Index: i, Cells: cells})
	}
	rec := httptest.NewRecorder()
	resp := genserver.GetExperimentRunResultChartTableData200JSONResponse{EntityList: rows, Id: p.chart.id,
		TotalEntityCount: p.total, TotalTechnicalRowCount: p.total, Type: "TABLE"}
	require.NoError(t, resp.VisitGetExperimentRunResultChartTableDataResponse(rec))
	return rec
}

func TestChartTablePageWritesWhatTheGeneratedTypeWrites(t *testing.T) {
	for name, p := range map[string]chartTablePage{
		"first page":            {chart: chart{id: 101, page: 1}, seed: 1, key: 10101101, from: 0, to: 10, total: 50},
		"page over many writes": {chart: chart{id: 203, page: 2}, seed: 42, key: 10101203, from: 1000, to: 3000, total: 1_000_000},
		"past the end":          {chart: chart{id: 101, page: 1}, seed: 1, key: 10101101, from: 50, to: 50, total: 50},
		"named page N":          {chart: chart{id: 701, page: 7}, seed: -3, key: 1, from: 999_990, to: 1_000_000, total: 1_000_000},
	} {
		t.Run(name, func(t *testing.T) {
			want := generatedChartTable(t, p)
			got := httptest.NewRecorder()
			require.NoError(t, p.VisitGetExperimentRunResultChartTableDataResponse(got))
			assert.Equal(t, want.Code, got.Code)
			assert.Equal(t, want.Header(), got.Header())
			assert.Equal(t, want.Body.String(), got.Body.String())
		})
	}
}

func TestValueAppendsJSONAsEncodingJSON(t *testing.T) {
	for _, v := range []value{{typ: "INTEGER"}, {typ: "INTEGER", n: -7}, {typ: "INTEGER", n: 1 << 62}, {typ: "BOOLEAN", b: true}, {typ: "BOOLEAN"},
		{typ: "DOUBLE"}, {typ: "DOUBLE", f: 1234.5}, {typ: "DOUBLE", f: -0.25}, {typ: "DOUBLE", f: 1e-7}, {typ: "DOUBLE", f: 1e21}, {typ: "DOUBLE", f: 123456789012.75},
		{typ: "STRING", label: "R", n: 1}, {typ: "STRING", label: "Name", labelSpace: true, n: 12}, {typ: "STRING", label: `quote " and \ backslash`, n: 3},
		{typ: "STRING", label: "<b>&</b>", labelSpace: true}, {typ: "STRING", label: "tab\there"}, {typ: "STRING", label: "café"}, {typ: "STRING", label: "\u2028"}} {
		want, err := json.Marshal(v.any())
		require.NoError(t, err)
		assert.Equal(t, string(want), string(v.appendJSON(nil)), "%+v", v)
	}
}

func TestAppendJSONStringQuotesAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "STRING", "Costs table 1", `a "b"`, "x<y", "naïve", "line\nbreak"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendJSONString(nil, s)), "%q", s)
	}
}
