package fake

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

// maxWorkbookPart bounds the workbook parts read whole (the relationships
// and the workbook part, which lists the sheets); worksheets are streamed.
const maxWorkbookPart = 16 << 20

// workbookTables reads the sheet names of the workbook at filePath as table
// ids, with their row counts (the first row is the header), keeping those
// the filter names when it is not empty. The file is read through its zip
// directory and the worksheets as XML streams, so a workbook of any size
// costs little memory: nothing of it is held but the list of sheets.
func workbookTables(ctx context.Context, filePath string, filter []string) ([]tableData, error) {
	zr, err := zip.OpenReader(filePath)
	if err != nil {
		return nil, notAWorkbook(err)
	}
	defer zr.Close()
	sheets, err := sheetList(&zr.Reader)
	if err != nil {
		return nil, notAWorkbook(err)
	}
	var out []tableData
	for _, s := range sheets {
		if len(filter) > 0 && !slices.Contains(filter, s.name) {
			continue
		}
		n, err := countSheetRows(ctx, &zr.Reader, s.part)
		if err != nil {
			return nil, badRequest("form field file: sheet %q: %v", s.name, err)
		}
		out = append(out, tableData{id: s.name, rows: max(n-1, 0)})
	}
	return out, nil
}

func notAWorkbook(err error) error {
	return badRequest("form field file: not a spreadsheet workbook (%v)", err)
}

// sheetRef is a sheet of a workbook: its name and the zip entry of its part.
type sheetRef struct{ name, part string }

// sheetList reads the workbook part's sheets, in order, and resolves each to
// its worksheet part through the workbook's relationships.
func sheetList(zr *zip.Reader) ([]sheetRef, error) {
	main := officeDocument(zr)
	var wb struct {
		Sheets []struct {
			Name  string     `xml:"name,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := decodePart(zr, main, &wb); err != nil {
		return nil, err
	}
	rels, err := relationships(zr, main)
	if err != nil {
		return nil, err
	}
	out := make([]sheetRef, 0, len(wb.Sheets))
	for _, s := range wb.Sheets {
		target, ok := rels[relationshipID(s.Attrs)]
		if !ok {
			return nil, errors.New("sheet " + strconv.Quote(s.Name) + " has no worksheet part")
		}
		out = append(out, sheetRef{name: s.Name, part: resolvePart(main, target)})
	}
	return out, nil
}

// officeDocument finds the workbook part from the package relationships,
// falling back to the usual name.
func officeDocument(zr *zip.Reader) string {
	rels, err := relationships(zr, "")
	if err == nil {
		for id, target := range rels {
			if strings.HasSuffix(id, "officeDocument") {
				return resolvePart("", target)
			}
		}
	}
	return "xl/workbook.xml"
}

// relationships reads the relationships of the part named part ("" for the
// package), by id; the package's are also keyed by their type.
func relationships(zr *zip.Reader, part string) (map[string]string, error) {
	dir, base := path.Split(part)
	var rels struct {
		Relationship []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		}
	}
	if err := decodePart(zr, dir+"_rels/"+base+".rels", &rels); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range rels.Relationship {
		out[r.ID] = r.Target
		if part == "" {
			out[r.Type] = r.Target
		}
	}
	return out, nil
}

// relationshipID is the r:id attribute of a sheet, in whichever namespace
// the workbook uses for relationships.
func relationshipID(attrs []xml.Attr) string {
	for _, a := range attrs {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// resolvePart turns a relationship target into a zip entry name.
func resolvePart(from, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return path.Join(path.Dir(from), target)
}

// decodePart decodes a small XML part of the package into v.
func decodePart(zr *zip.Reader, name string, v any) error {
	rc, err := openPart(zr, name)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := xml.NewDecoder(io.LimitReader(rc, maxWorkbookPart)).Decode(v); err != nil {
		return errors.New(name + ": " + err.Error())
	}
	return nil
}

func openPart(zr *zip.Reader, name string) (io.ReadCloser, error) {
	for _, f := range zr.File {
		if strings.EqualFold(f.Name, name) {
			return f.Open()
		}
	}
	return nil, errors.New("no part " + name)
}

// countSheetRows streams a worksheet part and returns its number of rows:
// the highest row number, or the count of rows when it is higher.
func countSheetRows(ctx context.Context, zr *zip.Reader, part string) (int64, error) {
	rc, err := openPart(zr, part)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(rc)
	var count, highest int64
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return max(count, highest), nil
		}
		if err != nil {
			return 0, err
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "row" {
			count++
			highest = max(highest, rowNumber(el))
			if count%4096 == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
		}
	}
}

func rowNumber(el xml.StartElement) int64 {
	for _, a := range el.Attr {
		if a.Name.Local == "r" {
			n, _ := strconv.ParseInt(a.Value, 10, 64)
			return n
		}
	}
	return 0
}
