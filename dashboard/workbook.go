package dashboard

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
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

// writeSheet writes part, the compressed part of a sheet, as the sheet at
// index i, and flushes it to w.
func (b *workbook) writeSheet(i int, part *zip.File) error {
	hdr := part.FileHeader
	hdr.Name = sheetPath(i)
	dst, err := b.zw.CreateRaw(&hdr)
	if err != nil {
		return err
	}
	src, err := part.OpenRaw()
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		return err
	}
	b.written[i] = true
	return b.zw.Flush()
}

// close writes the sheets no page filled (the one sheet of a result
// without pages) empty, and the zip's directory.
func (b *workbook) close() error {
	for i, done := range b.written {
		if !done {
			if err := b.writeSheet(i, b.blank[i]); err != nil {
				return err
			}
		}
	}
	return b.zw.Close()
}
