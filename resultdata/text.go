package resultdata

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/scmodel/scmgo/internal/csvsafe"
)

func itoa[I ~int64](i I) string { return strconv.FormatInt(int64(i), 10) }

// csvWriter writes the long layout (NewCSV) or a chart's (NewChartCSV) as
// CSV through csvsafe, the module's one CSV writer: RFC 4180, a header
// row, records ended by CRLF. Values are written as [Value.String] does,
// a number as a number field; an empty value, and each of the long
// layout's three unused value columns, is an empty field. Text fields are
// neutralised as [EscapeFormula] says, unless [CSVOptions.KeepFormulas].
type csvWriter struct {
	w      *csvsafe.Writer
	chart  *Chart // the chart layout's chart; nil for the long layout
	header []string
	wide   []string // the chart layout's columns, fixed at the start
	keys   []Key    // the long layout's keys, before its columns
}

// CSVOptions are the options of the CSV writers; the zero value is what
// [NewCSV], [NewChartCSV] and [NewKeyedCSV] use.
type CSVOptions struct {
	// KeepFormulas writes text fields as the server sent them. By default
	// (false) a text field that begins with =, +, -, @, a tab or a carriage
	// return (a cell's text, a page's, sheet's or chart's name, a header's
	// name, a formula's cached text) is written with a single quote before
	// it, as [EscapeFormula] says, so that a spreadsheet that opens the
	// file shows it rather than evaluating it. Numbers are never changed.
	KeepFormulas bool
}

// EscapeFormula neutralises a text field a spreadsheet would take for a
// formula, as OWASP's advice on CSV injection and csv-stringify's
// escape_formulas do: a text that begins with =, +, -, @, a tab or a
// carriage return gets a single quote before it; any other is returned as
// it is.
func EscapeFormula(s string) string { return csvsafe.EscapeFormula(s) }

func (o CSVOptions) newCSV(w io.Writer) *csvsafe.Writer {
	return csvsafe.NewWriter(w, csvsafe.Options{KeepFormulas: o.KeepFormulas})
}

// NewCSV writes the long layout ([LongColumns]) as CSV to w, text fields
// neutralised ([CSVOptions]).
func NewCSV(w io.Writer) RowWriter { return CSVOptions{}.NewCSV(w) }

// NewCSV writes the long layout ([LongColumns]) as CSV to w.
func (o CSVOptions) NewCSV(w io.Writer) RowWriter {
	return &csvWriter{w: o.newCSV(w), header: LongColumns}
}

// NewChartCSV writes the rows of chart c in the chart layout
// ([WideColumns]) as CSV to w. Rows of another chart are refused. The
// columns are those c has when NewChartCSV is called, at the chart's first
// row: a column the reader adds later (cells right of the header, which it
// reports) is left out of the file; the long layout keeps it. Text fields,
// the header's names among them, are neutralised ([CSVOptions]).
func NewChartCSV(w io.Writer, c *Chart) RowWriter { return CSVOptions{}.NewChartCSV(w, c) }

// NewChartCSV writes the rows of chart c in the chart layout as CSV to w,
// as the function [NewChartCSV] does.
func (o CSVOptions) NewChartCSV(w io.Writer, c *Chart) RowWriter {
	cols := WideColumns(c)
	return &csvWriter{w: o.newCSV(w), chart: c, header: cols, wide: cols}
}

func (w *csvWriter) Write(r Row) error {
	if w.header != nil {
		if err := w.writeHeader(); err != nil {
			return err
		}
	}
	if w.chart != nil {
		return w.wideRecord(r)
	}
	return w.longRecords(r)
}

// writeHeader writes the header row, its names as text fields.
func (w *csvWriter) writeHeader() error {
	err := w.w.WriteText(w.header...)
	w.header = nil
	return err
}

// provenance writes a row's provenance fields: the ids as numbers, the
// names as text fields, then the row's index and sheet row.
func (w *csvWriter) provenance(r Row) {
	p := provenance(r)
	w.w.Number(p[0])
	w.w.Number(p[1])
	for _, name := range p[2:] {
		w.w.Text(name)
	}
	w.w.Number(itoa(r.Index))
	w.w.Number(itoa(r.SheetRow))
}

// writeKeys writes the long layout's keys: a text key as a text field, an
// integer key as a number.
func (w *csvWriter) writeKeys() {
	for _, k := range w.keys {
		if k.IsText {
			w.w.Text(k.Text)
		} else {
			w.w.Number(k.String())
		}
	}
}

func (w *csvWriter) longRecords(r Row) error {
	for i, v := range r.Values {
		if v.Kind == Empty {
			continue
		}
		w.writeKeys()
		w.provenance(r)
		w.w.Text(r.Chart.Columns[i].Name)
		w.w.Text(v.Kind.String())
		for slot := range 4 {
			if slot == valueSlot(v.Kind) {
				w.value(v)
			} else {
				w.w.Text("")
			}
		}
		if err := w.w.EndRecord(); err != nil {
			return err
		}
	}
	return nil
}

// valueSlot is the position of a kind's column among number, time, text
// and bool.
func valueSlot(k Kind) int { return int(k) - int(Number) }

func (w *csvWriter) wideRecord(r Row) error {
	if err := checkChart(w.chart, r); err != nil {
		return err
	}
	w.provenance(r)
	for i := range len(w.wide) - len(ChartColumns) {
		v := Value{}
		if i < len(r.Values) {
			v = r.Values[i]
		}
		w.value(v)
	}
	return w.w.EndRecord()
}

// checkChart refuses a row of another chart than a chart layout's file.
func checkChart(c *Chart, r Row) error {
	if r.Chart != c {
		return &ChartError{Want: c, Got: r.Chart}
	}
	return nil
}

// ChartError is a row of one chart written to the file of another.
type ChartError struct{ Want, Got *Chart }

func (e *ChartError) Error() string {
	return "resultdata: a row of chart " + strconv.Quote(e.Got.Sheet) + " written to the file of chart " + strconv.Quote(e.Want.Sheet)
}

// value writes a value's field: a text as a text field, a number that is
// not finite empty, a number as a number, any other as [Value.String]
// writes it.
func (w *csvWriter) value(v Value) {
	switch {
	case v.Kind == Text:
		w.w.Text(v.Text)
	case v.Kind == Number && (math.IsNaN(v.Num) || math.IsInf(v.Num, 0)):
		w.w.Text("")
	case v.Kind == Number:
		w.w.Number(v.String())
	default:
		w.w.Text(v.String())
	}
}

func (w *csvWriter) Close() error {
	if w.header != nil { // no rows: the header alone
		if err := w.writeHeader(); err != nil {
			return err
		}
	}
	return w.w.Flush()
}

// jsonWriter writes JSON Lines: an object per record, its keys the
// layout's columns in order. An empty value, and each of the long
// layout's unused value columns, is null; a time is a string in
// [TimeLayout] with a T, as ISO 8601 has it.
type jsonWriter struct {
	w      *bufio.Writer
	chart  *Chart
	keys   [][]byte // each column's key, quoted, with its colon
	prefix []byte   // the long layout's keys and values, each ended by a comma
	buf    []byte
}

// NewJSONL writes the long layout ([LongColumns]) as JSON Lines to w.
func NewJSONL(w io.Writer) RowWriter {
	return &jsonWriter{w: bufio.NewWriterSize(w, 64<<10), keys: jsonKeys(LongColumns)}
}

// NewChartJSONL writes the rows of chart c in the chart layout
// ([WideColumns]) as JSON Lines to w. Rows of another chart are refused;
// the columns are fixed as [NewChartCSV] says.
func NewChartJSONL(w io.Writer, c *Chart) RowWriter {
	return &jsonWriter{w: bufio.NewWriterSize(w, 64<<10), chart: c, keys: jsonKeys(WideColumns(c))}
}

func jsonKeys(names []string) [][]byte {
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i] = append(appendJSONString(nil, n), ':')
	}
	return out
}

func (w *jsonWriter) Write(r Row) error {
	if w.chart != nil {
		if err := checkChart(w.chart, r); err != nil {
			return err
		}
		return w.line(w.wideObject(r))
	}
	for i, v := range r.Values {
		if v.Kind != Empty {
			if err := w.line(w.longObject(r, i, v)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *jsonWriter) line(b []byte) error {
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// head appends the object's opening and the provenance columns.
func (w *jsonWriter) head(b []byte, r Row) []byte {
	c := r.Chart
	b = append(append(b, '{'), w.prefix...)
	b = strconv.AppendInt(append(b, w.keys[0]...), int64(c.ResultID), 10)
	b = strconv.AppendInt(append(append(b, ','), w.keys[1]...), int64(c.PageID), 10)
	for i, s := range []string{c.Page, c.Sheet, c.Type, c.Statistics, c.Name} {
		b = appendJSONString(append(append(b, ','), w.keys[2+i]...), s)
	}
	b = strconv.AppendInt(append(append(b, ','), w.keys[7]...), r.Index, 10)
	return strconv.AppendInt(append(append(b, ','), w.keys[8]...), r.SheetRow, 10)
}

func (w *jsonWriter) longObject(r Row, i int, v Value) []byte {
	b := w.head(w.buf[:0], r)
	b = appendJSONString(append(append(b, ','), w.keys[9]...), r.Chart.Columns[i].Name)
	b = appendJSONString(append(append(b, ','), w.keys[10]...), v.Kind.String())
	for slot := range 4 {
		b = append(append(b, ','), w.keys[11+slot]...)
		if slot == valueSlot(v.Kind) {
			b = appendJSONValue(b, v)
		} else {
			b = append(b, "null"...)
		}
	}
	return append(b, '}', '\n')
}

func (w *jsonWriter) wideObject(r Row) []byte {
	b := w.head(w.buf[:0], r)
	for i, key := range w.keys[len(ChartColumns):] {
		v := Value{}
		if i < len(r.Values) {
			v = r.Values[i]
		}
		b = appendJSONValue(append(append(b, ','), key...), v)
	}
	return append(b, '}', '\n')
}

func (w *jsonWriter) Close() error { return w.w.Flush() }

// appendJSONValue appends a value as JSON: null when empty or not a
// finite number.
func appendJSONValue(b []byte, v Value) []byte {
	switch v.Kind {
	case Number:
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			return append(b, "null"...)
		}
		return appendNumber(b, v.Num)
	case Time:
		return append(v.Time.AppendFormat(append(b, '"'), jsonTimeLayout), '"')
	case Text:
		return appendJSONString(b, v.Text)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	}
	return append(b, "null"...)
}

// jsonTimeLayout is [TimeLayout] with a T between the date and the time.
const jsonTimeLayout = "2006-01-02T15:04:05.999999"

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
