package resultdata

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/internal/xlsxpage"
	"github.com/scmodel/scmgo/limits"
)

// workbook is an xlsx package opened for streaming: its sheets, its shared
// strings and which of its cell styles format dates. Sheets are read part
// by part, XML token by XML token, within the limits.
type workbook struct {
	ctx        context.Context
	book       *xlsxpage.Book // the zip, read as dashboard reads it
	sheets     []sheetRef
	shared     sharedStrings
	dateStyles []bool // by cell style (xf) index
	date1904   bool
	lim        Limits
}

// sheetRef is a sheet of the workbook: its name and its part.
type sheetRef struct{ name, part string }

// openWorkbook opens a workbook within the limits: its zip, its list of
// sheets, its shared strings and styles. An error of what is not a
// readable workbook matches [ErrMalformed].
func openWorkbook(ctx context.Context, r io.ReaderAt, size int64, lim Limits) (*workbook, error) {
	book, err := xlsxpage.Open(r, size, int64(lim.Parts), lim.InflatedBytes)
	if err != nil {
		return nil, fmt.Errorf("resultdata: %w", sharedError(err)) // a limit's, or ErrMalformed's
	}
	wb := &workbook{ctx: ctx, book: book, lim: lim}
	main := wb.officeDocument()
	for _, step := range []func(string) error{wb.readSheetList, wb.readSharedStrings, wb.readStyles} {
		if err := step(main); err != nil {
			return nil, fmt.Errorf("resultdata: reading the workbook: %w", malformed(err))
		}
	}
	return wb, nil
}

// malformed marks an error reading a workbook as [ErrMalformed], unless
// it is a limit's or the context's.
func malformed(err error) error {
	var le *limits.Error
	if errors.As(err, &le) || errors.Is(err, ErrMalformed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}

// officeDocument is the workbook part the package relationships name, or
// the usual one.
func (wb *workbook) officeDocument() string {
	rels, _ := wb.relationships("")
	return xlsxpage.OfficeDocument(rels)
}

// readSheetList reads the sheets the workbook part lists, in order, with
// their parts, and whether its dates count from 1904.
func (wb *workbook) readSheetList(main string) error {
	rels, err := wb.relationships(main)
	if err != nil {
		return err
	}
	return wb.eachToken(main, func(tok xml.Token) error {
		el, ok := tok.(xml.StartElement)
		switch {
		case !ok:
		case el.Name.Local == "workbookPr":
			v := xlsxpage.Attr(el, "date1904")
			wb.date1904 = v == "1" || v == "true"
		case el.Name.Local == "sheet":
			if len(wb.sheets) >= wb.lim.Sheets {
				return limitError("Sheets", int64(wb.lim.Sheets), 0, "sheets", "the sheets of the workbook")
			}
			name, target := xlsxpage.Attr(el, "name"), rels[xlsxpage.RelationshipID(el)]
			if target == "" {
				return fmt.Errorf("sheet %q has no part", name)
			}
			part := xlsxpage.ResolvePart(main, target)
			if zf := wb.book.Find(part); zf != nil {
				if err := wb.book.ClaimSheet(name, zf); err != nil {
					return err
				}
			}
			wb.sheets = append(wb.sheets, sheetRef{name: name, part: part})
		}
		return nil
	})
}

// relationships reads the relationships of a part ("" for the package) by
// id, and by type for the package's.
func (wb *workbook) relationships(part string) (map[string]string, error) {
	out := map[string]string{}
	err := wb.eachToken(xlsxpage.RelsPart(part), func(tok xml.Token) error {
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "Relationship" {
			if len(out) >= 2*wb.lim.Sheets+100 {
				return limitError("Sheets", int64(wb.lim.Sheets), 0, "sheets", "the relationships of "+part+" (two a sheet and 100 more allowed)")
			}
			xlsxpage.AddRelationship(out, el, part == "")
		}
		return nil
	})
	return out, err
}

// readSharedStrings reads the shared strings, when the workbook has them:
// each string item's text, its runs joined, without phonetic runs. What
// they hold in memory counts against SharedStringBytes as they are read:
// the texts, one after the other in one string, and four bytes a string
// for where each ends, as the room allocated for them.
func (wb *workbook) readSharedStrings(main string) error {
	part := wb.relatedPart(main, "sharedStrings.xml")
	if part == "" {
		return nil
	}
	var inT, inRPh bool
	s := &wb.shared
	return wb.eachToken(part, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inT = true
			case "rPh":
				inRPh = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				s.ends = append(s.ends, uint32(s.text.Len()))
				return wb.checkShared()
			case "t":
				inT = false
			case "rPh":
				inRPh = false
			}
		case xml.CharData:
			if inT && !inRPh {
				s.text.Write(t)
				return wb.checkShared()
			}
		}
		return nil
	})
}

// checkShared fails shared strings that hold more than SharedStringBytes.
func (wb *workbook) checkShared() error {
	if wb.shared.held() > wb.lim.SharedStringBytes || wb.shared.text.Len() > math.MaxUint32 {
		return limitError("SharedStringBytes", wb.lim.SharedStringBytes, 0, "bytes", "the text of the shared strings")
	}
	return nil
}

// sharedStrings are a workbook's shared strings: their texts one after
// the other, and where each ends.
type sharedStrings struct {
	text strings.Builder
	ends []uint32
}

// held is the memory the strings hold: what is allocated for them.
func (s *sharedStrings) held() int64 { return int64(s.text.Cap()) + 4*int64(cap(s.ends)) }

func (s *sharedStrings) count() int { return len(s.ends) }

// get is string i, a substring of the texts: no copy is made.
func (s *sharedStrings) get(i int) string {
	from := uint32(0)
	if i > 0 {
		from = s.ends[i-1]
	}
	return s.text.String()[from:s.ends[i]]
}

// relatedPart finds a part next to the workbook part by its usual name.
func (wb *workbook) relatedPart(main, name string) string {
	p := path.Join(path.Dir(main), name)
	if wb.book.Find(p) == nil {
		return ""
	}
	return p
}

// readStyles reads which cell styles format numbers as dates or times.
func (wb *workbook) readStyles(main string) error {
	part := wb.relatedPart(main, "styles.xml")
	if part == "" {
		return nil
	}
	custom := map[int]bool{}
	inXfs := false
	return wb.eachToken(part, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "numFmt":
				if len(custom) >= maxCellFormats {
					return fmt.Errorf("%s lists more than %d number formats, Excel's limit of cell formats", part, maxCellFormats)
				}
				id, _ := strconv.Atoi(xlsxpage.Attr(t, "numFmtId"))
				custom[id] = isDateFormat(xlsxpage.Attr(t, "formatCode"))
			case t.Name.Local == "cellXfs":
				inXfs = true
			case inXfs && t.Name.Local == "xf":
				if len(wb.dateStyles) >= maxCellFormats {
					return fmt.Errorf("%s lists more than %d cell formats, Excel's limit", part, maxCellFormats)
				}
				id, _ := strconv.Atoi(xlsxpage.Attr(t, "numFmtId"))
				date, ok := custom[id]
				wb.dateStyles = append(wb.dateStyles, date || (!ok && isDateFormatID(id)))
			}
		case xml.EndElement:
			if t.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
		return nil
	})
}

// maxCellFormats is Excel's limit on the cell formats of a workbook.
const maxCellFormats = 64000

// isDateFormatID tells the built-in number formats of dates and times.
func isDateFormatID(id int) bool {
	return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58)
}

// isDateFormat tells a format code of a date or time: one with a date or
// time part (y, m, d, h, s) outside quoted text, escapes and brackets.
func isDateFormat(code string) bool {
	inQuote, inBracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '\\' || c == '_' || c == '*':
			i++ // the next character is literal, or padding
		case c == '[':
			inBracket = true
		case c == ']':
			inBracket = false
		case inBracket:
		case strings.IndexByte("ymdhsYMDHS", c) >= 0:
			return true
		}
	}
	return false
}

// eachToken streams the XML tokens of a part to f, within the limits.
func (wb *workbook) eachToken(name string, f func(xml.Token) error) error {
	p, err := wb.open(name)
	if errors.Is(err, errNoPart) {
		return nil
	}
	if err != nil {
		return err
	}
	defer p.Close()
	dec := xml.NewDecoder(p)
	for {
		p.tokenStart()
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return p.fail(err)
		}
		if err := f(tok); err != nil {
			return err
		}
	}
}

var errNoPart = errors.New("no such part")

// open opens a part for reading within the limits: one whose declared
// size is past them is refused before anything is inflated, and archive/zip
// refuses one that inflates to more than it declares.
func (wb *workbook) open(name string) (*partReader, error) {
	zf := wb.book.Find(name)
	if zf == nil {
		return nil, fmt.Errorf("%w: %s", errNoPart, name)
	}
	if zf.UncompressedSize64 > uint64(wb.lim.PartBytes) {
		return nil, limitError("PartBytes", wb.lim.PartBytes, int64(min(zf.UncompressedSize64, math.MaxInt64)), "bytes", "part "+name+", inflated,")
	}
	rc, err := wb.book.Open(wb.ctx, zf)
	if err != nil {
		return nil, sharedError(err)
	}
	return &partReader{name: name, src: bufio.NewReaderSize(rc, 64<<10), closer: rc, tokenLimit: wb.lim.TokenBytes}, nil
}

// partReader reads a part for an XML decoder, failing a token longer
// than the limit: encoding/xml holds a whole token in memory. The decoder
// reads through a buffer of its own, so a token is refused once the bytes
// read since it started pass the limit by at most that buffer's size.
type partReader struct {
	name       string
	src        *bufio.Reader
	closer     io.Closer
	tokenLimit int64
	inToken    int64 // bytes read since the token started
	over       bool
}

func (p *partReader) tokenStart() { p.inToken = 0 }

func (p *partReader) Read(b []byte) (int, error) {
	n, err := p.src.Read(b)
	if p.inToken += int64(n); p.inToken > p.tokenLimit+int64(len(b)) {
		p.over = true
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func (p *partReader) Close() error { return p.closer.Close() }

// fail turns a decoding error into the error to return: the token limit's
// when it was reached, else the error naming the part.
func (p *partReader) fail(err error) error {
	if p.over {
		return limitError("TokenBytes", p.tokenLimit, 0, "bytes", "an XML token (a text or a tag) of part "+p.name)
	}
	return fmt.Errorf("%s: %w", p.name, err)
}
