package dashboard

import (
	"io"
	"strconv"
)

// flushAt is how much sheetWriter gathers before it writes.
const flushAt = 64 << 10

// sheetWriter writes the XML of a merged sheet's rows: a cell keeps its
// value and type, text as an inline string, with no style.
type sheetWriter struct {
	w   io.Writer
	buf []byte
	err error

	rowNum  int  // the row cells go to
	rowOpen bool // its start tag is written
}

func newSheetWriter(w io.Writer, buf []byte) *sheetWriter {
	return &sheetWriter{w: w, buf: buf[:0]}
}

// flush writes what was gathered once there is enough of it, or always
// when force.
func (s *sheetWriter) flush(force bool) error {
	if s.err == nil && (force || len(s.buf) >= flushAt) && len(s.buf) > 0 {
		_, s.err = s.w.Write(s.buf)
		s.buf = s.buf[:0]
	}
	return s.err
}

// startRow makes row n the row cells go to; it is written with its first
// cell, so a row without cells is not written.
func (s *sheetWriter) startRow(n int) {
	s.endRow()
	s.rowNum = n
}

// endRow ends the row written, if any.
func (s *sheetWriter) endRow() {
	if s.rowOpen {
		s.buf = append(s.buf, "</row>"...)
		s.rowOpen = false
	}
}

// cellStart opens a cell in column col of the current row, with the type
// attribute typ (none when empty).
func (s *sheetWriter) cellStart(col int, typ string) {
	if !s.rowOpen {
		s.buf = append(s.buf, `<row r="`...)
		s.buf = strconv.AppendInt(s.buf, int64(s.rowNum), 10)
		s.buf = append(s.buf, `">`...)
		s.rowOpen = true
	}
	s.buf = append(s.buf, `<c r="`...)
	s.buf = appendColumn(s.buf, col)
	s.buf = strconv.AppendInt(s.buf, int64(s.rowNum), 10)
	if typ != "" {
		s.buf = append(s.buf, `" t="`...)
		s.buf = append(s.buf, typ...)
	}
	s.buf = append(s.buf, `">`...)
}

// value writes a cell of type typ ("" for a number, b, e) whose value v
// is written as it is.
func (s *sheetWriter) value(col int, typ string, v []byte) error {
	s.cellStart(col, typ)
	s.buf = append(s.buf, "<v>"...)
	s.buf = append(s.buf, v...)
	s.buf = append(s.buf, "</v></c>"...)
	return s.flush(false)
}

// text writes a cell of text, escaped.
func (s *sheetWriter) text(col int, text []byte) error {
	s.cellStart(col, "inlineStr")
	s.buf = append(s.buf, "<is><t"...)
	if len(text) > 0 && (isSpace(text[0]) || isSpace(text[len(text)-1])) {
		s.buf = append(s.buf, ` xml:space="preserve"`...)
	}
	s.buf = append(s.buf, '>')
	s.buf = appendEscaped(s.buf, text)
	s.buf = append(s.buf, "</t></is></c>"...)
	return s.flush(false)
}

// appendEscaped appends text escaped as XML character data; \r is written
// as a reference, which a reader keeps where it would read a \r as \n.
func appendEscaped(dst, text []byte) []byte {
	for {
		i := 0
		for i < len(text) && text[i] != '&' && text[i] != '<' && text[i] != '>' && text[i] != '\r' {
			i++
		}
		dst = append(dst, text[:i]...)
		if i == len(text) {
			return dst
		}
		switch text[i] {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '\r':
			dst = append(dst, "&#13;"...)
		}
		text = text[i+1:]
	}
}
