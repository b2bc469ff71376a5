// Package dashboardtest builds page workbooks for tests, as a server could
// send them to dashboard.Export: well-formed ones, and hostile ones (zip
// bombs, parts that lie about their size, XML that breaks off). A workbook
// holds the parts the merge reads: the package and workbook relationships,
// the workbook, its worksheets and its shared strings.
package dashboardtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"
)

const (
	// MainNS is the xmlns attribute of SpreadsheetML's elements.
	MainNS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	relNS  = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	relTyp = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// Book is a page workbook to build.
type Book struct {
	Sheets []Sheet   // the worksheets, in order
	SST    string    // the shared strings part's XML, "" for none
	Raw    []RawPart // parts given deflated; one named as a sheet's part stands for it
	Extra  int       // empty parts added, to make the zip's directory long
}

// Sheet is a worksheet: its name and its part's XML.
type Sheet struct{ Name, XML string }

// RawPart is a part whose deflated bytes, checksum and size are given:
// the way to a part that inflates to GiBs, or that lies about its size.
type RawPart struct {
	Name string
	Data []byte
	CRC  uint32
	Size uint64 // the size the zip says it inflates to
}

// SheetXML is the XML of a worksheet whose rows (row elements) are rows.
func SheetXML(rows string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<worksheet ` + MainNS + ` ` + relNS + `><dimension ref="A1"/><sheetData>` + rows +
		`</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`
}

// NumberRows are rows 1 to n of two cells: the text "row i" and the
// number i.5.
func NumberRows(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>row %d</t></is></c><c r="B%d"><v>%d.5</v></c></row>`, i, i, i, i, i)
	}
	return b.String()
}

// Bytes builds the workbook.
func (b Book) Bytes(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name, content string) {
		w, err := zw.Create(name)
		check(t, err)
		_, err = w.Write([]byte(content))
		check(t, err)
	}
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="`+relTyp+`officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	var sheets, rels strings.Builder
	for i, s := range b.Sheets {
		fmt.Fprintf(&sheets, `<sheet name=%q sheetId="%d" r:id="rId%d"/>`, s.Name, i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i+1, relTyp, i+1)
	}
	if b.SST != "" || b.hasRaw("xl/sharedStrings.xml") {
		fmt.Fprintf(&rels, `<Relationship Id="rIdS" Type="%ssharedStrings" Target="sharedStrings.xml"/>`, relTyp)
	}
	put("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook `+MainNS+` `+relNS+`><sheets>`+sheets.String()+`</sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+rels.String()+`</Relationships>`)
	for i, s := range b.Sheets {
		if name := "xl/worksheets/sheet" + strconv.Itoa(i+1) + ".xml"; !b.hasRaw(name) {
			put(name, s.XML)
		}
	}
	if b.SST != "" {
		put("xl/sharedStrings.xml", b.SST)
	}
	for _, p := range b.Raw {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: p.Name, Method: zip.Deflate, CRC32: p.CRC,
			CompressedSize64: uint64(len(p.Data)), UncompressedSize64: p.Size})
		check(t, err)
		_, err = w.Write(p.Data)
		check(t, err)
	}
	for i := range b.Extra {
		_, err := zw.CreateHeader(&zip.FileHeader{Name: "docProps/extra" + strconv.Itoa(i) + ".xml", Method: zip.Store})
		check(t, err)
	}
	check(t, zw.Close())
	return buf.Bytes()
}

func (b Book) hasRaw(name string) bool {
	for _, p := range b.Raw {
		if p.Name == name {
			return true
		}
	}
	return false
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

const mib = 1 << 20

// Bomb is a part named name that inflates to prefix, then fill repeated
// to n bytes (rounded up to MiB), then suffix, deflated without deflating
// all of it: one MiB of fill is deflated once, after enough fill that
// every back-reference in it lands on fill, and its bytes are repeated.
// About 1 KiB of the part inflates to a MiB of a fill of one byte. len(fill)
// must divide a MiB.
func Bomb(t testing.TB, name, prefix, fill string, n int64, suffix string) RawPart {
	t.Helper()
	if mib%len(fill) != 0 {
		t.Fatalf("dashboardtest.Bomb: a fill of %d bytes does not divide a MiB", len(fill))
	}
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	check(t, err)
	chunk := bytes.Repeat([]byte(fill), mib/len(fill))
	write := func(b []byte) {
		_, err := w.Write(b)
		check(t, err)
		check(t, w.Flush())
	}
	write([]byte(prefix))
	write(chunk) // the window holds fill from here on
	from := out.Len()
	write(chunk)
	segment := bytes.Clone(out.Bytes()[from:])
	_, err = w.Write([]byte(suffix))
	check(t, err)
	check(t, w.Close())
	data := bytes.Clone(out.Bytes()[:from+len(segment)])
	tail := out.Bytes()[from+len(segment):]

	mibs := max((n+mib-1)/mib, 2) // the two written
	data = append(data, bytes.Repeat(segment, int(mibs-2))...)
	data = append(data, tail...)
	crc := crc32.Update(0, crc32.IEEETable, []byte(prefix))
	for range mibs {
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
	}
	crc = crc32.Update(crc, crc32.IEEETable, []byte(suffix))
	return RawPart{Name: name, Data: data, CRC: crc, Size: uint64(len(prefix)) + uint64(mibs)*mib + uint64(len(suffix))}
}
