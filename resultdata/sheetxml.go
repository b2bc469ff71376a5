package resultdata

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// cell is one cell of a row, typed by what the sheet says of it: its type
// attribute, and its style for numbers formatted as dates.
type cell struct {
	col int // 0-based
	v   Value
}

// sheetScanner streams the rows of a sheet part: each call of next reads
// one row element and its cells. Rows the part leaves out (empty rows) are
// not seen; row tells each row's number.
type sheetScanner struct {
	wb    *workbook
	part  *partReader
	dec   *xml.Decoder
	row   int64  // the number of the row read last
	cells []cell // its cells, in the order written
	text  []byte // the current cell's text
}

func (wb *workbook) scanSheet(ref sheetRef) (*sheetScanner, error) {
	p, err := wb.open(ref.part)
	if err != nil {
		return nil, err
	}
	return &sheetScanner{wb: wb, part: p, dec: xml.NewDecoder(p)}, nil
}

func (s *sheetScanner) close() { s.part.Close() }

// token reads the next XML token; io.EOF ends the part.
func (s *sheetScanner) token() (xml.Token, error) {
	s.part.tokenStart()
	tok, err := s.dec.RawToken()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, s.part.fail(err)
	}
	return tok, err
}

// next reads the next row; false at the end of the sheet's data.
func (s *sheetScanner) next() (bool, error) {
	for {
		tok, err := s.token()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "row" {
				return true, s.readRow(t)
			}
		case xml.EndElement:
			if t.Name.Local == "sheetData" {
				return false, nil
			}
		}
	}
}

// readRow reads the cells of the row element el.
func (s *sheetScanner) readRow(el xml.StartElement) error {
	last := s.row
	s.row++
	if r := xlsxpage.Attr(el, "r"); r != "" {
		n, err := strconv.ParseInt(r, 10, 64)
		if err != nil || n < 1 {
			return fmt.Errorf("%s: row %q is not a row number", s.part.name, r)
		}
		if n <= last {
			return fmt.Errorf("%w: %s: row %d after row %d: rows must go down", ErrMalformed, s.part.name, n, last)
		}
		s.row = n
	}
	if s.row > s.wb.lim.RowsPerSheet {
		return limitError("RowsPerSheet", s.wb.lim.RowsPerSheet, s.row, "rows", fmt.Sprintf("%s: row %d", s.part.name, s.row))
	}
	s.cells = s.cells[:0]
	for {
		tok, err := s.token()
		if err != nil {
			return s.cutShort(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "c" {
				if err := s.readCell(t); err != nil {
					return err
				}
			}
		case xml.EndElement:
			if t.Name.Local == "row" {
				return nil
			}
		}
	}
}

// cutShort is the error of a part that ends inside an element.
func (s *sheetScanner) cutShort(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: the XML ends inside row %d", s.part.name, s.row)
	}
	return err
}

// readCell reads a cell element: its column, type, style and text (its
// value, or its inline string's runs), and appends it to the row.
func (s *sheetScanner) readCell(el xml.StartElement) error {
	col := len(s.cells)
	if len(s.cells) > 0 {
		col = s.cells[len(s.cells)-1].col + 1
	}
	var typ string
	style := 0
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "r":
			c, _, ok := parseCellRef(a.Value)
			if !ok {
				return fmt.Errorf("%s: row %d: %q is not a cell reference", s.part.name, s.row, a.Value)
			}
			col = c
		case "t":
			typ = a.Value
		case "s":
			style, _ = strconv.Atoi(a.Value)
		}
	}
	if col >= s.wb.lim.ColumnsPerRow {
		return limitError("ColumnsPerRow", int64(s.wb.lim.ColumnsPerRow), int64(col)+1, "columns", fmt.Sprintf("%s: row %d: the cell in column %d", s.part.name, s.row, col+1))
	}
	if err := s.readCellText(); err != nil {
		return err
	}
	v, err := s.wb.cellValue(typ, style, s.text)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", s.part.name, cellName(col, s.row), err)
	}
	if v.Kind != Empty {
		s.cells = append(s.cells, cell{col: col, v: v})
	}
	return nil
}

// readCellText reads a cell's content up to its end into s.text: the text
// of its v element, or of the t elements of its inline string, phonetic
// runs left out; a formula is skipped.
func (s *sheetScanner) readCellText() error {
	s.text = s.text[:0]
	var inV, inT, inRPh bool
	for {
		tok, err := s.token()
		if err != nil {
			return s.cutShort(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "v":
				inV = true
			case "t":
				inT = true
			case "rPh":
				inRPh = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "c":
				return nil
			case "v":
				inV = false
			case "t":
				inT = false
			case "rPh":
				inRPh = false
			}
		case xml.CharData:
			if inV || (inT && !inRPh) {
				s.text = append(s.text, t...)
			}
		}
	}
}

// cellValue types a cell's text by its type attribute and style.
func (wb *workbook) cellValue(typ string, style int, text []byte) (Value, error) {
	if len(text) == 0 {
		return Value{}, nil
	}
	switch typ {
	case "s":
		i, err := strconv.Atoi(string(text))
		if err != nil || i < 0 || i >= wb.shared.count() {
			return Value{}, fmt.Errorf("shared string %q is not one of the workbook's %d", text, wb.shared.count())
		}
		if s := wb.shared.get(i); s != "" {
			return Value{Kind: Text, Text: s}, nil
		}
		return Value{}, nil
	case "str", "inlineStr", "e":
		return Value{Kind: Text, Text: string(text)}, nil
	case "b":
		return Value{Kind: Bool, Bool: text[0] == '1' || string(text) == "true"}, nil
	case "d":
		if t, ok := parseTime(string(text)); ok {
			return Value{Kind: Time, Time: t}, nil
		}
		return Value{Kind: Text, Text: string(text)}, nil
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return Value{Kind: Text, Text: string(text)}, nil
	}
	if style > 0 && style < len(wb.dateStyles) && wb.dateStyles[style] {
		if t, ok := wb.serialTime(f); ok {
			return Value{Kind: Time, Time: t}, nil
		}
	}
	return Value{Kind: Number, Num: f}, nil
}

// serialTime turns a spreadsheet's day number into a time, to the
// millisecond; false when it is no date (negative, or past the year 9999).
func (wb *workbook) serialTime(f float64) (time.Time, bool) {
	if f < 0 || f > 2958465 || math.IsNaN(f) {
		return time.Time{}, false
	}
	epoch := time.Date(1899, time.December, 30, 0, 0, 0, 0, time.UTC)
	switch {
	case wb.date1904:
		epoch = time.Date(1904, time.January, 1, 0, 0, 0, 0, time.UTC)
	case f < 61:
		epoch = epoch.AddDate(0, 0, 1) // Excel counts a 29 February 1900 that never was
	}
	days := math.Floor(f)
	ms := math.Round((f - days) * 86400e3)
	return epoch.AddDate(0, 0, int(days)).Add(time.Duration(ms) * time.Millisecond), true
}

// parseCellRef reads a cell reference such as "AB12": its column (0-based)
// and row (1-based; 0 when the reference has no row).
func parseCellRef(ref string) (col int, row int64, ok bool) {
	i := 0
	for ; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		if col = col*26 + int(ref[i]-'A'+1); col > 1<<20 {
			return 0, 0, false
		}
	}
	if i == 0 || i > 3 {
		return 0, 0, false
	}
	if i < len(ref) {
		n, err := strconv.ParseInt(ref[i:], 10, 64)
		if err != nil || n < 1 {
			return 0, 0, false
		}
		row = n
	}
	return col - 1, row, true
}

// columnName is the letters of a 0-based column: A, B, ..., Z, AA, ...
func columnName(col int) string {
	var b []byte
	for col++; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

// cellName is a cell's reference, such as B7.
func cellName(col int, row int64) string { return columnName(col) + strconv.FormatInt(row, 10) }
