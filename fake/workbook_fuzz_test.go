package fake_test

import (
	"archive/zip"
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/scmodel/scmgo/fake"
)

// FuzzImportExcelFile uploads arbitrary bytes as the workbook of importExcel:
// the server answers 200 (a workbook) or 400 (anything else), never fails.
func FuzzImportExcelFile(f *testing.F) {
	f.Add(workbook(f, map[string]int{"Sites": 2, "Customers": 1}))
	f.Add([]byte("name,value\na,1\n"))
	f.Add(zipOf(f, map[string]string{"xl/workbook.xml": `<workbook><sheets><sheet name="A" r:id="rId1" xmlns:r="urn:r"/></sheets></workbook>`}))
	f.Add(zipOf(f, map[string]string{
		"xl/workbook.xml":            `<workbook xmlns:r="urn:r"><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="/xl/worksheets/a.xml"/></Relationships>`,
		"xl/worksheets/a.xml":        `<worksheet><sheetData><row r="1"/><row r="9"/><row></sheetData></worksheet>`,
	}))
	h := fake.NewHandler()
	f.Fuzz(func(t *testing.T, file []byte) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("newScenarioName", "Fuzz")
		_ = mw.WriteField("projectId", "1")
		fw, _ := mw.CreateFormFile("file", "f.xlsx")
		_, _ = fw.Write(file)
		_ = mw.Close()
		req := httptest.NewRequest(http.MethodPost, fake.BasePath+"/open/import/import-excel", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", fake.DefaultAPIKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

// zipOf builds a zip of the named parts.
func zipOf(tb testing.TB, parts map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range parts {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
