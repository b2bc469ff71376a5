package dashboard

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// sheetCopy copies the rows of one worksheet of a page into the merged
// sheet, as they stream out of the part: rows keep their positions, moved
// down by base-1, and cells their columns, values and types. It holds one
// cell at a time.
type sheetCopy struct {
	x      *xmlReader
	out    *sheetWriter
	lim    limits
	budget *xlsxpage.Budget // the export's rows and cells
	sst    *sharedStrings
	sheet  string // the worksheet's name, for errors
	base   int    // the merged row of the worksheet's row 1

	t       tag
	val     []byte // the value of the cell being read
	row     int    // the worksheet's row being read
	col     int    // the column of the last cell read
	lastRow int    // the worksheet's last row

	// keep, when set, takes the value of each cell read (in s.val) instead
	// of writing it, and a row below until ends the read with errRowsRead:
	// how the header of a chart's sheet is read (see header.go).
	keep  func(col int, typ cellKind) error
	until int
}

// copyRows copies the worksheet and returns its last row's number (0 for
// a worksheet without rows).
func (s *sheetCopy) copyRows() (int, error) {
	if err := s.toSheetData(); err != nil {
		return 0, err
	}
	if s.t.kind == tagStart {
		if err := s.rows(); err != nil {
			return 0, err
		}
	}
	s.out.endRow()
	return s.lastRow, s.toEnd()
}

// toSheetData reads up to the sheetData start tag, a child of the
// worksheet element, skipping the elements before it.
func (s *sheetCopy) toSheetData() error {
	x, t := s.x, &s.t
	if err := rootElement(x, t, elemWorksheet); err != nil {
		return err
	}
	if t.kind == tagEmpty {
		return x.malformed("the worksheet has no rows element (sheetData)")
	}
	for {
		if err := x.next(t); err != nil {
			return x.endedIn(err, "before the rows (sheetData)")
		}
		switch {
		case t.name == elemSheetData && t.kind != tagEnd:
			return nil
		case t.kind == tagStart:
			if err := x.skipElement(t); err != nil {
				return err
			}
		case t.kind == tagEnd:
			return x.malformed("the worksheet has no rows element (sheetData)")
		}
	}
}

// toEnd reads what follows the sheetData element: the worksheet's other
// elements, up to its end tag, then the end of the part.
func (s *sheetCopy) toEnd() error {
	x, t := s.x, &s.t
	for {
		if err := x.next(t); err != nil {
			return x.endedIn(err, "after the rows, before the end of the worksheet")
		}
		switch {
		case t.kind == tagEnd && t.name == elemWorksheet:
			return trailer(x)
		case t.kind == tagStart:
			if err := x.skipElement(t); err != nil {
				return err
			}
		case t.kind == tagEnd:
			return x.malformed("an end tag that ends no element begun")
		}
	}
}

// rows copies the row elements of sheetData, up to its end tag.
func (s *sheetCopy) rows() error {
	x, t := s.x, &s.t
	for {
		if err := x.next(t); err != nil {
			return x.endedIn(err, fmt.Sprintf("after row %d, before the end of the rows (sheetData)", s.lastRow))
		}
		switch {
		case t.kind == tagEnd && t.name == elemSheetData:
			return nil
		case t.name == elemRow && t.kind != tagEnd:
			if err := s.copyRow(); err != nil {
				return err
			}
		case t.kind == tagStart:
			if err := x.skipElement(t); err != nil {
				return err
			}
		case t.kind == tagEnd:
			return x.malformed("an end tag that ends no element begun")
		}
	}
}

// copyRow copies the row whose start tag was just read.
func (s *sheetCopy) copyRow() error {
	if err := s.startRow(); err != nil {
		return err
	}
	x, t := s.x, &s.t
	if t.kind == tagEmpty {
		return nil
	}
	for {
		if err := x.next(t); err != nil {
			return x.endedIn(err, fmt.Sprintf("in row %d", s.row))
		}
		switch {
		case t.kind == tagEnd && t.name == elemRow:
			return nil
		case t.name == elemC && t.kind != tagEnd:
			if err := s.copyCell(); err != nil {
				return err
			}
		case t.kind == tagStart:
			if err := x.skipElement(t); err != nil {
				return err
			}
		case t.kind == tagEnd:
			return x.malformed("row %d: an end tag that ends no element begun", s.row)
		}
	}
}

// startRow takes the number of the row whose tag was just read: its r
// attribute, or the row after the last. Rows go down.
func (s *sheetCopy) startRow() error {
	n := s.lastRow + 1
	if s.t.r != nil {
		var ok bool
		if n, ok = parseIndex(trimSpace(s.t.r)); !ok || n < 1 {
			return s.x.malformed("a row numbered %q", s.t.r)
		}
	}
	switch {
	case n <= s.lastRow:
		return s.x.malformed("row %d after row %d: rows must go down", n, s.lastRow)
	case s.until > 0 && n > s.until:
		return errRowsRead
	case n > int(s.lim.rows):
		return limitError("MaxRows", s.lim.rows, WorkbookMaxRows, int64(n), fmt.Sprintf("row %d", n))
	case s.base+n-1 > WorkbookMaxRows:
		return limitError("MaxRows", WorkbookMaxRows, WorkbookMaxRows, int64(s.base+n-1),
			fmt.Sprintf("the merged sheet, its sheets one after the other (row %d is row %d),", n, s.base+n-1))
	}
	if err := s.budget.Row(0); err != nil {
		return sharedError(err)
	}
	s.row, s.lastRow, s.col = n, n, 0
	s.out.startRow(s.base + n - 1)
	return nil
}

// copyCell copies the cell whose start tag was just read.
func (s *sheetCopy) copyCell() error {
	col, err := s.cellColumn()
	if err != nil {
		return err
	}
	typ := cellType(s.t.t)
	if typ == typeUnknown {
		return s.x.malformed("cell %s: the type %q", s.ref(col), s.t.t)
	}
	if s.t.kind == tagEmpty {
		return nil // no value: nothing to copy
	}
	has, err := s.readValue(col, typ)
	if err != nil || !has {
		return err
	}
	if s.keep != nil {
		return s.keep(col, typ)
	}
	return s.writeCell(col, typ)
}

// ref names a cell of the row being read, for errors.
func (s *sheetCopy) ref(col int) string {
	return string(appendColumn(nil, col)) + strconv.Itoa(s.row)
}

// cellColumn takes the column of the cell whose tag was just read: from
// its r attribute, or the column after the last. Cells go right, in the
// row they are in.
func (s *sheetCopy) cellColumn() (int, error) {
	col := s.col + 1
	if s.t.r != nil {
		c, row, ok := cellRef(trimSpace(s.t.r))
		if !ok || row != s.row {
			return 0, s.x.malformed("row %d: a cell at %q", s.row, s.t.r)
		}
		col = c
	}
	switch {
	case col <= s.col:
		return 0, s.x.malformed("row %d: cell %s after cell %s: cells must go right", s.row, s.ref(col), s.ref(s.col))
	case col > int(s.lim.columns):
		return 0, limitError("MaxColumns", s.lim.columns, WorkbookMaxColumns, int64(col), fmt.Sprintf("cell %s, in column %d,", s.ref(col), col))
	}
	s.col = col
	return col, nil
}

// cellKind is a cell's type attribute.
type cellKind uint8

const (
	typeNumber cellKind = iota + 1 // none, or n
	typeShared                     // s: an index into the shared strings
	typeInline                     // inlineStr: the text in an is element
	typeString                     // str: a formula's text
	typeBool                       // b
	typeError                      // e
	typeDate                       // d: an ISO 8601 date, kept as text
	typeUnknown
)

func cellType(t []byte) cellKind {
	switch string(t) {
	case "", "n":
		return typeNumber
	case "s":
		return typeShared
	case "inlineStr":
		return typeInline
	case "str":
		return typeString
	case "b":
		return typeBool
	case "e":
		return typeError
	case "d":
		return typeDate
	}
	return typeUnknown
}

// readValue reads the content of the cell being read into s.val: the text
// of its v element, or of its is element for an inline string; a formula
// (f) and anything else is skipped. has is false for a cell without a
// value.
func (s *sheetCopy) readValue(col int, typ cellKind) (has bool, err error) {
	x, t := s.x, &s.t
	s.val = s.val[:0]
	maxBytes := int(s.lim.cellChars) * len("_x0000_") // past it, a text has more than cellChars
	if s.fastValue(typ, maxBytes) {
		return true, nil
	}
	for {
		if err := x.next(t); err != nil {
			return false, x.endedIn(err, "in cell "+s.ref(col))
		}
		switch {
		case t.kind == tagEnd && t.name == elemC:
			return has, nil
		case t.kind == tagStart && (t.name == elemV && typ != typeInline || t.name == elemIs && typ == typeInline):
			has = true
			err = s.readContent(col, maxBytes)
		case t.kind == tagEmpty && (t.name == elemV || t.name == elemIs):
			has = true
		case t.kind == tagStart:
			err = x.skipElement(t)
		case t.kind == tagEnd:
			err = x.malformed("cell %s: an end tag that ends no element begun", s.ref(col))
		}
		if err != nil {
			return false, err
		}
	}
}

// The forms a cell's content takes in almost every workbook, read at once
// when the whole cell is in the buffer: a value, or an inline string.
var (
	valueOpen    = []byte("<v>")
	valueClose   = []byte("</v></c>")
	inlineOpen   = []byte("<is><t>")
	inlineOpenSp = []byte(`<is><t xml:space="preserve">`)
	inlineClose  = []byte("</t></is></c>")
)

// fastValue reads the content of the cell being read, up to its end tag,
// when it is one of the common forms, whole in the buffer, and its text
// holds no reference, line end or markup: the general reading would read
// the same.
func (s *sheetCopy) fastValue(typ cellKind, maxBytes int) bool {
	open, closing := valueOpen, valueClose
	b := s.x.buf[s.x.pos:s.x.end]
	switch {
	case typ != typeInline:
	case bytes.HasPrefix(b, inlineOpen):
		open, closing = inlineOpen, inlineClose
	case bytes.HasPrefix(b, inlineOpenSp):
		open, closing = inlineOpenSp, inlineClose
	default:
		return false
	}
	if !bytes.HasPrefix(b, open) {
		return false
	}
	text := b[len(open):]
	i := 0
	for i < len(text) && text[i] != '<' && text[i] != '&' && text[i] != '\r' {
		i++
	}
	if i > maxBytes || !bytes.HasPrefix(text[i:], closing) {
		return false
	}
	s.val = append(s.val[:0], text[:i]...)
	s.x.pos += len(open) + i + len(closing)
	return true
}

// readContent reads the v or is element whose start tag was just read.
func (s *sheetCopy) readContent(col, maxBytes int) error {
	var err error
	if s.t.name == elemIs {
		s.val, err = richText(s.x, s.val, maxBytes, &s.t, elemIs)
	} else if s.val, err = s.x.text(s.val, maxBytes, &s.t); err == nil && (s.t.kind != tagEnd || s.t.name != elemV) {
		err = s.x.malformed("cell %s: an element within its value (v)", s.ref(col))
	}
	if errors.Is(err, errTooLong) {
		return s.cellTooLong(col, -1)
	}
	return err
}

// cellTooLong is the error of a cell whose text has units UTF-16 code
// units (-1 when it was not read to its end).
func (s *sheetCopy) cellTooLong(col, units int) error {
	what := "the value of cell " + s.ref(col)
	if units >= 0 {
		what += fmt.Sprintf(", %d characters,", units)
	}
	return limitError("MaxCellChars", s.lim.cellChars, WorkbookMaxCellChars, int64(max(units, 0)), what)
}

// writeCell writes the cell read, keeping its type: numbers, true/false
// and error values as they are, text (shared, inline, a formula's, a
// date's, or a value its type cannot hold) as an inline string.
func (s *sheetCopy) writeCell(col int, typ cellKind) error {
	v := s.val
	if len(trimSpace(v)) == 0 && typ != typeInline && typ != typeString || len(v) == 0 {
		return nil // an empty value: no cell, as for a cell without one
	}
	if err := s.budget.Cell(); err != nil {
		return sharedError(err)
	}
	switch typ {
	case typeNumber:
		if n := trimSpace(v); isNumber(n) {
			return s.out.value(col, "", n)
		}
	case typeBool:
		if b, ok := boolValue(trimSpace(v)); ok {
			return s.out.value(col, "b", []byte{b})
		}
	case typeError:
		if e := trimSpace(v); errorValues[string(e)] {
			return s.out.value(col, "e", e)
		}
	case typeShared:
		var err error
		if v, err = s.shared(col, v); err != nil {
			return err
		}
	}
	return s.writeText(col, v)
}

// shared is the shared string whose index is the value v of a cell.
func (s *sheetCopy) shared(col int, v []byte) ([]byte, error) {
	i, ok := parseIndex(trimSpace(v))
	if !ok || i >= s.sst.count() {
		return nil, s.x.malformed("cell %s: shared string %q of %d", s.ref(col), v, s.sst.count())
	}
	return s.sst.get(i), nil
}

// writeText writes a text cell, after checking that a workbook can hold
// its text.
func (s *sheetCopy) writeText(col int, text []byte) error {
	units, ok := textUnits(text)
	switch {
	case !ok:
		return s.x.malformed("cell %s: a text that is not UTF-8, or holds a character XML cannot carry", s.ref(col))
	case units > int(s.lim.cellChars):
		return s.cellTooLong(col, units)
	}
	return s.out.text(col, text)
}
