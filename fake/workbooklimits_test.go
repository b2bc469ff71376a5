package fake_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// inflating is a part's content as a prefix, a pattern repeated n times
// and a suffix: the shape of a zip bomb.
type inflating struct {
	prefix  string
	pattern string
	n       int64
	suffix  string
}

func (c inflating) size() int64 {
	return int64(len(c.prefix)) + c.n*int64(len(c.pattern)) + int64(len(c.suffix))
}

// bombChunk is about how much of the repeated pattern is compressed once.
const bombChunk = 64 << 10

// deflate compresses c without ever holding its inflated bytes: a chunk of
// the repeated pattern is compressed once and its compressed bytes
// repeated. Each piece is flushed (not closed), so the pieces concatenate
// into one deflate stream whose back-references stay inside their piece;
// an empty final block ends it. It returns the stream and the CRC-32 of the
// inflated content.
func deflate(tb testing.TB, c inflating) ([]byte, uint32) {
	tb.Helper()
	var out bytes.Buffer
	crc := uint32(0)
	piece := func(b []byte, final bool) {
		fw, err := flate.NewWriter(&out, flate.BestCompression)
		require.NoError(tb, err)
		_, err = fw.Write(b)
		require.NoError(tb, err)
		if final {
			require.NoError(tb, fw.Close())
		} else {
			require.NoError(tb, fw.Flush())
		}
		crc = crc32.Update(crc, crc32.IEEETable, b)
	}
	piece([]byte(c.prefix), false)
	per := max(1, bombChunk/int64(max(len(c.pattern), 1)))
	chunk := []byte(strings.Repeat(c.pattern, int(min(per, c.n))))
	if full := c.n / per; full > 0 {
		start := out.Len()
		piece(chunk, false)
		compressed := append([]byte(nil), out.Bytes()[start:]...)
		for range full - 1 {
			out.Write(compressed)
			crc = crc32.Update(crc, crc32.IEEETable, chunk)
		}
	}
	if rest := c.n % per; rest > 0 {
		piece(chunk[:rest*int64(len(c.pattern))], false)
	}
	piece([]byte(c.suffix), true)
	return out.Bytes(), crc
}

// bombWorkbook is a genuine workbook (the package and workbook parts,
// their relationships) whose sheets' parts are the given contents, written
// with honest sizes and checksums.
func bombWorkbook(tb testing.TB, sheets ...inflating) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var list, rels strings.Builder
	for i := range sheets {
		n := itoa(int64(i + 1))
		list.WriteString(`<sheet name="S` + n + `" sheetId="` + n + `" r:id="rId` + n + `"/>`)
		rels.WriteString(`<Relationship Id="rId` + n + `" Type="worksheet" Target="worksheets/sheet` + n + `.xml"/>`)
	}
	for name, content := range map[string]string{
		"_rels/.rels":                `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<workbook xmlns:r="urn:r"><sheets>` + list.String() + `</sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships>` + rels.String() + `</Relationships>`,
	} {
		w, err := zw.Create(name)
		require.NoError(tb, err)
		_, err = w.Write([]byte(content))
		require.NoError(tb, err)
	}
	for i, c := range sheets {
		data, crc := deflate(tb, c)
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet" + itoa(int64(i+1)) + ".xml", Method: zip.Deflate,
			CRC32: crc, CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(c.size())})
		require.NoError(tb, err)
		_, err = w.Write(data)
		require.NoError(tb, err)
	}
	require.NoError(tb, zw.Close())
	return buf.Bytes()
}

// The shapes of worksheet the bombs take.
func hugeText(n int64) inflating {
	return inflating{`<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>`, "a", n, `</t></is></c></row></sheetData></worksheet>`}
}

func hugeAttribute(n int64) inflating {
	return inflating{`<worksheet><sheetData><row r="1" spans="`, "a", n, `"/></sheetData></worksheet>`}
}

// manyCells is one row of empty cells, about n bytes: many small tokens.
func manyCells(n int64) inflating {
	return inflating{`<worksheet><sheetData><row r="1">`, "<c/>", n / 4, `</row></sheetData></worksheet>`}
}

// emptyRows is n rows without cells.
func emptyRows(n int64) inflating {
	return inflating{`<worksheet><sheetData>`, "<row/>", n, `</sheetData></worksheet>`}
}

// importWorkbook uploads file to importExcel on h in process and returns
// the answer.
func importWorkbook(tb testing.TB, h http.Handler, file []byte) *httptest.ResponseRecorder {
	tb.Helper()
	ct, body := form(tb, [][2]string{{"projectId", "1"}, {"newScenarioName", "Bomb"}}, "bomb.xlsx", file)
	req := httptest.NewRequestWithContext(tb.Context(), http.MethodPost, fake.BasePath+"/open/import/import-excel", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", fake.DefaultAPIKey)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Zip bombs are refused with 400 naming the form field and the limit they
// pass, without the heap growing with what they inflate to (they would take
// gigabytes): a part that declares too much is refused before it is
// inflated, the others as soon as they pass a limit.
// BenchmarkWorkbookBomb reports the time and memory.
func TestWorkbookBombsAreRefused(t *testing.T) {
	small := fake.WorkbookLimits{TotalBytes: 256 << 10}
	for name, tc := range map[string]struct {
		sheets []inflating
		limits fake.WorkbookLimits
		want   string
	}{
		"huge text node (100 MiB)": {[]inflating{hugeText(100 << 20)}, fake.WorkbookLimits{},
			`form field file: sheet "S1": part xl/worksheets/sheet1.xml holds an XML token (a text or a tag) of more than 1 MiB: over the limit WorkbookLimits.TokenBytes`},
		"huge attribute (100 MiB)": {[]inflating{hugeAttribute(100 << 20)}, fake.WorkbookLimits{},
			`sheet "S1": part xl/worksheets/sheet1.xml holds an XML token (a text or a tag) of more than 1 MiB: over the limit WorkbookLimits.TokenBytes`},
		"huge attribute (512 MiB)": {[]inflating{hugeAttribute(512 << 20)}, fake.WorkbookLimits{},
			`sheet "S1": part xl/worksheets/sheet1.xml inflates to more than 128 MiB: over the limit WorkbookLimits.PartBytes`},
		"100,000,000 empty rows": {[]inflating{emptyRows(100_000_000)}, fake.WorkbookLimits{},
			`sheet "S1": part xl/worksheets/sheet1.xml inflates to more than 128 MiB: over the limit WorkbookLimits.PartBytes`},
		"a row numbered past Excel's last": {[]inflating{{`<worksheet><sheetData><row r="1048577"/>`, "", 0, `</sheetData></worksheet>`}},
			fake.WorkbookLimits{}, `sheet "S1": the sheet holds more than 1048576 rows: over the limit WorkbookLimits.RowsPerSheet`},
		"3,000,000 empty rows over a set limit": {[]inflating{emptyRows(3_000_000)}, fake.WorkbookLimits{RowsPerSheet: 1000},
			`sheet "S1": the sheet holds more than 1000 rows: over the limit WorkbookLimits.RowsPerSheet`},
		"rows numbered past the limit": {[]inflating{{`<worksheet><sheetData><row r="11"/>`, "", 0, `</sheetData></worksheet>`}},
			fake.WorkbookLimits{RowsPerSheet: 10}, `sheet "S1": the sheet holds more than 10 rows: over the limit WorkbookLimits.RowsPerSheet`},
		"sheets over a set total": {[]inflating{manyCells(150 << 10), manyCells(150 << 10)}, small,
			`sheet "S2": the parts read inflate to more than 262144 bytes: over the limit WorkbookLimits.TotalBytes`},
		"sheets over a set number of parts": {[]inflating{emptyRows(1), emptyRows(1)}, fake.WorkbookLimits{Parts: 4},
			`form field file: the zip package lists more than 4 parts: over the limit WorkbookLimits.Parts`},
	} {
		t.Run(name, func(t *testing.T) {
			file := bombWorkbook(t, tc.sheets...)
			h := fake.NewHandler(fake.WithWorkbookLimits(tc.limits))
			peak := watchHeap()
			rec := importWorkbook(t, h, file)
			growth := peak.growth()
			require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
			msg := messageOf(t, rec.Body.Bytes())
			assert.True(t, strings.HasPrefix(msg, "importExcel: form field file: "), msg)
			assert.Contains(t, msg, tc.want)
			assert.Less(t, growth, float64(64<<20), "heap grew %.1f MiB for a bomb of %d bytes", growth/(1<<20), len(file))
		})
	}
}

// A workbook within the limits is read whole: the limits count bytes, rows
// and parts exactly. The text one shows that the bombs above are genuine
// workbooks (their deflate streams and checksums check out), refused for
// their size alone.
func TestWorkbookAtTheLimits(t *testing.T) {
	cells, text := manyCells(100<<10), hugeText(1<<20+5)
	for name, tc := range map[string]struct {
		sheets []inflating
		limits fake.WorkbookLimits
	}{
		"many cells": {[]inflating{cells, cells}, fake.WorkbookLimits{
			TotalBytes: 2*cells.size() + 1000, PartBytes: cells.size(), RowsPerSheet: 1, Parts: 5, TokenBytes: 200}},
		"a long text": {[]inflating{text}, fake.WorkbookLimits{PartBytes: text.size(), TokenBytes: 1<<20 + 16}},
	} {
		t.Run(name, func(t *testing.T) {
			rec := importWorkbook(t, fake.NewHandler(fake.WithWorkbookLimits(tc.limits)), bombWorkbook(t, tc.sheets...))
			assert.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
		})
	}
}

// A workbook whose directory claims more entries than the limit on parts
// is refused before archive/zip allocates room for them.
func TestWorkbookDirectoryClaim(t *testing.T) {
	file := bombWorkbook(t, emptyRows(1))
	end := bytes.LastIndex(file, []byte("PK\x05\x06"))
	require.GreaterOrEqual(t, end, 0)
	claim := append([]byte(nil), file...)
	claim[end+8], claim[end+9], claim[end+10], claim[end+11] = 0xff, 0xfe, 0xff, 0xfe // 65,279 entries
	rec := importWorkbook(t, fake.NewHandler(), claim)
	require.Equal(t, http.StatusBadRequest, rec.Code)
	assert.Contains(t, messageOf(t, rec.Body.Bytes()), "the zip package lists more than 10000 parts: over the limit WorkbookLimits.Parts")
}

// The import of a workbook within the limits still creates the scenario
// with the sheets' rows.
func TestWorkbookWithinLimitsImports(t *testing.T) {
	e := setup(t)
	ct, body := form(t, [][2]string{{"projectId", "1"}, {"newScenarioName", "Rows"}, {"needToImportExperiments", "true"}},
		"rows.xlsx", bombWorkbook(t, emptyRows(1000)))
	r, err := e.c.ImportExcelWithBodyWithResponse(e.ctx, ct, body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	e.clock.Advance(fake.DefaultImportDuration)
	st := importStatus(t, e, r.JSON200.JobId)
	require.Equal(t, gen.ImportJobStatusDONE, st.Status)
	require.NotNil(t, st.ScenarioId)
	tables, ok := e.srv.ScenarioTables(*st.ScenarioId)
	require.True(t, ok)
	require.Len(t, tables, 1)
	for _, rows := range tables {
		assert.Equal(t, int64(999), rows)
	}
}

// messageOf is the message of an error body.
func messageOf(tb testing.TB, body []byte) string {
	tb.Helper()
	var e gen.ApiError
	require.NoError(tb, json.Unmarshal(body, &e), string(body))
	require.NotNil(tb, e.Message, string(body))
	return *e.Message
}

// A workbook whose two sheets name one part is refused: the part, counted
// once against TotalBytes, is not read again as the rows of another sheet,
// as the SDK's readers refuse it.
func TestWorkbookPartOfTwoSheetsIsRefused(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range map[string]string{
		"_rels/.rels":                `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<workbook xmlns:r="urn:r"><sheets><sheet name="S1" sheetId="1" r:id="rId1"/><sheet name="S2" sheetId="2" r:id="rId2"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="worksheet" Target="/xl/worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row r="1"/><row r="2"/></sheetData></worksheet>`,
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write([]byte(content))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	rec := importWorkbook(t, fake.NewHandler(), buf.Bytes())
	require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
	assert.Contains(t, messageOf(t, rec.Body.Bytes()), `sheets "S1" and "S2" name the same part xl/worksheets/sheet1.xml`)
}
