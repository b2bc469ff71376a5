package dashboard

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// pageSheet is where mergePage streams a page's rows: the second sheet of
// a new workbook, which excelize makes without the tabSelected mark of its
// first; at index 1.
const pageSheet = "Page"

// mergePage streams the rows of a page's workbook into the sheet of a
// workbook of its own, and returns that sheet's part, compressed, to be
// copied into the dashboard's workbook as it is. selected says whether the
// sheet is the one a spreadsheet opens on (the first page's).
func mergePage(data []byte, selected bool) (*zip.File, error) {
	page, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading the page workbook: %w", err)
	}
	defer page.Close()
	one := excelize.NewFile()
	defer one.Close()
	index, err := one.NewSheet(pageSheet)
	if err != nil {
		return nil, err
	}
	if selected {
		one.SetActiveSheet(index)
	}
	if err := copySheets(one, pageSheet, page); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := one.WriteTo(&buf); err != nil {
		return nil, err
	}
	return zipEntry(buf.Bytes(), sheetPath(1))
}

// zipEntry finds the entry name of the zip archive b.
func zipEntry(b []byte, name string) (*zip.File, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("the workbook made has no part %s", name)
}

// copySheets streams every sheet of page into the sheet name of out.
func copySheets(out *excelize.File, name string, page *excelize.File) error {
	sw, err := out.NewStreamWriter(name)
	if err != nil {
		return err
	}
	sources := page.GetSheetList()
	row := 1
	for _, src := range sources {
		if len(sources) > 1 {
			if err := setRow(sw, row, []any{src}); err != nil {
				return err
			}
			row++
		}
		if row, err = copyRows(sw, row, page, src); err != nil {
			return fmt.Errorf("sheet %q: %w", src, err)
		}
		if len(sources) > 1 {
			row++ // an empty row between sections
		}
	}
	return sw.Flush()
}

// copyRows copies the rows of sheet src, keeping their positions relative
// to row, and returns the row after the last.
func copyRows(sw *excelize.StreamWriter, row int, page *excelize.File, src string) (int, error) {
	rows, err := page.Rows(src)
	if err != nil {
		return row, err
	}
	defer rows.Close()
	for rows.Next() {
		cols, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return row, err
		}
		if len(cols) > 0 {
			if err := setRow(sw, row, cellValues(cols)); err != nil {
				return row, err
			}
		}
		row++
	}
	return row, rows.Error()
}

func setRow(sw *excelize.StreamWriter, row int, values []any) error {
	cell, err := excelize.CoordinatesToCellName(1, row)
	if err != nil {
		return err
	}
	return sw.SetRow(cell, values)
}

// cellValues turns raw cell values into what the stream writer writes: a
// number when the text is a number written canonically, so "00123" stays
// text, an empty cell as nil.
func cellValues(cols []string) []any {
	out := make([]any, len(cols))
	for i, v := range cols {
		switch f, err := strconv.ParseFloat(v, 64); {
		case v == "":
			out[i] = nil
		case err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v:
			out[i] = f
		default:
			out[i] = v
		}
	}
	return out
}
