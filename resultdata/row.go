package resultdata

import (
	"math"
	"strconv"
	"time"

	"github.com/scmodel/scmgo/ids"
)

// Row is one data row of a chart: a value under each of the chart's
// columns. A row is valid until the iteration that yielded it goes on: its
// Values are reused for the next row; copy them ([Row.Clone]) to keep them.
type Row struct {
	Chart *Chart // where the row came from; shared by the rows of a chart
	// Index is the row's position among the chart's data rows, from 1.
	Index int64
	// SheetRow is the row's number in its sheet (1-based), as a spreadsheet
	// shows it; 0 for rows read through the JSON operations.
	SheetRow int64
	// Values holds a value per column of Chart.Columns, in order. A column
	// added to the chart after this row was read has no value here.
	Values []Value
}

// Clone returns a copy of r that later iterations leave alone.
func (r Row) Clone() Row {
	r.Values = append([]Value(nil), r.Values...)
	return r
}

// Chart is where rows came from: the result, the page and the chart, with
// the metadata its sheet gives above the header.
type Chart struct {
	ResultID ids.ExperimentResultID // experimentResultId
	PageID   ids.PageID             // the dashboard page's id; 0 when the source does not say (a merged workbook)
	Page     string                 // the page's name: in a merged workbook, its sheet's
	// Sheet names the chart where it was read: its sheet in a page
	// workbook; in a merged workbook the section heading naming the chart's
	// sheet in its page workbook, or the page's sheet when the page had one
	// chart; for a chart read through the JSON operations, its name.
	Sheet      string
	ChartID    int64  // the chart's id; 0 when the source does not say (workbooks)
	Type       string // "Type:" above the header; "" when the sheet has none
	Statistics string // "Statistics:" above the header; "" when none
	Name       string // "Chart name:" above the header; "" when none
	// Columns are the chart's columns, named by its header. A cell right
	// of the header adds a column named by its letter, at the end.
	Columns []Column
	// HeaderRow is the sheet row of the header; 0 for JSON tables.
	HeaderRow int64
}

// Column is a column of a chart.
type Column struct {
	Name string
	// Kind is what the column holds: Time when its header names a time
	// (see [Options.TimeColumn]), else the kind of its first value; Empty
	// while it has none. A value of another kind is kept as it is, and
	// reported ([OtherType]).
	Kind Kind
}

// Kind is the type of a value.
type Kind uint8

// The kinds of values.
const (
	Empty  Kind = iota // an empty cell
	Number             // a number: Value.Num
	Time               // a date or time: Value.Time, a wall-clock time in UTC
	Text               // text, and error cells such as #DIV/0!: Value.Text
	Bool               // a boolean: Value.Bool
)

var kindNames = [...]string{Empty: "empty", Number: "number", Time: "time", Text: "text", Bool: "bool"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one typed value; Kind says which field holds it.
type Value struct {
	Kind Kind
	Num  float64
	// Time is a spreadsheet's date and time as written, without a time
	// zone: its fields read in UTC.
	Time time.Time
	Text string
	Bool bool
}

// TimeLayout is how a time is written as text: ISO 8601 without a zone,
// with fractions of a second only when there are any.
const TimeLayout = "2006-01-02 15:04:05.999999"

// String writes the value as text: numbers in the shortest form that reads
// back the same, times in [TimeLayout], booleans as true or false, empty as
// "".
func (v Value) String() string {
	switch v.Kind {
	case Number:
		return formatNumber(v.Num)
	case Time:
		return v.Time.Format(TimeLayout)
	case Text:
		return v.Text
	case Bool:
		return strconv.FormatBool(v.Bool)
	}
	return ""
}

// appendNumber appends f as encoding/json writes it: plain digits between
// 1e-6 and 1e21, an exponent otherwise.
func appendNumber(buf []byte, f float64) []byte {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(buf, f, 'g', -1, 64)
	}
	return strconv.AppendFloat(buf, f, 'f', -1, 64)
}

func formatNumber(f float64) string { return string(appendNumber(nil, f)) }
