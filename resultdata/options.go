package resultdata

import (
	"errors"
	"log/slog"
	"strings"

	"github.com/scmodel/scmgo/internal/xlsxpage"
	"github.com/scmodel/scmgo/limits"
)

// Options are the optional settings of the readers; nil means defaults.
type Options struct {
	// Notes receives each [Note] as it is made, on the iterating goroutine.
	// Nil means each is logged at Warn to Logger.
	Notes func(Note)
	// Logger logs the notes when Notes is nil. Nil means the notes are
	// logged nowhere: the package logs only to a logger it is given.
	Logger *slog.Logger
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
		logger := d.Logger
		d.Notes = func(n Note) {
			if logger != nil {
				logger.Warn("resultdata: " + n.String())
			}
		}
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
// [*limits.Error] naming it. Zero fields take the defaults.
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

	// The limits below are dashboard.Options' too, with the same defaults
	// (dashboard's MaxPageBytes, MaxInflatedBytes, MaxParts,
	// MaxResultRows, MaxResultCells): both packages read page workbooks
	// with one reader.

	// PageBytes bounds the download of a page's workbook, which [Result]
	// holds in memory while the page is read. Default 64 MiB.
	PageBytes int64
	// InflatedBytes bounds what the parts of one workbook inflate to, all
	// the parts read counted together: the bound on a zip bomb, and on
	// the time a page takes. Default 256 MiB.
	InflatedBytes int64
	// Parts bounds the parts (zip entries) of a workbook. Default 10,000.
	Parts int

	// ResultRows and ResultCells are the budget of one result: the rows
	// yielded, and their values counted with the empty ones, by [Result]
	// over all its pages, or by one call of [ReadPage] or [ReadMerged].
	// Past one, the iteration ends with a [*limits.Error] that matches
	// [ErrResultTooLarge]. Defaults 10,485,760 rows (ten full sheets) and
	// 104,857,600 cells: ten sheets filled to Excel's limit of rows, ten
	// cells a row. A dashboard's page is a sheet per chart, so a result
	// that fills them is far past what a reader of its numbers expects.
	ResultRows  int64
	ResultCells int64
}

// DefaultLimits returns the limits used where [Options.Limits] leaves a
// field zero.
func DefaultLimits() Limits {
	return Limits{PartBytes: 1 << 30, SharedStringBytes: 64 << 20, TokenBytes: 1 << 20, RowsPerSheet: 1 << 20,
		ColumnsPerRow: 1 << 14, Sheets: 100_000, MergedRanges: 100_000, NotesPerSheet: 100,
		PageBytes: xlsxpage.DefaultPageBytes, InflatedBytes: xlsxpage.DefaultInflatedBytes, Parts: xlsxpage.DefaultParts,
		ResultRows: xlsxpage.DefaultResultRows, ResultCells: xlsxpage.DefaultResultCells}
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
		PageBytes: pick64(l.PageBytes, d.PageBytes), InflatedBytes: pick64(l.InflatedBytes, d.InflatedBytes),
		Parts: pick(l.Parts, d.Parts), ResultRows: pick64(l.ResultRows, d.ResultRows), ResultCells: pick64(l.ResultCells, d.ResultCells),
	}
}

// ErrResultTooLarge matches the [*limits.Error] of a result past its budget
// of rows or cells ([Limits.ResultRows], [Limits.ResultCells]).
var ErrResultTooLarge = errors.New("resultdata: the result is past its budget of rows and cells")

// ErrMalformed matches the error of a page workbook that is not a
// readable workbook: not a zip, a zip cut off, a part whose deflate stream
// or checksum is wrong, a part named by two sheets, rows out of order. It
// is dashboard.ErrMalformed too: both read page workbooks with the same
// reader. (A sheet whose XML breaks off is read up to there and noted as
// [Unreadable], as the package doc says.)
var ErrMalformed = xlsxpage.ErrMalformed

// ErrNoPages is the error of [Result] for a result that lists no
// dashboard pages: no rows is not taken for an empty result. It is
// dashboard.ErrNoPages too.
var ErrNoPages = xlsxpage.ErrNoPages

// limitError is the error of what going past the field limit of [Limits],
// whose value is max, counted in unit; seen is the value that went past,
// 0 when not known. A limit of the result's budget matches
// [ErrResultTooLarge] too.
func limitError(limit string, max, seen int64, unit, what string) error {
	err := &limits.Error{Package: "resultdata", Limit: "Limits." + limit, Max: max, Seen: seen, Unit: unit, What: what}
	if limit == "ResultRows" || limit == "ResultCells" {
		return tooLarge{err}
	}
	return err
}

// tooLarge is a result past its budget: a [*limits.Error] that matches
// [ErrResultTooLarge] as well as [limits.ErrLimit].
type tooLarge struct{ lim *limits.Error }

func (e tooLarge) Error() string        { return e.lim.Error() }
func (e tooLarge) Unwrap() error        { return e.lim }
func (e tooLarge) Is(target error) bool { return target == ErrResultTooLarge }

// sharedUnits are what each limit of the shared reader counts.
var sharedUnits = map[string]string{"PageBytes": "bytes", "InflatedBytes": "bytes", "Parts": "parts", "ResultRows": "rows", "ResultCells": "cells"}

// sharedError turns a limit of the shared reader into a [*limits.Error].
func sharedError(err error) error {
	var le *xlsxpage.LimitExceeded
	if !errors.As(err, &le) {
		return err
	}
	return limitError(le.Name, le.Max, 0, sharedUnits[le.Name], le.What)
}
