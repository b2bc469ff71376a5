package resultdata

import (
	"fmt"
	"strconv"
	"strings"
)

// makeChart makes the current chart from its header, joined with a second
// header row when there is one, and its metadata.
func (r *sheetReader) makeChart(second *heldRow) {
	h := r.header
	names := make([]string, lastCol(h.cells)+1)
	for _, c := range h.cells {
		names[c.col] = strings.TrimSpace(c.v.String())
	}
	c := r.base
	c.HeaderRow, c.Type, c.Statistics, c.Name = h.n, r.meta.typ, r.meta.statistics, r.meta.name
	if r.heading != "" {
		c.Sheet = r.heading
	}
	r.chart = &c
	if second != nil {
		names = r.joinSecondHeader(names, second)
	}
	names = r.nameColumns(names, h.n)
	c.Columns = make([]Column, len(names))
	for i, name := range names {
		c.Columns[i].Name = name
		if r.opts.TimeColumn(name) {
			c.Columns[i].Kind = Time
		}
	}
	r.cols = make([]columnState, len(names))
	r.reportMetadata()
}

func lastCol(cells []cell) int {
	if len(cells) == 0 {
		return -1
	}
	return cells[len(cells)-1].col
}

// joinSecondHeader names the columns by the header and the row below it.
func (r *sheetReader) joinSecondHeader(names []string, second *heldRow) []string {
	for len(names) <= lastCol(second.cells) {
		names = append(names, "")
	}
	for _, c := range second.cells {
		names[c.col] = strings.TrimSpace(names[c.col] + " " + strings.TrimSpace(c.v.Text))
	}
	r.notes.add(Note{Kind: SecondHeader, Chart: r.chart.Sheet, Cells: rowSpan(r.header.n, second.n), Read: ReadAll,
		Text: fmt.Sprintf("row %d is a second header row (%s): the columns are named by both rows", second.n, quoteCells(second.cells))})
	return names
}

// nameColumns names columns whose header is empty by their letter, and
// numbers names that repeat one before (ignoring case, as DuckDB does).
func (r *sheetReader) nameColumns(names []string, row int64) []string {
	var empty, repeated []string
	seen := map[string]bool{}
	for i, name := range names {
		switch {
		case name == "":
			name = columnName(i)
			empty = append(empty, name)
		case seen[strings.ToLower(name)]:
			repeated = append(repeated, name)
		}
		names[i] = uniqueName(name, seen)
	}
	if len(empty) > 0 {
		r.notes.add(Note{Kind: Unnamed, Chart: r.chart.Sheet, Cells: rowSpan(row, row), Read: ReadAll,
			Text: "header cells are empty in columns " + strings.Join(empty, ", ") + ": those columns are named by their letter"})
	}
	if len(repeated) > 0 {
		r.notes.add(Note{Kind: Unnamed, Chart: r.chart.Sheet, Cells: rowSpan(row, row), Read: ReadAll,
			Text: "the header repeats " + strings.Join(repeated, ", ") + `: a repeated name is numbered, "Name (2)"`})
	}
	return names
}

// uniqueName is name, or name numbered " (2)", " (3)", ... when seen has
// it; it is added to seen.
func uniqueName(name string, seen map[string]bool) string {
	out := name
	for i := 2; seen[strings.ToLower(out)]; i++ {
		out = name + " (" + strconv.Itoa(i) + ")"
	}
	seen[strings.ToLower(out)] = true
	return out
}

// reportMetadata notes the metadata rows the chart lacks.
func (r *sheetReader) reportMetadata() {
	var missing []string
	for i, seen := range r.meta.seen {
		if !seen {
			missing = append(missing, []string{"Type:", "Statistics:", "Chart name:"}[i])
		}
	}
	if len(missing) == 0 {
		return
	}
	r.notes.add(Note{Kind: NoMetadata, Chart: r.chart.Sheet, Cells: rowSpan(r.chart.HeaderRow, r.chart.HeaderRow), Read: ReadAll,
		Text: fmt.Sprintf("no %s row above the header: the chart's %s empty", strings.Join(missing, ", "), metaFields(missing))})
}

func metaFields(missing []string) string {
	if len(missing) == 1 {
		return strings.ToLower(strings.TrimSuffix(missing[0], ":")) + " is"
	}
	return "metadata is"
}

// emit yields a data row: each cell under its column, a text in a time
// column read as a time when it is one.
func (r *sheetReader) emit(n int64, cells []cell) bool {
	if r.chart == nil {
		r.makeChart(nil)
	}
	c := r.chart
	if last := lastCol(cells); last >= len(c.Columns) {
		r.addColumns(last, n)
	}
	vals := r.values[:0]
	for range c.Columns {
		vals = append(vals, Value{})
	}
	for _, cl := range cells {
		vals[cl.col] = r.typed(cl, n)
	}
	r.values = vals
	r.rows++
	if r.noSheetRows {
		n = 0
	}
	return r.yield(Row{Chart: c, Index: r.rows, SheetRow: n, Values: vals}, nil)
}

// typed is a cell's value under its column: a time column's text read as
// a time when it is one; a kind other than the column's is counted.
func (r *sheetReader) typed(cl cell, n int64) Value {
	v, col := cl.v, &r.chart.Columns[cl.col]
	if col.Kind == Time {
		v = r.asTime(v, cl.col, n)
	}
	switch {
	case col.Kind == Empty:
		col.Kind = v.Kind
	case v.Kind != col.Kind:
		st := &r.cols[cl.col]
		if st.first == 0 {
			st.first = n
		}
		st.other[v.Kind]++
		st.last = n
	}
	return v
}

// asTime reads a value of a time column as a time when it is one: a text
// in one of the layouts parseTime knows, or a number without a date
// format (as dashboard.Export copies dates) that is a day number of the
// years 1950 to 2099, counted.
func (r *sheetReader) asTime(v Value, col int, n int64) Value {
	switch v.Kind {
	case Text:
		if t, ok := parseTime(v.Text); ok {
			return Value{Kind: Time, Time: t}
		}
	case Number:
		if v.Num >= dayNumber1950 && v.Num < dayNumber2100 {
			t, _ := r.wb.serialTime(v.Num)
			st := &r.cols[col]
			if st.dayNumbers++; st.firstDay == 0 {
				st.firstDay = n
			}
			st.lastDay = n
			return Value{Kind: Time, Time: t}
		}
	}
	return v
}

// The day numbers of 1 January 1950 and 2100.
const dayNumber1950, dayNumber2100 = 18264, 73051

// addColumns adds columns up to last, named by their letters, for cells
// right of the header.
func (r *sheetReader) addColumns(last int, n int64) {
	c := r.chart
	seen := map[string]bool{}
	for _, col := range c.Columns {
		seen[strings.ToLower(col.Name)] = true
	}
	for i := len(c.Columns); i <= last; i++ {
		name := uniqueName(columnName(i), seen)
		c.Columns = append(c.Columns, Column{Name: name})
		r.cols = append(r.cols, columnState{})
		r.notes.add(Note{Kind: Unnamed, Chart: c.Sheet, Cells: cellName(i, n), Read: ReadAll,
			Text: fmt.Sprintf("cells right of the header, from row %d on: the column is named %s", n, name)})
	}
}

// repeatsHeader tells a row that holds the header's cells again.
func (r *sheetReader) repeatsHeader(cells []cell) bool {
	h := r.header.cells
	if len(cells) != len(h) {
		return false
	}
	for i, c := range cells {
		if c.col != h[i].col || c.v.Kind != Text || c.v.Text != h[i].v.String() {
			return false
		}
	}
	return true
}

// reportTypes notes, per column, the cells of a kind other than the
// column's.
func (r *sheetReader) reportTypes() {
	for i, st := range r.cols {
		col := r.chart.Columns[i]
		if st.dayNumbers > 0 {
			r.notes.add(Note{Kind: DayNumbers, Chart: r.chart.Sheet, Read: ReadAll,
				Cells: fmt.Sprintf("column %s (%s), %s", columnName(i), col.Name, rowSpan(st.firstDay, st.lastDay)),
				Text:  fmt.Sprintf("%d %s of this time column hold numbers without a date format: each was read as a spreadsheet day number", st.dayNumbers, cellsWord(st.dayNumbers))})
		}
		if st.first == 0 {
			continue
		}
		var kinds []string
		var total int64
		for k, n := range st.other {
			if n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", n, Kind(k)))
				total += n
			}
		}
		r.notes.add(Note{Kind: OtherType, Chart: r.chart.Sheet, Read: ReadAll,
			Cells: fmt.Sprintf("column %s (%s), %s", columnName(i), col.Name, rowSpan(st.first, st.last)),
			Text:  fmt.Sprintf("%s %s where the column holds %ss: each was read as what it holds", strings.Join(kinds, ", "), cellsWord(total), col.Kind)})
	}
}

func cellsWord(n int64) string {
	if n == 1 {
		return "cell"
	}
	return "cells"
}
