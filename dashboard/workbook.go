package dashboard

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// contentTypes is the part a reader looks for first.
const contentTypes = "[Content_Types].xml"

// workbook is the dashboard's workbook as it is written to w: a zip
// archive whose parts naming the sheets come first, then each sheet's
// part as its page is merged, then the zip's directory.
type workbook struct {
	zw      *zip.Writer
	blank   []*zip.File // the empty sheets of the skeleton, by index
	written []bool      // the sheets written so far, by index
	deflate *flate.Writer
}

// sheetPath is the part of the sheet at index i (0-based) of a workbook
// made by excelize, which numbers its sheets from 1 in order.
func sheetPath(i int) string { return "xl/worksheets/sheet" + strconv.Itoa(i+1) + ".xml" }

// newWorkbook starts the workbook of the sheets names on w: it writes
// every part of a workbook excelize makes with those sheets, but the
// sheets themselves, which [workbook.writeSheet] writes.
func newWorkbook(w io.Writer, names []string) (*workbook, error) {
	parts, err := skeleton(names)
	if err != nil {
		return nil, err
	}
	b := &workbook{zw: zip.NewWriter(w), blank: make([]*zip.File, len(names)), written: make([]bool, len(names))}
	for i := range names {
		j := slices.IndexFunc(parts, func(f *zip.File) bool { return f.Name == sheetPath(i) })
		if j < 0 {
			return nil, fmt.Errorf("dashboard: the workbook excelize made has no part %s", sheetPath(i))
		}
		b.blank[i] = parts[j]
		parts = slices.Delete(parts, j, j+1)
	}
	for _, f := range parts {
		if err := b.zw.Copy(f); err != nil {
			return nil, err
		}
	}
	return b, b.zw.Flush()
}

// skeleton makes a workbook of empty sheets named names with excelize and
// returns its parts, [Content_Types].xml first.
func skeleton(names []string) ([]*zip.File, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", names[0]); err != nil {
		return nil, err
	}
	for _, name := range names[1:] {
		if _, err := f.NewSheet(name); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return nil, err
	}
	parts := slices.Clone(zr.File)
	slices.SortStableFunc(parts, func(a, b *zip.File) int {
		return boolRank(b.Name == contentTypes) - boolRank(a.Name == contentTypes)
	})
	return parts, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sheetStart starts the sheet at index i on w: the part's zip entry and
// the XML of the blank sheet up to its rows. It returns the writer of the
// entry and the XML that ends the sheet, after its rows.
func (b *workbook) sheetStart(i int) (*entry, []byte, error) {
	head, tail, err := splitSheet(b.blank[i])
	if err != nil {
		return nil, nil, err
	}
	hdr := &zip.FileHeader{Name: sheetPath(i), Method: zip.Deflate, Flags: dataDescriptor, Modified: b.blank[i].Modified}
	raw, err := b.zw.CreateRaw(hdr)
	if err != nil {
		return nil, nil, err
	}
	b.written[i] = true
	e := b.entry(hdr, raw)
	if _, err := e.Write(head); err != nil {
		return nil, nil, err
	}
	return e, tail, nil
}

// sheetEnd ends the sheet started: its XML, its compressed stream, and
// flushes it to w. Only the entry's data descriptor, which the zip writer
// writes with the next entry or the directory, is left.
func (b *workbook) sheetEnd(e *entry, tail []byte) error {
	if _, err := e.Write(tail); err != nil {
		return err
	}
	if err := e.close(); err != nil {
		return err
	}
	return b.zw.Flush()
}

// emptyRows is the rows element of a blank sheet, as excelize writes it.
var emptyRows = []byte("<sheetData></sheetData>")

// dimension matches the dimension element of a blank sheet, which says A1:
// the merged sheet goes without one (it is optional), as its size is not
// known before its rows are written.
var dimension = regexp.MustCompile(`<dimension [^>]*(/>|></dimension>)`)

// splitSheet splits the XML of a blank sheet around its rows element.
func splitSheet(part *zip.File) (head, tail []byte, err error) {
	rc, err := part.Open()
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, nil, err
	}
	b = dimension.ReplaceAll(b, nil)
	i := bytes.Index(b, emptyRows)
	if i < 0 {
		return nil, nil, fmt.Errorf("dashboard: the blank sheet excelize made has no %s", emptyRows)
	}
	return b[:i+len("<sheetData>")], b[i+len("<sheetData>"):], nil
}

// close writes the sheets no page filled blank (none, once every page is
// merged), and the zip's directory.
func (b *workbook) close() error {
	for i, done := range b.written {
		if !done {
			e, tail, err := b.sheetStart(i)
			if err == nil {
				err = b.sheetEnd(e, tail)
			}
			if err != nil {
				return err
			}
		}
	}
	return b.zw.Close()
}
