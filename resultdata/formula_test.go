package resultdata_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/resultdata"
)

// formulaChart is a chart whose every text the server names begins with
// a character a spreadsheet takes for a formula, and whose numbers are
// negative.
func formulaChart() (*resultdata.Chart, []resultdata.Row) {
	c := &resultdata.Chart{ResultID: 5001, PageID: 2, Page: "=page", Sheet: "+sheet", Type: "-type", Statistics: "@stats", Name: "\tname",
		Columns: []resultdata.Column{{Name: "\rSite", Kind: resultdata.Text}, {Name: "=Cost", Kind: resultdata.Number}, {Name: "Note", Kind: resultdata.Text}}}
	return c, []resultdata.Row{{Chart: c, Index: 1, SheetRow: 6, Values: []resultdata.Value{
		{Kind: resultdata.Text, Text: `=HYPERLINK("http://example.com/x","click")`},
		{Kind: resultdata.Number, Num: -3},
		{Kind: resultdata.Text, Text: "-3"},
	}}}
}

// What each text field begins with is neutralised by a single quote in
// CSV, by default: a cell's text, the page's, sheet's and chart's names,
// the header's names; a number, -3, is not touched.
func TestCSVNeutralisesFormulas(t *testing.T) {
	c, rows := formulaChart()
	var long, chart, keyed bytes.Buffer
	writeRows(t, resultdata.NewCSV(&long), rows)
	writeRows(t, resultdata.NewChartCSV(&chart, c), rows)
	writeRows(t, resultdata.NewKeyedCSV(&keyed, []resultdata.Key{resultdata.TextKey("item", "@item"), resultdata.IntKey("rc_id", -7)}), rows)

	records := readCSV(t, long.Bytes())
	require.Len(t, records, 4)
	assert.Equal(t, []string{"5001", "2", "'=page", "'+sheet", "'-type", "'@stats", "'\tname", "1", "6", "'\rSite", "text", "", "", `'=HYPERLINK("http://example.com/x","click")`, ""}, records[1])
	assert.Equal(t, []string{"'=Cost", "number", "-3", "", "", ""}, records[2][9:], "the number stays a number")
	assert.Equal(t, []string{"Note", "text", "", "", "'-3", ""}, records[3][9:], "a text that reads as a number is a text")

	records = readCSV(t, chart.Bytes())
	assert.Equal(t, []string{"'\rSite", "'=Cost", "Note"}, records[0][9:], "the header's names")
	assert.Equal(t, []string{`'=HYPERLINK("http://example.com/x","click")`, "-3", "'-3"}, records[1][9:])

	records = readCSV(t, keyed.Bytes())
	assert.Equal(t, []string{"'@item", "-7", "5001"}, records[1][:3], "a text key neutralised, an integer key not")
}

// CSVOptions.KeepFormulas writes the text as the server sent it.
func TestCSVKeepFormulas(t *testing.T) {
	c, rows := formulaChart()
	keep := resultdata.CSVOptions{KeepFormulas: true}
	var long, chart, keyed bytes.Buffer
	writeRows(t, keep.NewCSV(&long), rows)
	writeRows(t, keep.NewChartCSV(&chart, c), rows)
	writeRows(t, keep.NewKeyedCSV(&keyed, []resultdata.Key{resultdata.TextKey("item", "@item")}), rows)
	assert.Equal(t, []string{"5001", "2", "=page", "+sheet", "-type", "@stats", "\tname", "1", "6", "\rSite", "text", "", "", `=HYPERLINK("http://example.com/x","click")`, ""}, readCSV(t, long.Bytes())[1])
	assert.Equal(t, []string{"\rSite", "=Cost", "Note"}, readCSV(t, chart.Bytes())[0][9:])
	assert.Equal(t, "@item", readCSV(t, keyed.Bytes())[1][0])
}

// JSON Lines keeps every text exactly: it is no spreadsheet's format.
func TestJSONLKeepsFormulas(t *testing.T) {
	_, rows := formulaChart()
	var buf bytes.Buffer
	writeRows(t, resultdata.NewJSONL(&buf), rows)
	var obj map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(buf.String(), "\n", 2)[0]), &obj))
	assert.Equal(t, "=page", obj["page"])
	assert.Equal(t, "\rSite", obj["column"])
	assert.Equal(t, `=HYPERLINK("http://example.com/x","click")`, obj["text"])
}

// EscapeFormula prefixes exactly the six characters OWASP and
// csv-stringify name, and nothing else.
func TestEscapeFormula(t *testing.T) {
	for in, want := range map[string]string{
		"=1+2": "'=1+2", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"": "", "1": "1", "a=b": "a=b", " =x": " =x", "'=x": "'=x", "\nx": "\nx",
	} {
		assert.Equal(t, want, resultdata.EscapeFormula(in), "%q", in)
	}
}

func readCSV(t *testing.T, data []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	require.NoError(t, err)
	return records
}

// A formula's saved text (a cell of type str) is read as text, and its
// CSV field neutralised as any text is; the formula itself is not read.
func TestCSVNeutralisesAFormulasSavedText(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(
		`<row r="6"><c r="A6" t="str"><f>CONCAT("=","1+2")</f><v>=1+2</v></c><c r="B6"><v>-3</v></c></row>`)}}}.Bytes(t)
	var buf bytes.Buffer
	w := resultdata.NewCSV(&buf)
	for row, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(data), int64(len(data)), resultdata.Page{}, &resultdata.Options{Notes: func(resultdata.Note) {}}) {
		require.NoError(t, err)
		require.NoError(t, w.Write(row))
	}
	require.NoError(t, w.Close())
	records := readCSV(t, buf.Bytes())
	require.Len(t, records, 3)
	assert.Equal(t, []string{"Name", "text", "", "", "'=1+2", ""}, records[1][9:])
	assert.Equal(t, []string{"Value", "number", "-3", "", "", ""}, records[2][9:])
}
