package resultdata

import (
	"strings"
	"unicode/utf8"
)

// RowWriter writes rows to a file in one layout and format. Close flushes
// what is buffered and ends the file; it does not close the io.Writer
// under it.
type RowWriter interface {
	Write(Row) error
	Close() error
}

// LongColumns are the columns of the long layout, in order: a record per
// value that is not empty, so every number of a result is in one table.
//
//   - result_id, page_id, page, sheet, chart_type, statistics, chart_name:
//     where the value came from ([Chart]);
//   - row: the row's position among its chart's data rows, from 1;
//     sheet_row: its row in the sheet;
//   - column: the header's name of the value's column;
//   - kind: number, time, text or bool, saying which of the next four
//     columns holds the value; the other three are null.
//
// A chart's table is the pivot of its records on column, by row.
var LongColumns = []string{"result_id", "page_id", "page", "sheet", "chart_type", "statistics", "chart_name",
	"row", "sheet_row", "column", "kind", "number", "time", "text", "bool"}

// ChartColumns are the columns the chart layout begins each row with,
// before the chart's own columns: where the row came from.
var ChartColumns = []string{"result_id", "page_id", "page", "sheet", "chart_type", "statistics", "chart_name", "row", "sheet_row"}

// WideColumns names the columns of a chart's file in the chart layout:
// [ChartColumns], then the chart's columns under their header names; a
// header name that is already taken, ignoring case, is numbered "Name (2)".
func WideColumns(c *Chart) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(ChartColumns)+len(c.Columns))
	for _, name := range ChartColumns {
		out = append(out, uniqueName(name, seen))
	}
	for _, col := range c.Columns {
		out = append(out, uniqueName(col.Name, seen))
	}
	return out
}

// provenance is a row's values of ChartColumns, as text.
func provenance(r Row) [7]string {
	c := r.Chart
	return [7]string{itoa(c.ResultID), itoa(c.PageID), c.Page, c.Sheet, c.Type, c.Statistics, c.Name}
}

// FileName is the name of a chart's file in the chart layout, without its
// extension: its page and sheet, with characters that file systems refuse
// replaced by _ and cut to 120 bytes.
func FileName(c *Chart) string {
	name := c.Page + " - " + c.Sheet
	if c.Page == "" || c.Page == c.Sheet {
		name = c.Sheet
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || strings.ContainsRune(`<>:"/\|?*`, r) {
			return '_'
		}
		return r
	}, name)
	name = strings.Trim(name, " .")
	for len(name) > 120 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		name = "chart"
	}
	return name
}
