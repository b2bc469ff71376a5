package dashboard

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
)

// A page workbook written the usual way (excelize's SetCellValue: shared
// strings, styles, dates, booleans, rich text, formulas) is merged cell for
// cell: every cell reads the same, raw, in the merged sheet as in the page,
// and keeps its type.
func TestExportKeepsEveryKindOfCell(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	style, err := f.NewStyle(&excelize.Style{NumFmt: 14, Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	cells := map[string]any{
		"A1": "shared text", "B1": "shared text", "C1": 42, "D1": 3.25, "E1": -1.5e-7, "F1": true, "G1": false,
		"A2": " spaces around ", "B2": "a & b < c > d", "C2": "line\nbreak", "D2": "tab\there", "E2": "Ünïcødé 😀",
		"A3": time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC), "B3": "00123", "C3": "1.50", "D3": "", "H7": "far away",
		"A4": strings.Repeat("long text ", 3000),
	}
	for ref, v := range cells {
		require.NoError(t, f.SetCellValue("Sheet1", ref, v))
	}
	require.NoError(t, f.SetCellStyle("Sheet1", "A3", "A3", style))
	require.NoError(t, f.SetCellRichText("Sheet1", "B4", []excelize.RichTextRun{{Text: "bold", Font: &excelize.Font{Bold: true}}, {Text: " and plain"}}))
	require.NoError(t, f.SetCellFormula("Sheet1", "C4", "C1*2"))
	require.NoError(t, f.SetCellFormula("Sheet1", "D4", "1/0"))
	var page bytes.Buffer
	_, err = f.WriteTo(&page)
	require.NoError(t, err)
	data := page.Bytes()

	var out bytes.Buffer
	require.NoError(t, Export(testCtx(t), onePage(t, data), 5, &out, nil))
	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	want, err := f.GetRows("Sheet1", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	got, err := merged.GetRows("Data", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	assert.Equal(t, trimRows(want), got, "formulas without a saved value give no cell")
	for ref, typ := range map[string]excelize.CellType{
		"A1": excelize.CellTypeInlineString, "C1": excelize.CellTypeUnset, "F1": excelize.CellTypeBool,
		"A3": excelize.CellTypeUnset, "B3": excelize.CellTypeInlineString, "C3": excelize.CellTypeInlineString,
	} {
		got, err := merged.GetCellType("Data", ref)
		require.NoError(t, err)
		assert.Equal(t, typ, got, "cell %s", ref)
	}
}

// Cells of each type attribute, as other writers write them: a formula's
// text (str), an error value (e), an ISO date (d), a number with spaces
// around it, rich inline text with a phonetic run, a CDATA section, a
// comment, character references, elements with a prefix, and cells
// without positions.
func TestExportReadsOtherWritersCells(t *testing.T) {
	rows := `<x:row r="1"><x:c r="A1" t="str"><x:f>CONCAT("a","b")</x:f><x:v>ab</x:v></x:c><x:c r="B1" t="e"><x:v>#DIV/0!</x:v></x:c>` +
		`<x:c r="C1" t="d"><x:v>2026-03-04T12:00:00</x:v></x:c><x:c r="D1"><x:v> 12.5 </x:v></x:c><x:c r="E1" t="b"><x:v>true</x:v></x:c></x:row>` +
		`<x:row><x:c t="inlineStr"><x:is><x:r><x:rPr><x:b/></x:rPr><x:t>ri</x:t></x:r><x:r><x:t xml:space="preserve">ch </x:t></x:r><x:rPh sb="0" eb="1"><x:t>PHONETIC</x:t></x:rPh></x:is></x:c>` +
		`<x:c t="inlineStr"><x:is><x:t><![CDATA[<cdata & more>]]></x:t></x:is></x:c><!-- a comment --><x:c t="inlineStr"><x:is><x:t>&#x1F600;&#65;&lt;&apos;&quot;</x:t></x:is></x:c>` +
		`<x:c r="F2" t="n"><x:v>1E+3</x:v></x:c><x:c r="G2"><x:v>not a number</x:v></x:c><x:c r="H2" s="3"/></x:row>`
	xml := `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` + rows + `</x:sheetData></x:worksheet>`
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: xml}}}.Bytes(t)
	var out bytes.Buffer
	require.NoError(t, Export(testCtx(t), onePage(t, data), 5, &out, nil))
	merged, err := excelize.OpenReader(&out)
	require.NoError(t, err)
	defer merged.Close()
	got, err := merged.GetRows("Data", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	assert.Equal(t, [][]string{
		{"ab", "#DIV/0!", "2026-03-04T12:00:00", "12.5", "1"},
		{"rich ", "<cdata & more>", "😀A<'\"", "", "", "1E+3", "not a number"},
	}, got)
	for ref, typ := range map[string]excelize.CellType{
		"A1": excelize.CellTypeInlineString, "B1": excelize.CellTypeError, "D1": excelize.CellTypeUnset,
		"E1": excelize.CellTypeBool, "F2": excelize.CellTypeUnset, "G2": excelize.CellTypeInlineString,
	} {
		got, err := merged.GetCellType("Data", ref)
		require.NoError(t, err)
		assert.Equal(t, typ, got, "cell %s", ref)
	}
}

// trimRows drops the empty cells that end each row.
func trimRows(rows [][]string) [][]string {
	for i, r := range rows {
		for len(r) > 0 && r[len(r)-1] == "" {
			r = r[:len(r)-1]
		}
		rows[i] = r
	}
	return rows
}
