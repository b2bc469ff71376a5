package resultdata_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/resultdata"
)

// oddChart is a chart whose names and values need quoting and escaping.
func oddChart() (*resultdata.Chart, []resultdata.Row) {
	c := &resultdata.Chart{ResultID: 5001, PageID: 2, Page: `Costs, "all"`, Sheet: "Line\nbreak", Type: "Table",
		Columns: []resultdata.Column{{Name: "Site", Kind: resultdata.Text}, {Name: "When", Kind: resultdata.Time},
			{Name: "Cost", Kind: resultdata.Number}, {Name: "page", Kind: resultdata.Bool}}}
	when := time.Date(2024, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	return c, []resultdata.Row{
		{Chart: c, Index: 1, SheetRow: 6, Values: []resultdata.Value{{Kind: resultdata.Text, Text: "Rome \"A\"\x01é"},
			{Kind: resultdata.Time, Time: when}, {Kind: resultdata.Number, Num: 1e21}, {Kind: resultdata.Bool, Bool: true}}},
		{Chart: c, Index: 2, SheetRow: 7, Values: []resultdata.Value{{}, {}, {Kind: resultdata.Number, Num: math.NaN()}, {}}},
	}
}

func writeRows(t *testing.T, rw resultdata.RowWriter, rows []resultdata.Row) {
	t.Helper()
	for _, r := range rows {
		require.NoError(t, rw.Write(r))
	}
	require.NoError(t, rw.Close())
}

// The long layout as CSV: RFC 4180 (a header, CRLF, quoted where a field
// holds a comma, a quote or a line break), a record per value that is not
// empty, the value in its kind's column and the others empty.
func TestCSVLong(t *testing.T) {
	_, rows := oddChart()
	var buf bytes.Buffer
	writeRows(t, resultdata.NewCSV(&buf), rows)
	assert.Equal(t, strings.Join([]string{
		"result_id,page_id,page,sheet,chart_type,statistics,chart_name,row,sheet_row,column,kind,number,time,text,bool",
		`5001,2,"Costs, ""all""","Line` + "\n" + `break",Table,,,1,6,Site,text,,,"Rome ""A""` + "\x01é\",",
		`5001,2,"Costs, ""all""","Line` + "\n" + `break",Table,,,1,6,When,time,,2024-01-02 03:04:05.6,,`,
		`5001,2,"Costs, ""all""","Line` + "\n" + `break",Table,,,1,6,Cost,number,1e+21,,,`,
		`5001,2,"Costs, ""all""","Line` + "\n" + `break",Table,,,1,6,page,bool,,,,true`,
		`5001,2,"Costs, ""all""","Line` + "\n" + `break",Table,,,2,7,Cost,number,,,,`,
		""}, "\r\n"), buf.String())
	records, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	assert.Len(t, records, 6)
}

// The long layout as JSON Lines: an object per value with every column,
// null where it has no value; strings escaped as JSON has them.
func TestJSONLLong(t *testing.T) {
	_, rows := oddChart()
	var buf bytes.Buffer
	writeRows(t, resultdata.NewJSONL(&buf), rows)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 5)
	assert.Equal(t, `{"result_id":5001,"page_id":2,"page":"Costs, \"all\"","sheet":"Line\nbreak","chart_type":"Table","statistics":"","chart_name":"","row":1,"sheet_row":6,"column":"Site","kind":"text","number":null,"time":null,"text":"Rome \"A\"\u0001é","bool":null}`, lines[0])
	assert.Contains(t, lines[1], `"time":"2024-01-02T03:04:05.6"`)
	assert.Contains(t, lines[2], `"number":1e+21`)
	assert.Contains(t, lines[4], `"column":"Cost","kind":"number","number":null`, "NaN is null")
	for _, l := range lines {
		var obj map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &obj), l)
		assert.Len(t, obj, len(resultdata.LongColumns))
	}
}

// The chart layout: the provenance columns, then the chart's columns, a
// name already taken numbered; a row of another chart is refused.
func TestChartLayout(t *testing.T) {
	c, rows := oddChart()
	assert.Equal(t, append(append([]string{}, resultdata.ChartColumns...), "Site", "When", "Cost", "page (2)"), resultdata.WideColumns(c))
	var buf bytes.Buffer
	writeRows(t, resultdata.NewChartCSV(&buf, c), rows)
	records, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, 3)
	assert.Equal(t, []string{"Rome \"A\"\x01é", "2024-01-02 03:04:05.6", "1e+21", "true"}, records[1][9:])
	assert.Equal(t, []string{"", "", "", ""}, records[2][9:])

	buf.Reset()
	writeRows(t, resultdata.NewChartJSONL(&buf, c), rows)
	assert.Contains(t, buf.String(), `"row":2,"sheet_row":7,"Site":null,"When":null,"Cost":null,"page (2)":null}`)

	other := *c
	err = resultdata.NewChartCSV(&buf, c).Write(resultdata.Row{Chart: &other})
	var ce *resultdata.ChartError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Line\nbreak", ce.Want.Sheet)
}

// FileName makes a file name of a chart's page and sheet.
func TestFileName(t *testing.T) {
	assert.Equal(t, "Costs - Costs table 1", resultdata.FileName(&resultdata.Chart{Page: "Costs", Sheet: "Costs table 1"}))
	assert.Equal(t, "Costs", resultdata.FileName(&resultdata.Chart{Page: "Costs", Sheet: "Costs"}))
	assert.Equal(t, "a_b - c_d_", resultdata.FileName(&resultdata.Chart{Page: "a/b", Sheet: "c:d?"}))
	assert.Equal(t, "chart", resultdata.FileName(&resultdata.Chart{}))
	assert.Len(t, resultdata.FileName(&resultdata.Chart{Sheet: strings.Repeat("é", 100)}), 120)
}

// The long layout with keys: the keys' columns first, their values in
// every record; an integer key is a number, a text key quoted as any text.
func TestKeyedLong(t *testing.T) {
	_, rows := oddChart()
	keys := []resultdata.Key{resultdata.TextKey("item", `high, "demand"`), resultdata.IntKey("scenario_id", 101)}
	assert.Equal(t, append([]string{"item", "scenario_id"}, resultdata.LongColumns...), resultdata.KeyedColumns(keys))

	var buf bytes.Buffer
	writeRows(t, resultdata.NewKeyedCSV(&buf, keys), rows)
	records, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, 6)
	assert.Equal(t, resultdata.KeyedColumns(keys), records[0])
	for _, rec := range records[1:] {
		assert.Equal(t, []string{`high, "demand"`, "101", "5001"}, rec[:3])
		assert.Len(t, rec, len(records[0]))
	}
	assert.Equal(t, []string{"Cost", "number", "1e+21", "", "", ""}, records[3][11:], "the value in its kind's column")

	buf.Reset()
	writeRows(t, resultdata.NewKeyedJSONL(&buf, keys), rows)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasPrefix(lines[0], `{"item":"high, \"demand\"","scenario_id":101,"result_id":5001,"page_id":2,`), lines[0])
	for _, l := range lines {
		var obj map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &obj), l)
		assert.Len(t, obj, len(resultdata.KeyedColumns(keys)))
	}

	buf.Reset()
	writeRows(t, resultdata.NewKeyedCSV(&buf, keys), nil)
	assert.Equal(t, strings.Join(resultdata.KeyedColumns(keys), ",")+"\r\n", buf.String(), "no rows: the header alone")
}
