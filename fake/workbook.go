package fake

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// workbookTables reads the sheet names of the workbook at filePath as table
// ids, with their row counts (the first row is the header), keeping those
// the filter names when it is not empty. Every part is read as a stream of
// XML tokens within the limits, so a workbook of any size or shape costs
// little memory: nothing of it is held but the list of sheets.
func workbookTables(ctx context.Context, filePath string, filter []string, limits WorkbookLimits) ([]tableData, error) {
	wb, err := openWorkbook(filePath, limits)
	if err != nil {
		return nil, workbookError("", err)
	}
	defer wb.close()
	sheets, err := wb.sheetList()
	if err != nil {
		return nil, workbookError("", err)
	}
	var out []tableData
	for _, s := range sheets {
		if len(filter) > 0 && !slices.Contains(filter, s.name) {
			continue
		}
		n, err := wb.countSheetRows(ctx, s.part)
		if err != nil {
			return nil, workbookError(s.name, err)
		}
		out = append(out, tableData{id: s.name, rows: max(n-1, 0)})
	}
	return out, nil
}

// workbookError is the 400 of a workbook that cannot be read, or is past a
// limit, naming the form field and the sheet when there is one.
func workbookError(sheet string, err error) error {
	var le *limitError
	switch {
	case errors.As(err, &le) && sheet != "":
		return badRequest("form field file: sheet %s: %v", quoteText(sheet), le)
	case errors.As(err, &le):
		return badRequest("form field file: %v", le)
	case sheet != "":
		return badRequest("form field file: sheet %s: %s", quoteText(sheet), clip(err.Error()))
	}
	return badRequest("form field file: not a spreadsheet workbook (%s)", clip(err.Error()))
}

// workbookReader reads the parts of one workbook within its limits,
// counting the inflated bytes of every part it reads.
type workbookReader struct {
	file   *os.File
	parts  map[string]*zip.File // by lower-case name, the first of a name
	limits WorkbookLimits
	total  int64 // inflated bytes read so far
}

func openWorkbook(filePath string, limits WorkbookLimits) (*workbookReader, error) {
	f, err := os.Open(filePath)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		var zr *zip.Reader
		if zr, err = openZip(f, st.Size(), limits.Parts); err == nil {
			return newWorkbookReader(f, zr, limits), nil
		}
	}
	f.Close()
	return nil, err
}

func newWorkbookReader(f *os.File, zr *zip.Reader, limits WorkbookLimits) *workbookReader {
	wb := &workbookReader{file: f, parts: make(map[string]*zip.File, len(zr.File)), limits: limits}
	for _, zf := range zr.File {
		if name := strings.ToLower(zf.Name); wb.parts[name] == nil {
			wb.parts[name] = zf
		}
	}
	return wb
}

func (wb *workbookReader) close() { wb.file.Close() }

// sheetRef is a sheet of a workbook: its name and the zip entry of its part.
type sheetRef struct{ name, part string }

// sheetList reads the workbook part's sheets, in order, and resolves each to
// its worksheet part through the workbook's relationships.
func (wb *workbookReader) sheetList() ([]sheetRef, error) {
	main, err := wb.officeDocument()
	if err != nil {
		return nil, err
	}
	sheets, err := wb.sheets(main)
	if err != nil {
		return nil, err
	}
	rels, err := wb.relationships(main)
	if err != nil {
		return nil, err
	}
	out := make([]sheetRef, 0, len(sheets))
	for _, s := range sheets {
		target, ok := rels[s.relID]
		if !ok {
			return nil, errors.New("sheet " + quoteText(s.name) + " has no worksheet part")
		}
		out = append(out, sheetRef{name: s.name, part: resolvePart(main, target)})
	}
	return out, nil
}

// officeDocument finds the workbook part from the package relationships,
// falling back to the usual name when they cannot be read; past a limit,
// the workbook is refused.
func (wb *workbookReader) officeDocument() (string, error) {
	rels, err := wb.relationships("")
	var le *limitError
	if errors.As(err, &le) {
		return "", le
	}
	for id, target := range rels {
		if strings.HasSuffix(id, "officeDocument") {
			return resolvePart("", target), nil
		}
	}
	return "xl/workbook.xml", nil
}

// sheetEntry is a sheet as the workbook part lists it.
type sheetEntry struct{ name, relID string }

// sheets reads the sheets the workbook part lists under sheets.
func (wb *workbookReader) sheets(part string) ([]sheetEntry, error) {
	var out []sheetEntry
	inSheets := false
	err := wb.eachElement(part, func(el xml.Token) error {
		switch el := el.(type) {
		case xml.StartElement:
			if el.Name.Local == "sheets" {
				inSheets = true
			} else if inSheets && el.Name.Local == "sheet" {
				if len(out) >= wb.limits.Parts {
					return tooMany("the workbook lists", "sheets", wb.limits.Parts)
				}
				out = append(out, sheetEntry{name: attr(el, "name"), relID: relationshipID(el.Attr)})
			}
		case xml.EndElement:
			if el.Name.Local == "sheets" {
				inSheets = false
			}
		}
		return nil
	})
	return out, err
}

// relationships reads the relationships of the part named part ("" for the
// package), by id; the package's are also keyed by their type.
func (wb *workbookReader) relationships(part string) (map[string]string, error) {
	dir, base := path.Split(part)
	out := map[string]string{}
	err := wb.eachElement(dir+"_rels/"+base+".rels", func(t xml.Token) error {
		el, ok := t.(xml.StartElement)
		if !ok || el.Name.Local != "Relationship" {
			return nil
		}
		if len(out) >= 2*wb.limits.Parts {
			return tooMany("the relationships of "+part+" list", "relationships", wb.limits.Parts)
		}
		out[attr(el, "Id")] = attr(el, "Target")
		if part == "" {
			out[attr(el, "Type")] = attr(el, "Target")
		}
		return nil
	})
	return out, err
}

// attr is the value of the attribute of el named local without a prefix.
func attr(el xml.StartElement, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
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

// eachElement streams the XML tokens of a part to f, within the limits.
func (wb *workbookReader) eachElement(name string, f func(xml.Token) error) error {
	p, err := wb.open(name)
	if err != nil {
		return err
	}
	defer p.closer.Close()
	dec := xml.NewDecoder(p)
	for {
		p.tokenStart()
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return partError(name, err)
		}
		if err := f(tok); err != nil {
			return err
		}
	}
}

// partError names the part a reading error is about; a limit's error names
// it already.
func partError(name string, err error) error {
	var le *limitError
	if errors.As(err, &le) {
		return le
	}
	return fmt.Errorf("%s: %w", name, err)
}

// open opens a part for reading within the limits. A part whose declared
// size is past them is refused before anything is inflated; archive/zip
// refuses a part that inflates to more than it declares.
func (wb *workbookReader) open(name string) (*partReader, error) {
	zf := wb.parts[strings.ToLower(name)]
	if zf == nil {
		return nil, errors.New("no part " + name)
	}
	size := zf.UncompressedSize64
	switch {
	case size > uint64(wb.limits.PartBytes):
		return nil, partTooLarge(name, wb.limits.PartBytes)
	case size > uint64(wb.limits.TotalBytes-wb.total):
		return nil, totalTooLarge(wb.limits.TotalBytes)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	return &partReader{name: name, wb: wb, src: bufio.NewReaderSize(rc, 32<<10), closer: rc}, nil
}

// countSheetRows streams a worksheet part and returns its number of rows:
// the highest row number, or the count of rows when it is higher.
func (wb *workbookReader) countSheetRows(ctx context.Context, part string) (int64, error) {
	var count, highest, tokens int64
	err := wb.eachElement(part, func(tok xml.Token) error {
		if tokens++; tokens%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "row" {
			count++
			highest = max(highest, rowNumber(el))
			if max(count, highest) > wb.limits.RowsPerSheet {
				return &limitError{what: "the sheet holds", limit: "RowsPerSheet", value: wb.limits.RowsPerSheet, unit: "rows"}
			}
		}
		return nil
	})
	return max(count, highest), err
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
