package dashboard

import (
	"fmt"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/internal/xlsxpage"
	scmlimits "github.com/scmodel/scmgo/limits"
)

// What a workbook can hold, whatever the options say: Excel's limits,
// which excelize, the library that makes the workbook, shares.
const (
	// WorkbookMaxCellChars is the most characters (UTF-16 code units, as
	// Excel counts them) a cell holds.
	WorkbookMaxCellChars = 32767
	// WorkbookMaxRows is the most rows a sheet holds.
	WorkbookMaxRows = 1048576
	// WorkbookMaxColumns is the most columns a sheet holds (A to XFD).
	WorkbookMaxColumns = 16384
)

// Options are the optional inputs of [Export]. The limits bound what one
// page workbook can make the export hold or do, as a server sends it: a
// page that goes past one ends the export with a *limits.Error naming the
// page, the limit and the option that raises it. Each is checked while the
// page is read, before the part that would go past it is held or written.
// Zero means the default; a negative value, or one above what a workbook
// holds, is refused with a [*facade.ValidationError].
type Options struct {
	// Progress, when set, is called on the caller's goroutine as each page
	// goes through the stages of [Stage], the pages in order: downloading
	// (at 0 bytes when its workbook's download is answered, again at 0
	// when it is fetched again after it broke off, and with the bytes
	// received), merging, and written once its sheet is written to w. A
	// page downloads while the page before it merges: its downloading
	// reports, the last of each start, are made once that page is written.
	// Nil means no reports.
	Progress func(Progress)

	// MaxPageBytes bounds a page workbook's download, which is held in
	// memory while the page is merged. Default 64 MiB.
	MaxPageBytes int64
	// MaxInflatedBytes bounds the bytes a page workbook's parts inflate to,
	// all the parts read counted together: the bound on a zip bomb, and on
	// the time a page takes. Default 256 MiB.
	MaxInflatedBytes int64
	// MaxHeldBytes bounds what is held in memory of a page's parts while
	// its sheets are copied: its shared strings, its workbook part and the
	// relationships, as decoded. Default 32 MiB; at most 2 GiB.
	MaxHeldBytes int64
	// MaxParts bounds the parts (zip entries) of a page workbook. Default
	// 10,000.
	MaxParts int
	// MaxCellChars bounds the text of one cell, in UTF-16 code units as
	// Excel counts them. Default and most: [WorkbookMaxCellChars], what a
	// cell holds; a longer text is an error, never cut.
	MaxCellChars int
	// MaxRows bounds the rows of a sheet of a page workbook: a row numbered
	// above it is an error. Default and most: [WorkbookMaxRows]. The merged
	// sheet of a page (its sheets one after the other) must fit in
	// WorkbookMaxRows too.
	MaxRows int
	// MaxColumns bounds the columns of a sheet of a page workbook: a cell
	// in a column numbered above it is an error. Default and most:
	// [WorkbookMaxColumns].
	MaxColumns int
	// MaxResultRows and MaxResultCells are the budget of the whole export:
	// the rows and the cells copied from every page. Defaults 10,485,760
	// rows and 104,857,600 cells, resultdata's Limits.ResultRows and
	// ResultCells.
	MaxResultRows  int64
	MaxResultCells int64

	// NoFollow makes [ExportFile] refuse to write through a symbolic link
	// at its path, with an error matching [ErrSymlink]; false follows it
	// and replaces the file it points to. [Export] ignores it.
	NoFollow bool
}

// DefaultOptions returns the options whose limits are the defaults: what
// zero means for each.
func DefaultOptions() Options {
	l := defaultLimits()
	return Options{MaxPageBytes: l.pageBytes, MaxInflatedBytes: l.inflated, MaxHeldBytes: l.held,
		MaxParts: int(l.parts), MaxCellChars: int(l.cellChars), MaxRows: int(l.rows), MaxColumns: int(l.columns),
		MaxResultRows: l.resultRows, MaxResultCells: l.resultCells}
}

// limits are the options' limits, defaults applied.
type limits struct {
	pageBytes, inflated, held int64
	parts, cellChars          int64
	rows, columns             int64
	resultRows, resultCells   int64
}

func defaultLimits() limits {
	return limits{pageBytes: 64 << 20, inflated: 256 << 20, held: 32 << 20, parts: 10000,
		cellChars: WorkbookMaxCellChars, rows: WorkbookMaxRows, columns: WorkbookMaxColumns,
		resultRows: xlsxpage.DefaultResultRows, resultCells: xlsxpage.DefaultResultCells}
}

// limits validates the options' limits and applies the defaults.
func (o *Options) limits() (limits, error) {
	l := defaultLimits()
	if o == nil {
		return l, nil
	}
	for _, f := range []struct {
		name string
		v    int64
		most int64 // 0: no bound but the type's
		dst  *int64
	}{
		{"MaxPageBytes", o.MaxPageBytes, 0, &l.pageBytes},
		{"MaxInflatedBytes", o.MaxInflatedBytes, 0, &l.inflated},
		{"MaxHeldBytes", o.MaxHeldBytes, 1 << 31, &l.held},
		{"MaxParts", int64(o.MaxParts), 0, &l.parts},
		{"MaxCellChars", int64(o.MaxCellChars), WorkbookMaxCellChars, &l.cellChars},
		{"MaxRows", int64(o.MaxRows), WorkbookMaxRows, &l.rows},
		{"MaxColumns", int64(o.MaxColumns), WorkbookMaxColumns, &l.columns},
		{"MaxResultRows", o.MaxResultRows, 0, &l.resultRows},
		{"MaxResultCells", o.MaxResultCells, 0, &l.resultCells},
	} {
		switch {
		case f.v < 0:
			return l, optionError(f.name, fmt.Sprintf("must not be negative, got %d", f.v))
		case f.most > 0 && f.v > f.most:
			return l, optionError(f.name, fmt.Sprintf("must be at most %d, got %d", f.most, f.v))
		case f.v > 0:
			*f.dst = f.v
		}
	}
	return l, nil
}

func optionError(field, reason string) error {
	return &facade.ValidationError{Operation: opExport, Field: "Options." + field, Reason: reason}
}

// optionUnits are what each limit of [Options] counts.
var optionUnits = map[string]string{
	"MaxPageBytes": "bytes", "MaxInflatedBytes": "bytes", "MaxHeldBytes": "bytes", "MaxParts": "parts",
	"MaxCellChars": "characters", "MaxRows": "rows", "MaxColumns": "columns",
	"MaxResultRows": "rows", "MaxResultCells": "cells",
}

// limitError is the error of what going past the option name, whose value
// is max; most is what a workbook holds, 0 when it holds more than any
// option allows; seen is the value that went past, 0 when not known.
func limitError(name string, max, most, seen int64, what string) error {
	return &scmlimits.Error{Package: "dashboard", Limit: "Options." + name, Max: max, Seen: seen,
		Unit: optionUnits[name], What: what, Fixed: max == most}
}
