package resultdata

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
)

// Options are the optional settings of the readers; nil means defaults.
type Options struct {
	// Notes receives each [Note] as it is made, on the iterating goroutine.
	// Nil means each is logged at Warn with [slog.Default], so no odd
	// layout passes unseen.
	Notes func(Note)
	// TimeColumn says whether a header names a column of times, whose text
	// and numbers formatted as dates are read as times. Nil means
	// [IsTimeColumn].
	TimeColumn func(header string) bool
	// Limits bound what a workbook can make the reader hold or do; zero
	// fields take the defaults of [DefaultLimits].
	Limits Limits
}

func (o *Options) orDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.Notes == nil {
		d.Notes = func(n Note) { slog.Default().Warn("resultdata: " + n.String()) }
	}
	if d.TimeColumn == nil {
		d.TimeColumn = IsTimeColumn
	}
	d.Limits = d.Limits.withDefaults()
	return d
}

// timeHeaders are the headers [IsTimeColumn] takes for times.
var timeHeaders = map[string]bool{
	"time": true, "date": true, "from": true, "to": true, "start": true, "end": true,
	"timestamp": true, "date time": true, "datetime": true, "start time": true, "end time": true,
	"start date": true, "end date": true, "from date": true, "to date": true,
}

// IsTimeColumn says whether a header names a time, ignoring case and the
// spaces around it: Time, Date, From, To, Start, End, Timestamp, Date time,
// Datetime, and Start, End, From or To followed by time or date. The
// recorded headers Statistics name | Time | Value and Iteration | Period |
// From | To say so of Time, From and To. "Lead time" is a duration, not a
// time, and is not one of them.
func IsTimeColumn(header string) bool {
	return timeHeaders[strings.ToLower(strings.Join(strings.Fields(header), " "))]
}

// Limits bound what a workbook, which a server made, can make the reader
// hold or do. A workbook past one fails the iteration with a
// [*LimitError] naming it. Zero fields take the defaults.
type Limits struct {
	// PartBytes bounds the inflated size of one part of a workbook, such
	// as a sheet's XML. Default 1 GiB.
	PartBytes int64
	// SharedStringBytes bounds the text of a workbook's shared strings,
	// which are held in memory while it is read. Default 64 MiB.
	SharedStringBytes int64
	// TokenBytes bounds one XML element or text, such as a cell's text.
	// Default 1 MiB.
	TokenBytes int64
	// RowsPerSheet bounds the number of a sheet's rows. Default 1,048,576,
	// Excel's own limit.
	RowsPerSheet int64
	// ColumnsPerRow bounds the column of a cell. Default 16,384, Excel's.
	ColumnsPerRow int
	// Sheets bounds the sheets of a workbook. Default 100,000.
	Sheets int
	// MergedRanges bounds the merged ranges of a sheet. Default 100,000.
	MergedRanges int
	// NotesPerSheet bounds the notes made of one sheet; past it they are
	// counted in one last note. Default 100.
	NotesPerSheet int
}

// DefaultLimits returns the limits used where [Options.Limits] leaves a
// field zero.
func DefaultLimits() Limits {
	return Limits{PartBytes: 1 << 30, SharedStringBytes: 64 << 20, TokenBytes: 1 << 20, RowsPerSheet: 1 << 20,
		ColumnsPerRow: 1 << 14, Sheets: 100_000, MergedRanges: 100_000, NotesPerSheet: 100}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	pick64 := func(v, def int64) int64 {
		if v <= 0 {
			return def
		}
		return v
	}
	pick := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	return Limits{
		PartBytes: pick64(l.PartBytes, d.PartBytes), SharedStringBytes: pick64(l.SharedStringBytes, d.SharedStringBytes),
		TokenBytes: pick64(l.TokenBytes, d.TokenBytes), RowsPerSheet: pick64(l.RowsPerSheet, d.RowsPerSheet),
		ColumnsPerRow: pick(l.ColumnsPerRow, d.ColumnsPerRow), Sheets: pick(l.Sheets, d.Sheets),
		MergedRanges: pick(l.MergedRanges, d.MergedRanges), NotesPerSheet: pick(l.NotesPerSheet, d.NotesPerSheet),
	}
}

// ErrLimit matches every [*LimitError].
var ErrLimit = errors.New("limit exceeded")

// LimitError is a workbook past one of the [Limits].
type LimitError struct {
	What  string // what went over, e.g. `sheet "Costs" has`
	Limit string // the field of Limits, e.g. "RowsPerSheet"
	Value int64  // the limit's value
	Unit  string // what Value counts; "bytes" for sizes
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("resultdata: %s more than %d %s: over the limit Limits.%s (raise it in Options.Limits)", e.What, e.Value, e.Unit, e.Limit)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }
