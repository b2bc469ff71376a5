package fake

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// workbookTables reads the sheet names of the workbook at filePath as table
// ids, with their row counts (the first row is the header), keeping those
// the filter names when it is not empty. Every part is read as a stream of
// XML tokens within the limits, so a workbook of any size or shape costs
// little memory: nothing of it is held but the list of sheets.
func workbookTables(ctx context.Context, filePath string, filter []string, limits WorkbookLimits) ([]tableData, error) {
	wb, err := openWorkbook(ctx, filePath, limits)
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
		n, err := wb.countSheetRows(s.part)
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
		return badRequest("form field file: sheet %s: %s", quoteText(sheet), clip(unreadable(err)))
	}
	return badRequest("form field file: not a spreadsheet workbook (%s)", clip(unreadable(err)))
}

// unreadable says why a workbook could not be read, without the shared
// reader's word for it, which speaks of a dashboard page's workbook.
func unreadable(err error) string {
	return strings.TrimPrefix(err.Error(), xlsxpage.ErrMalformed.Error()+": ")
}

// workbookReader reads the parts of one workbook within its limits, with
// the page reader of the SDK (internal/xlsxpage): the zip opened within
// Parts, each part's declared size counted against TotalBytes before it is
// inflated, and each part read within ctx.
type workbookReader struct {
	ctx    context.Context
	file   *os.File
	book   *xlsxpage.Book
	limits WorkbookLimits
}

func openWorkbook(ctx context.Context, filePath string, limits WorkbookLimits) (*workbookReader, error) {
	f, err := os.Open(filePath)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		var book *xlsxpage.Book
		if book, err = xlsxpage.Open(f, st.Size(), int64(limits.Parts), limits.TotalBytes); err == nil {
			return &workbookReader{ctx: ctx, file: f, book: book, limits: limits}, nil
		}
		err = sharedLimit(err, limits)
	}
	f.Close()
	return nil, err
}

// sharedLimit turns a limit of the shared reader into the one of
// WorkbookLimits that sets it: its Parts or its TotalBytes.
func sharedLimit(err error, l WorkbookLimits) error {
	var le *xlsxpage.LimitExceeded
	switch {
	case !errors.As(err, &le):
		return err
	case le.Name == "InflatedBytes":
		return totalTooLarge(l.TotalBytes)
	}
	return tooMany("the zip package lists", "parts", l.Parts)
}

// tooMany is the error for more things than the limit on parts.
func tooMany(what, things string, parts int) error {
	return &limitError{what: what, limit: "Parts", value: int64(parts), unit: things}
}

func (wb *workbookReader) close() { wb.file.Close() }

// sheetRef is a sheet of a workbook: its name and the zip entry of its part.
type sheetRef struct{ name, part string }

// sheetList reads the workbook part's sheets, in order, and resolves each to
// its worksheet part through the workbook's relationships. A part named by
// two sheets is refused: no part is read as the rows of two.
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
		part := xlsxpage.ResolvePart(main, target)
		if zf := wb.book.Find(part); zf != nil {
			if err := wb.book.ClaimSheet(s.name, zf); err != nil {
				return nil, err
			}
		}
		out = append(out, sheetRef{name: s.name, part: part})
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
	return xlsxpage.OfficeDocument(rels), nil
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
				out = append(out, sheetEntry{name: xlsxpage.Attr(el, "name"), relID: xlsxpage.RelationshipID(el)})
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
	out := map[string]string{}
	err := wb.eachElement(xlsxpage.RelsPart(part), func(t xml.Token) error {
		el, ok := t.(xml.StartElement)
		if !ok || el.Name.Local != "Relationship" {
			return nil
		}
		if len(out) >= 2*wb.limits.Parts {
			return tooMany("the relationships of "+part+" list", "relationships", wb.limits.Parts)
		}
		xlsxpage.AddRelationship(out, el, part == "")
		return nil
	})
	return out, err
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

// partError names the part a reading error is about; a limit's error, and
// the shared reader's, name it already.
func partError(name string, err error) error {
	var le *limitError
	switch {
	case errors.As(err, &le):
		return le
	case errors.Is(err, xlsxpage.ErrMalformed):
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// open opens a part for reading within the limits. A part whose declared
// size is past PartBytes, or past what is left of TotalBytes, is refused
// before anything is inflated; archive/zip refuses a part that inflates
// to more than it declares.
func (wb *workbookReader) open(name string) (*partReader, error) {
	zf := wb.book.Find(name)
	if zf == nil {
		return nil, errors.New("no part " + name)
	}
	if zf.UncompressedSize64 > uint64(wb.limits.PartBytes) {
		return nil, partTooLarge(name, wb.limits.PartBytes)
	}
	rc, err := wb.book.Open(wb.ctx, zf)
	if err != nil {
		return nil, sharedLimit(err, wb.limits)
	}
	return &partReader{name: name, src: bufio.NewReaderSize(rc, 32<<10), closer: rc, tokenBytes: wb.limits.TokenBytes}, nil
}

// countSheetRows streams a worksheet part and returns its number of rows:
// the highest row number, or the count of rows when it is higher.
func (wb *workbookReader) countSheetRows(part string) (int64, error) {
	var count, highest int64
	err := wb.eachElement(part, func(tok xml.Token) error {
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
	n, _ := strconv.ParseInt(xlsxpage.Attr(el, "r"), 10, 64)
	return n
}
