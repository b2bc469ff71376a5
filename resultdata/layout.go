package resultdata

import (
	"strconv"
	"strings"
)

// sheetReader turns the rows of one sheet into charts and their data rows,
// as the recorded layout has them: metadata rows (Type:, Statistics:,
// Chart name:), an empty row, the header, the data. A sheet of a merged
// workbook holds a section per chart, each under a heading naming the
// chart's sheet. What differs from the layout is read where it can be and
// reported as a [Note].
type sheetReader struct {
	opts     Options
	wb       *workbook
	notes    *noter
	sections bool  // a merged workbook's page sheet: headings name charts
	base     Chart // the result, page and sheet of every chart
	yield    func(Row, error) bool

	inData       bool     // past the header of the current chart
	meta         metaRows // the metadata of the current chart
	heading      string   // the heading of the current chart
	header       *heldRow // its header row, until the chart is made
	expectSecond bool     // the next row may be a second header row
	held         *heldRow // a row whose part is known only from the next
	chart        *Chart   // the current chart, once its header is final
	cols         []columnState
	rows         int64   // its data rows so far
	values       []Value // the row yielded last, reused
	lastRow      int64   // the last row that had cells
	sawRows      bool
	noSheetRows  bool // rows of a JSON table: Row.SheetRow is 0
}

// metaRows are the metadata rows of a chart.
type metaRows struct {
	typ, statistics, name string
	seen                  [3]bool
	first                 int64 // the row of the first
}

// heldRow is a row kept for a decision, with its own copy of the cells.
type heldRow struct {
	n     int64
	cells []cell
	gap   bool // an empty row, or the sheet's start, comes before it
}

// columnState is what a chart's column has held so far.
type columnState struct {
	other       [Bool + 1]int64 // cells of a kind other than the column's, by kind
	first, last int64           // their first and last rows

	dayNumbers        int64 // numbers of a time column read as day numbers
	firstDay, lastDay int64 // their first and last rows
}

// line takes the next row of the sheet that has cells, in order.
func (r *sheetReader) line(n int64, cells []cell) bool {
	gap := n > r.lastRow+1
	r.lastRow, r.sawRows = n, true
	label := metaLabel(cells)
	if h := r.held; h != nil {
		r.held = nil
		if !r.resolve(h, cells, label >= 0) {
			return false
		}
	}
	switch {
	case label >= 0:
		r.metaRow(n, label, cells)
		return true
	case !r.inData:
		r.metaOrHeader(n, cells, gap)
		return true
	}
	return r.dataRow(n, cells, gap)
}

// end finishes the sheet.
func (r *sheetReader) end() bool {
	if h := r.held; h != nil {
		r.held = nil
		if !r.resolve(h, nil, false) {
			return false
		}
	}
	r.endChart()
	if !r.sawRows {
		r.notes.add(Note{Kind: EmptySheet, Read: ReadNone, Text: "the sheet has no cells; nothing to read"})
	}
	return true
}

// resolve decides what a held row is, now that the row after it (cells,
// nil at the sheet's end) is known.
func (r *sheetReader) resolve(h *heldRow, cells []cell, nextIsLabel bool) bool {
	switch {
	case nextIsLabel && r.sections && isHeading(h.cells) && (h.gap || !r.inData):
		r.endChart()
		r.heading = h.cells[0].v.Text
		return true
	case !r.inData: // a heading that heads nothing: a header of one column
		r.setHeader(h)
		return true
	case r.chart == nil && r.header != nil: // the row below the header
		if !nextIsLabel && isSecondHeader(h.cells, cells) {
			r.makeChart(h)
			return true
		}
		r.makeChart(nil)
	}
	return r.emit(h.n, h.cells)
}

// metaRow takes a Type:, Statistics: or Chart name: row; one after data
// starts the next chart of the sheet.
func (r *sheetReader) metaRow(n int64, label int, cells []cell) {
	if r.inData {
		r.endChart()
	}
	m := &r.meta
	if m.first == 0 {
		m.first = n
	}
	value := ""
	if len(cells) > 1 {
		value = cells[1].v.String()
	}
	m.seen[label] = true
	switch label {
	case 0:
		m.typ = value
	case 1:
		m.statistics = value
	case 2:
		m.name = value
	}
}

// metaOrHeader takes a row above the data: a heading, a row of unknown
// metadata, or the header.
func (r *sheetReader) metaOrHeader(n int64, cells []cell, gap bool) {
	switch {
	case r.sections && r.meta.first == 0 && r.heading == "" && isHeading(cells):
		r.held = r.hold(n, cells, gap)
	case r.meta.first != 0 && isUnknownMeta(cells):
		r.notes.add(Note{Kind: UnknownMetadata, Chart: r.chartLabel(), Cells: rowSpan(n, n), Read: ReadNone,
			Text: "a row above the header that is no metadata the layout knows (" + quoteCells(cells) + "); skipped"})
	default:
		r.setHeader(r.hold(n, cells, gap))
	}
}

func (r *sheetReader) setHeader(h *heldRow) {
	r.header, r.inData, r.expectSecond = h, true, true
}

// dataRow takes a row below the header.
func (r *sheetReader) dataRow(n int64, cells []cell, gap bool) bool {
	if r.expectSecond {
		r.expectSecond = false
		if allText(cells) {
			r.held = r.hold(n, cells, gap)
			return true
		}
		r.makeChart(nil)
	}
	if r.sections && gap && isHeading(cells) {
		r.held = r.hold(n, cells, gap)
		return true
	}
	if r.repeatsHeader(cells) {
		r.notes.add(Note{Kind: RepeatedHeader, Chart: r.chart.Sheet, Cells: rowSpan(n, n), Read: ReadNone,
			Text: "the row repeats the header; skipped"})
		return true
	}
	return r.emit(n, cells)
}

func (r *sheetReader) hold(n int64, cells []cell, gap bool) *heldRow {
	return &heldRow{n: n, cells: append([]cell(nil), cells...), gap: gap}
}

// endChart reports what the current chart lacked and starts afresh.
func (r *sheetReader) endChart() {
	switch {
	case r.header != nil && r.chart == nil:
		r.makeChart(nil)
	case r.chart == nil && r.meta.first != 0:
		r.notes.add(Note{Kind: EmptySheet, Chart: r.chartLabel(), Cells: rowSpan(r.meta.first, r.lastRow), Read: ReadNone,
			Text: "metadata rows without a header below them; nothing to read"})
	}
	if r.chart != nil {
		if r.rows == 0 {
			r.notes.add(Note{Kind: NoData, Chart: r.chart.Sheet, Cells: rowSpan(r.chart.HeaderRow, r.chart.HeaderRow), Read: ReadAll,
				Text: "a header without data rows below it; the chart has no rows"})
		}
		r.reportTypes()
	}
	r.meta, r.heading, r.header, r.chart, r.rows, r.cols = metaRows{}, "", nil, nil, 0, nil
	r.inData, r.expectSecond = false, false
}

// chartLabel names the current chart in notes: its heading, or its name.
func (r *sheetReader) chartLabel() string {
	if r.chart != nil {
		return r.chart.Sheet
	}
	if r.heading != "" {
		return r.heading
	}
	return r.meta.name
}

// metaLabels are the labels of the metadata rows, lower case.
var metaLabels = [3]string{"type:", "statistics:", "chart name:"}

// metaLabel is the index in metaLabels of the label in column A, or -1.
func metaLabel(cells []cell) int {
	if len(cells) == 0 || cells[0].col != 0 || cells[0].v.Kind != Text {
		return -1
	}
	s := strings.ToLower(strings.Join(strings.Fields(cells[0].v.Text), " "))
	for i, l := range metaLabels {
		if s == l {
			return i
		}
	}
	return -1
}

// isHeading tells a row of one text in column A.
func isHeading(cells []cell) bool {
	return len(cells) == 1 && cells[0].col == 0 && cells[0].v.Kind == Text
}

// isUnknownMeta tells a row that looks like metadata: a label ending in a
// colon in column A, and at most a value beside it.
func isUnknownMeta(cells []cell) bool {
	return len(cells) <= 2 && cells[0].col == 0 && cells[0].v.Kind == Text && strings.HasSuffix(strings.TrimSpace(cells[0].v.Text), ":")
}

func allText(cells []cell) bool {
	for _, c := range cells {
		if c.v.Kind != Text {
			return false
		}
	}
	return true
}

// isSecondHeader tells whether a row of texts below the header names
// columns: a column where it holds text holds a number, time or boolean
// in the next row. Both rows' cells are in column order: one walk over
// them both.
func isSecondHeader(held, next []cell) bool {
	j := 0
	for _, h := range held {
		for j < len(next) && next[j].col < h.col {
			j++
		}
		if j < len(next) && next[j].col == h.col && next[j].v.Kind != Text {
			return true
		}
	}
	return false
}

// quoteCells writes a row's values for a note, cut short.
func quoteCells(cells []cell) string {
	var parts []string
	for _, c := range cells {
		parts = append(parts, columnName(c.col)+"="+clip(c.v.String()))
	}
	return strings.Join(parts, ", ")
}

// clip quotes a value for a note, cut to 40 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}
