package resultdata

import (
	"fmt"
	"strconv"
	"strings"
)

// Note reports a sheet, or a part of one, that was not read as the
// recorded layout says: what the reader did instead, what it skipped and
// where. Every odd layout is reported; none is passed over silently.
type Note struct {
	Kind  NoteKind
	Page  string // the page's name
	Sheet string // the sheet: a page workbook's chart sheet, a merged workbook's page sheet
	Chart string // the chart, when the note is about one: its sheet or section name
	// Cells says where: a cell or range ("A1:C1"), "row 7", "rows 6-9",
	// "column C (Value), rows 6-5005"; "" for the whole sheet.
	Cells string
	// Read says how much of what Cells names was read.
	Read Extent
	// Text says what was found and what was done, in a sentence.
	Text string
}

// String is the note as one line: where, then what.
func (n Note) String() string {
	var b strings.Builder
	if n.Page != "" {
		fmt.Fprintf(&b, "page %q, ", n.Page)
	}
	fmt.Fprintf(&b, "sheet %q", n.Sheet)
	if n.Chart != "" && n.Chart != n.Sheet {
		fmt.Fprintf(&b, ", chart %q", n.Chart)
	}
	if n.Cells != "" {
		b.WriteString(", " + n.Cells)
	}
	b.WriteString(": " + n.Text)
	return b.String()
}

// NoteKind is the kind of layout a [Note] reports.
type NoteKind uint8

// The kinds of notes.
const (
	// NoMetadata: some or all of the rows Type:, Statistics: and Chart
	// name: are missing above the header; what is missing stays "".
	NoMetadata NoteKind = iota + 1
	// UnknownMetadata: a row above the header that is neither a known
	// metadata row nor the header; skipped.
	UnknownMetadata
	// SecondHeader: the row below the header is a header too (text over
	// columns of numbers or times); its names were joined to the header's.
	SecondHeader
	// RepeatedHeader: a data row repeats the header; skipped.
	RepeatedHeader
	// EmptySheet: a sheet without rows, or without a header; nothing read.
	EmptySheet
	// NoData: a chart with a header but no data rows.
	NoData
	// OtherType: cells whose kind differs from their column's; each was
	// read as what it holds.
	OtherType
	// Merged: merged cells; the value of the first cell was repeated in
	// the others.
	Merged
	// Unnamed: header cells that were empty, or repeated a name; the
	// column was named by its letter, or its name numbered.
	Unnamed
	// Unreadable: a sheet that could not be read past some point; rows
	// before it were read.
	Unreadable
	// TooManyNotes: the notes of a sheet past [Limits.NotesPerSheet]; the
	// rest of its notes are counted only.
	TooManyNotes
	// NoRows: a table read through the JSON operations that holds no rows.
	NoRows
	// DayNumbers: numbers without a date format in a time column, read as
	// a spreadsheet's day numbers (dashboard.Export copies dates so).
	DayNumbers
)

var noteKindNames = [...]string{
	NoMetadata: "no-metadata", UnknownMetadata: "unknown-metadata", SecondHeader: "second-header",
	RepeatedHeader: "repeated-header", EmptySheet: "empty-sheet", NoData: "no-data", OtherType: "other-type",
	Merged: "merged-cells", Unnamed: "unnamed-column", Unreadable: "unreadable", TooManyNotes: "too-many-notes",
	NoRows: "no-rows", DayNumbers: "day-numbers",
}

func (k NoteKind) String() string {
	if int(k) < len(noteKindNames) && noteKindNames[k] != "" {
		return noteKindNames[k]
	}
	return "NoteKind(" + strconv.Itoa(int(k)) + ")"
}

// Extent is how much of what a note names was read.
type Extent uint8

// The extents.
const (
	ReadAll  Extent = iota // everything was read, differently from the recorded layout
	ReadPart               // some was read, some skipped: the note says what
	ReadNone               // nothing was read
)

func (e Extent) String() string {
	switch e {
	case ReadAll:
		return "read"
	case ReadPart:
		return "read in part"
	case ReadNone:
		return "not read"
	}
	return "Extent(" + strconv.Itoa(int(e)) + ")"
}

// rowSpan describes rows first to last as "row N" or "rows N-M".
func rowSpan(first, last int64) string {
	if first == last {
		return "row " + strconv.FormatInt(first, 10)
	}
	return "rows " + strconv.FormatInt(first, 10) + "-" + strconv.FormatInt(last, 10)
}

// noter hands a sheet's notes to the caller, up to a limit per sheet.
type noter struct {
	emit        func(Note)
	page, sheet string
	limit, n    int
	dropped     int
}

func (n *noter) add(note Note) {
	note.Page, note.Sheet = n.page, n.sheet
	if n.n >= n.limit {
		n.dropped++
		return
	}
	n.n++
	n.emit(note)
}

// close reports the notes past the limit, counted.
func (n *noter) close() {
	if n.dropped > 0 {
		n.emit(Note{Kind: TooManyNotes, Page: n.page, Sheet: n.sheet, Read: ReadAll,
			Text: fmt.Sprintf("%d more notes past the limit Limits.NotesPerSheet (%d) are not listed", n.dropped, n.limit)})
	}
}
