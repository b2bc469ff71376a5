package fake

import (
	"iter"
	"os"

	"github.com/xuri/excelize/v2"
)

// sheet is one worksheet of an exported workbook; its rows are produced on
// demand.
type sheet struct {
	name   string
	meta   *chartMeta // nil: the header is row 1
	header []string
	rows   iter.Seq[[]any]
}

// chartMeta is what a dashboard page workbook of the real product writes
// above a chart's header: rows 1 to 3 are "Type:", "Statistics:" and
// "Chart name:" with their values in column B, row 4 is empty, the header
// is row 5 and the data starts at row 6.
type chartMeta struct{ typ, statistics, name string }

// rows are the metadata rows and the empty row that follow them.
func (m *chartMeta) rows() [][]any {
	return [][]any{{"Type:", m.typ}, {"Statistics:", m.statistics}, {"Chart name:", m.name}, nil}
}

// maxSheetName is Excel's limit on a sheet name.
const maxSheetName = 31

// writeWorkbook writes the sheets to a workbook in an unlinked temporary
// file, rewound for reading, and returns it with its size. Rows are streamed
// to the workbook, so large tables are not held in memory.
func writeWorkbook(sheets []sheet) (*os.File, int64, error) {
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if err := addSheet(f, i, s); err != nil {
			return nil, 0, err
		}
	}
	tmp, err := os.CreateTemp("", "scm-fake-export-*.xlsx")
	if err != nil {
		return nil, 0, err
	}
	os.Remove(tmp.Name())
	n, err := f.WriteTo(tmp)
	if err == nil {
		_, err = tmp.Seek(0, 0)
	}
	if err != nil {
		tmp.Close()
		return nil, 0, err
	}
	return tmp, n, nil
}

func addSheet(f *excelize.File, i int, s sheet) error {
	name := s.name
	if len(name) > maxSheetName {
		name = name[:maxSheetName]
	}
	if i == 0 {
		if err := f.SetSheetName("Sheet1", name); err != nil {
			return err
		}
	} else if _, err := f.NewSheet(name); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	row := 1
	if s.meta != nil {
		for _, values := range s.meta.rows() {
			if err := setRow(sw, row, values); err != nil {
				return err
			}
			row++
		}
	}
	if err := setRow(sw, row, toAny(s.header)); err != nil {
		return err
	}
	row++
	for values := range s.rows {
		if err := setRow(sw, row, values); err != nil {
			return err
		}
		row++
	}
	return sw.Flush()
}

// setRow writes values as row (1-based); an empty row writes nothing.
func setRow(sw *excelize.StreamWriter, row int, values []any) error {
	if len(values) == 0 {
		return nil
	}
	cellName, _ := excelize.CoordinatesToCellName(1, row)
	return sw.SetRow(cellName, values)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
