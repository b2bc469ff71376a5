package csvsafe

import (
	"bufio"
	"io"
	"strings"
)

// Options are the options of a [Writer]; the zero value neutralises.
type Options struct {
	// KeepFormulas writes text fields as given. By default (false) a text
	// field that begins with =, +, -, @, a tab or a carriage return is
	// written as [EscapeFormula] returns it.
	KeepFormulas bool
}

// EscapeFormula neutralises a text field a spreadsheet would take for a
// formula: a text that begins with =, +, -, @, a tab or a carriage return
// gets a single quote before it; any other is returned as it is.
func EscapeFormula(s string) string {
	if isFormula(s) {
		return "'" + s
	}
	return s
}

func isFormula(s string) bool { return s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 }

// Writer writes CSV records a field at a time: [Writer.Text] and
// [Writer.Number] add a field to the record under way, [Writer.EndRecord]
// ends it. Output is buffered: [Writer.Flush] writes it. A Writer is not
// safe for concurrent use.
type Writer struct {
	w      *bufio.Writer
	keep   bool
	fields int // of the record under way
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer, o Options) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), keep: o.KeepFormulas}
}

// Text adds a text field: neutralised unless [Options.KeepFormulas].
func (w *Writer) Text(s string) {
	w.separate()
	quote := strings.ContainsAny(s, ",\"\r\n")
	if quote {
		w.w.WriteByte('"')
	}
	if !w.keep && isFormula(s) {
		w.w.WriteByte('\'')
	}
	if quote {
		w.w.WriteString(strings.ReplaceAll(s, `"`, `""`))
		w.w.WriteByte('"')
		return
	}
	w.w.WriteString(s)
}

// Number adds a number field, written as it is when s is a decimal
// number (an optional minus sign, digits with an optional fraction, an
// optional exponent: -5, 0.25, -1e+21), as JSON and strconv write them;
// any other s is a text field.
func (w *Writer) Number(s string) {
	if !IsNumber(s) {
		w.Text(s)
		return
	}
	w.separate()
	w.w.WriteString(s)
}

// IsNumber reports whether s is a decimal number as [Writer.Number]
// writes it as it is: -?(D+(.D*)?|.D+)([eE][+-]?D+)?, D a digit.
func IsNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mantissa, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mantissa, exp, hasExp = strings.Cut(s, "E")
	}
	whole, frac, _ := strings.Cut(mantissa, ".")
	if whole == "" && frac == "" || !digits(whole) || !digits(frac) {
		return false
	}
	if hasExp {
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		return exp != "" && digits(exp)
	}
	return true
}

// digits reports whether s holds only ASCII digits ("" does).
func digits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// separate writes the comma before a field that is not the record's
// first.
func (w *Writer) separate() {
	if w.fields > 0 {
		w.w.WriteByte(',')
	}
	w.fields++
}

// EndRecord ends the record under way: CRLF.
func (w *Writer) EndRecord() error {
	w.fields = 0
	_, err := w.w.WriteString("\r\n")
	return err
}

// WriteText writes a record of text fields.
func (w *Writer) WriteText(record ...string) error {
	for _, s := range record {
		w.Text(s)
	}
	return w.EndRecord()
}

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.w.Flush() }
