package fake_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// The table data of every chart, a table or a graph, has the columns its
// sheet in the page workbook names (row 5) and the rows under them (row 6
// on): a client that names the table's columns by the workbook's header
// names them right.
func TestChartTableDataHasTheColumnsOfItsSheet(t *testing.T) {
	e := setup(t, fake.WithLicense(), fake.WithResultSize(1, 2, 5))
	_, resultID := e.run(t, rcGFA)
	r, err := e.c.ExportDashboardPageWithResponse(e.ctx, &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: ids.PageID(resultID + 2)})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode())
	f := openWorkbook(t, r.Body)
	sheets := f.GetSheetList()
	require.Equal(t, []string{"Overview table 1", "Overview line 2"}, sheets)
	for i, sheet := range sheets {
		rows, err := f.GetRows(sheet)
		require.NoError(t, err)
		table, err := e.c.GetExperimentRunResultChartTableDataWithResponse(e.ctx, &gen.GetExperimentRunResultChartTableDataParams{RcId: rcGFA, ChartId: int64(101 + i), Take: 1000})
		require.NoError(t, err)
		require.NotNil(t, table.JSON200, string(table.Body))
		data := table.JSON200.EntityList
		require.Equal(t, len(rows)-5, len(data), "%s: a row of table data per row under the header", sheet)
		for j, row := range data {
			require.Len(t, row.Cells, len(rows[4]), "%s: row %d has a cell per name of the header %v", sheet, j, rows[4])
			var first string
			require.NoError(t, json.Unmarshal(*row.Cells[0].Value, &first))
			assert.Equal(t, rows[5+j][0], first, "%s: row %d", sheet, j)
		}
	}
}
