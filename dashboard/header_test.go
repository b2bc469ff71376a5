package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	scmlimits "github.com/scmodel/scmgo/limits"
)

// The fake's page workbook heads a table chart's sheet with the names its
// table data has no place for, and a graph chart's with the statistics'.
func TestChartHeaderFromTheFakesPage(t *testing.T) {
	srv, c := newFake(t)
	resultID := runSync(t, c, 10303)
	pages, err := c.Dashboards.Pages(testCtx(t), resultID)
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	charts := *pages[0].Charts
	require.GreaterOrEqual(t, len(charts), 2)

	names, err := ChartHeader(testCtx(t), c, resultID, pages[0], charts[0].Id, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"Id", "Name", "Amount", "Count"}, names, "chart %q, a table", charts[0].Name)

	names, err = ChartHeader(testCtx(t), c, resultID, pages[0], charts[1].Id, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"Statistics name", "Time", "Value"}, names, "chart %q, a graph", charts[1].Name)
	assert.Equal(t, 2, srv.Calls("exportDashboardPage"), "a page's export per header")
}

// chartSheet is the XML of a chart's sheet laid out as the real product's,
// its header given as cells of row 5, and rows of data below it.
func chartSheet(name, header string, data int) string {
	rows := fmt.Sprintf(`<row r="1"><c r="A1" t="inlineStr"><is><t>Type:</t></is></c><c r="B1" t="inlineStr"><is><t>TABLE</t></is></c></row>`+
		`<row r="2"><c r="A2" t="inlineStr"><is><t>Statistics:</t></is></c></row>`+
		`<row r="3"><c r="A3" t="inlineStr"><is><t>Chart name:</t></is></c><c r="B3" t="inlineStr"><is><t>%s</t></is></c></row>`+
		`<row r="5">%s</row>`, name, header)
	for i := 6; i < 6+data; i++ {
		rows += fmt.Sprintf(`<row r="%d"><c r="A%d"><v>%d</v></c></row>`, i, i, i)
	}
	return dashboardtest.SheetXML(rows)
}

// texts are inline text cells of row 5, from column A.
func texts(names ...string) string {
	var b strings.Builder
	for i, n := range names {
		fmt.Fprintf(&b, `<c r="%c5" t="inlineStr"><is><t>%s</t></is></c>`, 'A'+i, n)
	}
	return b.String()
}

// pageOf is a dashboard page listing charts named names, with ids 11, 12, ...
func pageOf(names ...string) gen.ApiDashboardPage {
	charts := make([]gen.ApiDashboardChartData, len(names))
	for i, n := range names {
		charts[i] = gen.ApiDashboardChartData{Id: int64(11 + i), Name: n}
	}
	return gen.ApiDashboardPage{Id: 1, Name: "Data", Charts: &charts}
}

func TestChartHeaderFindsTheChartsSheet(t *testing.T) {
	for name, tc := range map[string]struct {
		book  dashboardtest.Book
		page  gen.ApiDashboardPage
		chart int64
		want  []string
	}{
		"by its chart name, whatever the sheet is called": {
			book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Sheet1", XML: chartSheet("Flows", texts("From", "To"), 3)},
				{Name: "Sheet2", XML: chartSheet("Costs", texts("Id", "Cost"), 3)}}},
			page: pageOf("Flows", "Costs"), chart: 12, want: []string{"Id", "Cost"}},
		"the second chart of a name is the second sheet of it": {
			book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Notes", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(1))},
				{Name: "Lead time", XML: chartSheet("Lead time", texts("Week", "Days"), 1)},
				{Name: "Lead time (2)", XML: chartSheet("Lead time", texts("Bucket", "Count"), 1)}}},
			page: pageOf("Lead time", "Lead time"), chart: 12, want: []string{"Bucket", "Count"}},
		"a sheet without the metadata rows by its sheet name, header in row 1": {
			book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Other", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(2))},
				{Name: "Notes", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(1))},
				{Name: "Flows", XML: dashboardtest.SheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t> From </t></is></c><c r="C1" t="inlineStr"><is><t>Qty</t></is></c></row>`)}}},
			page: pageOf("Other", "Flows"), chart: 12, want: []string{"From", "", "Qty"}},
		"no sheet named so, a sheet per chart: the sheet in the chart's place": {
			book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "A", XML: chartSheet("x", texts("One"), 0)},
				{Name: "B", XML: chartSheet("y", texts("Two", "Three"), 0)}}},
			page: pageOf("First", "Second"), chart: 12, want: []string{"Two", "Three"}},
		"shared strings looked up": {
			book: dashboardtest.Book{SST: `<sst ` + dashboardtest.MainNS + `><si><t>Amount</t></si><si><t>Chart name:</t></si><si><t>Flows</t></si></sst>`,
				Sheets: []dashboardtest.Sheet{{Name: "S", XML: dashboardtest.SheetXML(`<row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3" t="s"><v>2</v></c></row>` +
					`<row r="5"><c r="A5" t="s"><v>0</v></c><c r="B5"><v>7</v></c></row>`)}}},
			page: pageOf("Flows"), chart: 11, want: []string{"Amount", "7"}},
		"rows below the header are not read": {
			book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "S", XML: strings.Replace(chartSheet("Flows", texts("Id"), 2),
				`<row r="7">`, `<row r="7"><c r="A7" t="zz"><v>1</v></c>`, 1)}}},
			page: pageOf("Flows"), chart: 11, want: []string{"Id"}},
	} {
		t.Run(name, func(t *testing.T) {
			c := onePage(t, tc.book.Bytes(t))
			got, err := ChartHeader(testCtx(t), c, 5, tc.page, tc.chart, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestChartHeaderFailures(t *testing.T) {
	twoSheets := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "A", XML: chartSheet("x", texts("One"), 0)},
		{Name: "B", XML: chartSheet("y", texts("Two"), 0)}}}
	longHeader := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Flows", XML: chartSheet("Flows", texts(strings.Repeat("n", 4000)), 0)}}}
	for name, tc := range map[string]struct {
		book  dashboardtest.Book
		page  gen.ApiDashboardPage
		chart int64
		opts  *Options
		check func(t *testing.T, err error)
	}{
		"no sheet is the chart's": {book: twoSheets, page: pageOf("Flows"), chart: 11, check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrNoChartSheet)
			assert.ErrorContains(t, err, `page 1 (Data), chart 11: no sheet of the page workbook is the chart's: 2 sheets for 1 charts, none named "Flows"`)
		}},
		"a chart the page does not list": {book: twoSheets, page: pageOf("x", "y"), chart: 99, check: func(t *testing.T, err error) {
			var v *facade.ValidationError
			require.ErrorAs(t, err, &v)
			assert.Equal(t, "chartID", v.Field)
			assert.Contains(t, v.Reason, "page 1 (Data) lists no chart 99")
		}},
		"a header held past MaxHeldBytes": {book: longHeader, page: pageOf("Flows"), chart: 11, opts: &Options{MaxHeldBytes: 1000}, check: func(t *testing.T, err error) {
			var le *scmlimits.Error
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "Options.MaxHeldBytes", le.Limit)
			assert.Contains(t, le.What, `header rows of sheet "Flows"`)
		}},
		"a download past MaxPageBytes": {book: twoSheets, page: pageOf("x", "y"), chart: 11, opts: &Options{MaxPageBytes: 100}, check: func(t *testing.T, err error) {
			var le *scmlimits.Error
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "Options.MaxPageBytes", le.Limit)
		}},
		"not a workbook": {page: pageOf("x"), chart: 11, check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrMalformed)
		}},
		"a chart's sheet without row 5": {book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Flows",
			XML: strings.Replace(chartSheet("Flows", "", 2), `<row r="5"></row>`, "", 1)}}}, page: pageOf("Flows"), chart: 11,
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, ErrMalformed)
				assert.ErrorContains(t, err, `page 1 (Data), chart 11: malformed page workbook: sheet "Flows", the chart's, has no header: row 5 names no column`)
			}},
		"a chart's row 5 of empty cells": {book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Flows",
			XML: chartSheet("Flows", texts("", " "), 2)}}}, page: pageOf("Flows"), chart: 11,
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, ErrMalformed)
				assert.ErrorContains(t, err, `has no header: row 5 names no column`)
			}},
		"a sheet without the metadata rows, nor row 1": {book: dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Flows",
			XML: dashboardtest.SheetXML(`<row r="2"><c r="A2"><v>1</v></c></row>`)}}}, page: pageOf("Flows"), chart: 11,
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, ErrMalformed)
				assert.ErrorContains(t, err, `sheet "Flows", the chart's, has no header: row 1 names no column`)
			}},
	} {
		t.Run(name, func(t *testing.T) {
			var data []byte
			if tc.book.Sheets != nil {
				data = tc.book.Bytes(t)
			} else {
				data = []byte("not a zip")
			}
			_, err := ChartHeader(testCtx(t), onePage(t, data), 5, tc.page, tc.chart, tc.opts)
			require.Error(t, err)
			tc.check(t, err)
		})
	}
}

// A refused export is the facade's error, the page named.
func TestChartHeaderExportRefused(t *testing.T) {
	c := bookStub(t, `[]`, func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"message":"Dashboard is empty","details":{}}`))
	})
	_, err := ChartHeader(testCtx(t), c, 5, pageOf("x"), 11, nil)
	var apiErr *facade.APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Contains(t, err.Error(), "page 1 (Data), chart 11")
	assert.Contains(t, err.Error(), "Dashboard is empty")
}
